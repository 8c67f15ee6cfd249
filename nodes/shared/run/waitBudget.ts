/**
 * The one budget type. Each item (or each poll) has one: Max Retry Wait, spent by every wait the
 * retry policy decides (429 pauses, backoff, the rate gate) and by every repeated attempt after
 * the first, so that a call ends within Request Timeout + Max Retry Wait whatever the service
 * does. A deadline (the Wait Timeout of Wait for Completion, a presigned URL's expiry, the time
 * n8n gives a poll) is a plain moment with a sentence saying what it is.
 */
export class WaitBudget {
	spentMs = 0;
	waits = 0;
	/** Of spentMs, the time spent in repeated attempts. */
	attemptsMs = 0;

	/**
	 * `name` and `holder` are how messages name the budget and what it belongs to: the Max Retry
	 * Wait option of an item, or the fixed retry wait of an editor lookup.
	 */
	constructor(
		readonly limitMs: number,
		readonly name = 'Max Retry Wait',
		readonly holder = 'this item',
	) {}

	allows(ms: number): boolean {
		return this.spentMs + ms <= this.limitMs;
	}

	remainingMs(): number {
		return Math.max(0, this.limitMs - this.spentMs);
	}

	describe(): string {
		const waited = Math.round((this.spentMs - this.attemptsMs) / 1000);
		const attempts = Math.round(this.attemptsMs / 1000);
		return `${this.name} is ${Math.round(this.limitMs / 1000)} s; ${waited} s were already waited in ${this.waits} wait(s)${attempts > 0 ? ` and ${attempts} s spent in repeated attempts` : ''}`;
	}

	/** A wait. */
	charge(ms: number): void {
		this.spentMs += Math.max(0, ms);
		this.waits += 1;
	}

	/** The time of an attempt after the first. */
	chargeAttempt(ms: number): void {
		this.spentMs += Math.max(0, ms);
		this.attemptsMs += Math.max(0, ms);
	}
}

/** A moment (wait clock, epoch ms) after which nothing more is started, and what it is, for messages. */
export interface Deadline {
	at: number;
	note: string;
}

/** The earlier of two deadlines. */
export function earlier(first: Deadline | undefined, second: Deadline | undefined): Deadline | undefined {
	if (!first) return second;
	if (!second) return first;
	return first.at <= second.at ? first : second;
}
