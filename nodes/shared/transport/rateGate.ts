import { createHash } from 'crypto';

import { waitClock } from '../run/clock';
import { WAIT_LIMITS } from '../limits';

/**
 * The API's word about a key (HTTP 429 with retryAfter) holds every request made with that key
 * in this n8n process: every item, every execution, every poll of the trigger. A gate is found
 * by the API host and a digest of the key (never the key itself) and forgotten a while after it
 * opened again, so the table stays small whatever the number of keys. When a pause ends, the
 * requests it held leave one by one, `rateLimitResumeSpacingMs` apart, not in the same millisecond.
 *
 * In queue mode each worker process has its own gates (docs/queue-mode.md says what a
 * cluster-wide gate would take).
 */

interface GateState {
	/** Nothing is sent before this moment (wait clock, epoch ms). */
	openAt: number;
	/** The last departure slot given to a held request: the next one leaves a spacing later. */
	lastSlotAt: number;
}

/** Gates kept at most; the oldest is dropped past it (a dropped gate only forgets an old pause). */
const MAX_GATES = WAIT_LIMITS.rateGateMaxKept;
/** A gate that has been open for this long is forgotten. */
const FORGET_AFTER_MS = WAIT_LIMITS.rateGateForgetAfterMs;

const gates = new Map<string, GateState>();

function forgetOpenGates(now: number): void {
	for (const [key, state] of gates) {
		if (Math.max(state.openAt, state.lastSlotAt) + FORGET_AFTER_MS < now) gates.delete(key);
	}
	while (gates.size > MAX_GATES) {
		const oldest = gates.keys().next().value;
		if (oldest === undefined) break;
		gates.delete(oldest);
	}
}

/** The gate's name for a credential: the API base URL and a digest of the key. */
export function gateKeyFor(baseUrl: string, apiKey: string): string {
	return `${baseUrl}#${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}

export class RateLimitGate {
	constructor(private readonly key: string) {}

	/** The API asked for a pause: nothing is sent with this key before `untilMs`. */
	hold(untilMs: number): void {
		const now = waitClock.now();
		const state = gates.get(this.key);
		if (state) {
			state.openAt = Math.max(state.openAt, untilMs);
			// Re-inserting keeps the Map in the order of last use, so the oldest is dropped first.
			gates.delete(this.key);
			gates.set(this.key, state);
		} else {
			gates.set(this.key, { openAt: untilMs, lastSlotAt: 0 });
		}
		forgetOpenGates(now);
	}

	/** How long a request must still wait before it may go, without taking a slot (0: it may go now). */
	waitMs(): number {
		const state = gates.get(this.key);
		if (!state) return 0;
		return Math.max(0, Math.max(state.openAt, state.lastSlotAt) - waitClock.now());
	}

	/** Whether a pause the API asked for is still running. */
	isHeld(): boolean {
		const state = gates.get(this.key);
		return state !== undefined && state.openAt > waitClock.now();
	}

	/**
	 * Takes the request's departure slot: 0 when nothing holds the key and every held request has
	 * left; otherwise how long to wait: until the pause ends, and one spacing after the held
	 * request before it.
	 */
	reserve(): number {
		const state = gates.get(this.key);
		if (!state) return 0;
		const now = waitClock.now();
		if (now >= state.openAt && now >= state.lastSlotAt) return 0;
		const slot = Math.max(state.openAt, state.lastSlotAt + WAIT_LIMITS.rateLimitResumeSpacingMs, now);
		state.lastSlotAt = slot;
		return slot - now;
	}
}

/** Forgets every gate. For tests, which replace the wait clock between cases. */
export function forgetRateLimits(): void {
	gates.clear();
}
