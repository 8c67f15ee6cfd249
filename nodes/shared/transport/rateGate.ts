import { createHash } from 'crypto';

import { waitClock } from '../run/clock';
import { WAIT_LIMITS } from '../limits';
import { dropOldest, touch } from '../recentlyUsed';

/**
 * The API's word about a key (HTTP 429) holds every request made with that key in this n8n
 * process: every item, every execution, every poll of the trigger. A gate is found by the API host
 * and a digest of the key (never the key itself) and forgotten a while after it opened again, so
 * the table stays small whatever the number of keys.
 *
 * Every 429 closes the gate for the pause it asked (`hold`), whatever the request that received it
 * does next. A request that finds the gate closed queues (`join`): the requests really waiting
 * leave in the order they came, the first when the pause ends, each next one
 * `rateLimitResumeSpacingMs` after the one before. A request that leaves the queue without going
 * through (its budget cannot pay the wait, or its execution was stopped) gives its place back at
 * once, so the wait of a request is never longer than the pause asked plus one spacing for itself
 * and for each request still waiting ahead of it.
 *
 * In queue mode each worker process has its own gates (docs/queue-mode.md says what a
 * cluster-wide gate would take).
 */

interface GateState {
	/** Nothing is sent before this moment (wait clock, epoch ms): the end of the pause asked. */
	openAt: number;
	/** When the last request that waited here went through (spacing counts from it). */
	lastLeftAt: number;
	/** The requests waiting here, in the order they came (Set keeps insertion order). */
	readonly waiting: Set<GateTicket>;
}

/** Gates kept at most; past it the oldest without a waiting request is dropped (it only forgets an old pause). */
const MAX_GATES = WAIT_LIMITS.rateGateMaxKept;
/** A gate that has been open for this long, with nobody waiting, is forgotten. */
const FORGET_AFTER_MS = WAIT_LIMITS.rateGateForgetAfterMs;
const SPACING_MS = WAIT_LIMITS.rateLimitResumeSpacingMs;

const gates = new Map<string, GateState>();

function forgetOpenGates(now: number): void {
	for (const [key, state] of gates) {
		if (state.waiting.size === 0 && Math.max(state.openAt, state.lastLeftAt) + FORGET_AFTER_MS < now) gates.delete(key);
	}
	// Oldest first (the Map is in the order of last use); a gate with requests waiting is kept
	// while any other can go, so a held request is never left looking at a gate nobody holds.
	dropOldest(gates, MAX_GATES, (state) => state.waiting.size === 0);
	dropOldest(gates, MAX_GATES);
}

/** The gate's name for a credential: the API base URL and a digest of the key. */
export function gateKeyFor(baseUrl: string, apiKey: string): string {
	return `${baseUrl}#${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}

/** When a request with `ahead` requests waiting before it may leave. */
function slotAt(state: GateState, ahead: number): number {
	return Math.max(state.openAt + ahead * SPACING_MS, state.lastLeftAt + (ahead + 1) * SPACING_MS);
}

/** One request's place in a gate's queue. */
export class GateTicket {
	private inQueue = true;

	constructor(private readonly gate: RateLimitGate) {}

	/** How long this request must still wait (0: it may go now), from its place in the queue. */
	waitMs(): number {
		const state = this.gate.state();
		if (!this.inQueue || !state?.waiting.has(this)) return 0;
		let ahead = 0;
		for (const other of state.waiting) {
			if (other === this) break;
			ahead += 1;
		}
		return Math.max(0, slotAt(state, ahead) - waitClock.now());
	}

	/** The request goes through: it leaves the queue, and the next one leaves a spacing later. */
	pass(): void {
		const state = this.gate.state();
		if (this.inQueue && state?.waiting.delete(this)) state.lastLeftAt = Math.max(state.lastLeftAt, waitClock.now());
		this.inQueue = false;
	}

	/** The request leaves without going through (refused, stopped): its place is given back. */
	giveBack(): void {
		if (this.inQueue) this.gate.state()?.waiting.delete(this);
		this.inQueue = false;
	}
}

export class RateLimitGate {
	constructor(private readonly key: string) {}

	/** The gate's state, if it holds or held anything (for its tickets). */
	state(): GateState | undefined {
		return gates.get(this.key);
	}

	/**
	 * The API asked for a pause: nothing is sent with this key before `untilMs`, or before
	 * `rateGateMaxHoldMs` from now, whichever is sooner (a longer pause would only refuse every
	 * request until then; after it the next request asks the API again).
	 */
	hold(untilMs: number): void {
		const now = waitClock.now();
		const until = Math.min(untilMs, now + WAIT_LIMITS.rateGateMaxHoldMs);
		const state = gates.get(this.key);
		if (state) state.openAt = Math.max(state.openAt, until);
		// In the order of last use, so the oldest is dropped first.
		touch(gates, this.key, state ?? { openAt: until, lastLeftAt: 0, waiting: new Set() });
		forgetOpenGates(now);
	}

	/** How long a request arriving now would wait (0: it may go at once); takes no place. */
	waitMs(): number {
		const state = gates.get(this.key);
		if (!state) return 0;
		const now = waitClock.now();
		if (state.waiting.size === 0 && now >= state.openAt) return 0;
		return Math.max(0, slotAt(state, state.waiting.size) - now);
	}

	/**
	 * Takes a place in the queue for a request that must wait (waitMs() > 0), behind the requests
	 * already waiting. The caller must end it with pass() or giveBack().
	 */
	join(): GateTicket {
		let state = gates.get(this.key);
		if (!state) {
			state = { openAt: 0, lastLeftAt: 0, waiting: new Set() };
			gates.set(this.key, state);
		}
		const ticket = new GateTicket(this);
		state.waiting.add(ticket);
		return ticket;
	}
}

/** Forgets every gate. For tests, which replace the wait clock between cases. */
export function forgetRateLimits(): void {
	gates.clear();
}
