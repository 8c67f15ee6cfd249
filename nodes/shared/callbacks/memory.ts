import type { IDataObject } from 'n8n-workflow';

import { CALLBACK_LIMITS } from '../limits';
import { dropOldest, touch } from '../recentlyUsed';

/**
 * What one n8n process remembers for each Callback Trigger node (a scope: the workflow, the node,
 * and production or test calls), across the calls it answers:
 * - the checks in flight, by key: a second delivery of a callback whose check is running waits for
 *   that check and answers what it found, instead of checking (and emitting) again; at most
 *   CALLBACK_LIMITS.maxChecksInFlight per scope and maxChecksInFlightPerProcess in all scopes;
 * - the keys it emitted (or decided) recently, at most History Size, oldest dropped first (not in
 *   a test scope: a test call fires whatever production handled, and is not remembered);
 * - the last answer of each upload whose check emitted nothing (unknown to the API, still
 *   processing, the API unavailable, a step the API does not list), for a short while, at most
 *   CALLBACK_LIMITS.maxRememberedAnswers uploads: calls about it meanwhile cost no request.
 * Module state on purpose, and the only state that sees a concurrent call: n8n gives each call a
 * fresh context, reads the workflow's static data when the call starts and saves it after the call
 * returns (measured on n8n 2.41.1 and 1.123.81: three deliveries at once all emitted with static
 * data alone). Static data (history.ts) carries the keys across restarts and processes.
 * At most CALLBACK_LIMITS.maxScopesInMemory scopes are kept; the one called least recently (and
 * with no check in flight) is dropped first.
 */

/** How a call is answered, and what it emits when it is the first of its key. */
export interface Verdict {
	status: number;
	body: IDataObject;
	/** Whether the key is remembered as handled (an emission, or an outcome with nothing to emit). */
	handled: boolean;
}

/** An answer given from memory, until `until` (wait clock, ms). */
interface RememberedAnswer {
	status: number;
	body: IDataObject;
	until: number;
}

/** Checks in flight in all scopes of this process. */
let checksInProcess = 0;

export class CallbackScope<V extends Verdict = Verdict> {
	private readonly inFlight = new Map<string, Promise<V>>();
	private readonly recent = new Map<string, true>();
	private readonly answers = new Map<string, RememberedAnswer>();

	constructor(private readonly remembersHandled: boolean) {}

	/** Whether this process handled `key` recently. */
	remembers(key: string): boolean {
		return this.recent.has(key);
	}

	/** The keys handled recently, oldest first. */
	recentKeys(): string[] {
		return [...this.recent.keys()];
	}

	get checksInFlight(): number {
		return this.inFlight.size;
	}

	/** Whether a check of `key` runs now (a call for it joins that check). */
	checking(key: string): boolean {
		return this.inFlight.has(key);
	}

	/** Whether another check may start now: below the cap of the scope and of the process. */
	admits(): boolean {
		return this.inFlight.size < CALLBACK_LIMITS.maxChecksInFlight && checksInProcess < CALLBACK_LIMITS.maxChecksInFlightPerProcess;
	}

	/** The answer remembered for `uploadId`, while it holds. */
	recall(uploadId: string, now: number): { status: number; body: IDataObject } | undefined {
		const answer = this.answers.get(uploadId);
		if (!answer) return undefined;
		if (now < answer.until) return { status: answer.status, body: answer.body };
		this.answers.delete(uploadId);
		return undefined;
	}

	/** Remembers how a call about `uploadId` is answered until `until`; the oldest upload is dropped past the bound. */
	rememberAnswer(uploadId: string, answer: RememberedAnswer): void {
		touch(this.answers, uploadId, answer);
		dropOldest(this.answers, CALLBACK_LIMITS.maxRememberedAnswers);
	}

	private remember(key: string, limit: number): void {
		if (!this.remembersHandled) return;
		// Bounded: one key in, at most one out per call once full (more only after History Size was lowered).
		touch(this.recent, key, true);
		dropOldest(this.recent, limit);
	}

	/**
	 * Runs `check` for `key` unless one runs already; then waits for that one instead. The claim is
	 * taken before anything is awaited, so of concurrent calls exactly one checks. A handled key is
	 * remembered before the claim is released, so a call arriving in between finds it. The caller
	 * asks admits() first (nothing is awaited in between) when no check of the key runs.
	 */
	async once(key: string, limit: number, check: () => Promise<V>): Promise<{ verdict: V; first: boolean }> {
		const running = this.inFlight.get(key);
		if (running) return { verdict: await running, first: false };
		checksInProcess += 1;
		const checking = check().then((verdict) => {
			if (verdict.handled) this.remember(key, limit);
			return verdict;
		});
		this.inFlight.set(key, checking);
		try {
			return { verdict: await checking, first: true };
		} finally {
			this.inFlight.delete(key);
			checksInProcess -= 1;
		}
	}
}

const scopes = new Map<string, CallbackScope<Verdict>>();

/**
 * The memory of one trigger node in this process (created on first use; most recently used last).
 * Test calls (the editor's test URL, n8n's mode "manual") have a scope of their own.
 */
export function scopeOf<V extends Verdict>(workflowId: string, nodeId: string, test = false): CallbackScope<V> {
	const id = `${workflowId}\u0000${nodeId}\u0000${test ? 'test' : 'production'}`;
	let scope = scopes.get(id);
	if (!scope) {
		// Room for the new scope; one with a check in flight is kept (checks are capped per process).
		dropOldest(scopes, CALLBACK_LIMITS.maxScopesInMemory - 1, (old) => old.checksInFlight === 0);
		scope = new CallbackScope(!test);
	}
	touch(scopes, id, scope);
	return scope as unknown as CallbackScope<V>;
}
