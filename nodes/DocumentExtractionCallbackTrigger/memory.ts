import type { IDataObject } from 'n8n-workflow';

import { CALLBACK_LIMITS } from '../shared/limits';

/**
 * What one n8n process remembers for each Callback Trigger node (a scope: the workflow and the
 * node), across the calls it answers:
 * - the checks in flight, by key: a second delivery of a callback whose check is running waits for
 *   that check and answers what it found, instead of checking (and emitting) again;
 * - the keys it emitted (or decided) recently, at most History Size, oldest dropped first.
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

export class CallbackScope<V extends Verdict = Verdict> {
	private readonly inFlight = new Map<string, Promise<V>>();
	private readonly recent = new Map<string, true>();

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

	private remember(key: string, limit: number): void {
		this.recent.delete(key);
		this.recent.set(key, true);
		// Bounded: one key in, at most one out per call once full (more only after History Size was lowered).
		for (const oldest of this.recent.keys()) {
			if (this.recent.size <= limit) break;
			this.recent.delete(oldest);
		}
	}

	/**
	 * Runs `check` for `key` unless one runs already; then waits for that one instead. The claim is
	 * taken before anything is awaited, so of concurrent calls exactly one checks. A handled key is
	 * remembered before the claim is released, so a call arriving in between finds it.
	 */
	async once(key: string, limit: number, check: () => Promise<V>): Promise<{ verdict: V; first: boolean }> {
		const running = this.inFlight.get(key);
		if (running) return { verdict: await running, first: false };
		const checking = check().then((verdict) => {
			if (verdict.handled) this.remember(key, limit);
			return verdict;
		});
		this.inFlight.set(key, checking);
		try {
			return { verdict: await checking, first: true };
		} finally {
			this.inFlight.delete(key);
		}
	}
}

const scopes = new Map<string, CallbackScope<Verdict>>();

/** The memory of one trigger node in this process (created on first use; most recently used last). */
export function scopeOf<V extends Verdict>(workflowId: string, nodeId: string): CallbackScope<V> {
	const id = `${workflowId}\u0000${nodeId}`;
	let scope = scopes.get(id);
	if (scope) {
		scopes.delete(id);
	} else {
		scope = new CallbackScope();
		for (const [oldId, old] of scopes) {
			if (scopes.size < CALLBACK_LIMITS.maxScopesInMemory) break;
			if (old.checksInFlight === 0) scopes.delete(oldId);
		}
	}
	scopes.set(id, scope);
	return scope as unknown as CallbackScope<V>;
}
