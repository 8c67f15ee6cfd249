import { NodeOperationError } from 'n8n-workflow';

import type { RequestPolicy } from '../run/policy';
import type { Deadline } from '../run/waitBudget';
import { earlier } from '../run/waitBudget';
import { pause, throwIfCancelled } from '../run/cancel';
import { waitClock } from '../run/clock';
import type { ApiContext } from '../run/context';
import { WAIT_LIMITS } from '../limits';
import type { RateLimitGate } from './rateGate';

/**
 * The one retry policy. Every request of the node (API calls, storage uploads and downloads,
 * multipart parts) goes through `withRetries`: callers say what an attempt did; this module
 * decides whether to try again, how long to wait (floored, capped, jittered), charges waits and
 * repeated attempts to the item's budget, stops at deadlines and on cancellation, and holds
 * every request made with the key while the API asks for a pause (429, the rate gate).
 */

/** What one attempt did, when it did not succeed. */
export type AttemptFailure =
	| {
			kind: 'rate-limited';
			/** The wait the answer asked for (retryAfter or Retry-After), when it gave a usable one. */
			retryAfterMs?: number;
			/** The error to report when the policy gives up, with a sentence saying why. */
			giveUp: (note?: string) => Error;
	  }
	| {
			kind: 'failed';
			/** The same request may be sent again (5xx, network error, timeout; and it is safe to repeat). */
			repeatable: boolean;
			giveUp: (note?: string) => Error;
	  };

export type AttemptResult<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure };

/** Marks an error as ended by a deadline (error.context.deadlineReached), for callers that say so. */
function endedByDeadline<E extends Error>(error: E): E {
	const context = (error as { context?: Record<string, unknown> }).context;
	if (context && typeof context === 'object') context.deadlineReached = true;
	return error;
}

export function isEndedByDeadline(error: unknown): boolean {
	return (error as { context?: Record<string, unknown> } | undefined)?.context?.deadlineReached === true;
}

/**
 * The pause a 429 asks for: what the API asked, never less than the floor; when it asked for
 * nothing usable (missing, 0, negative, unparsable, a past date), 1 s, 2 s, 4 s … by the number
 * of 429s so far.
 */
function rateLimitPauseMs(askedMs: number | undefined, rateLimitCount: number): number {
	const backoff = Math.min(
		WAIT_LIMITS.rateLimitBackoffCapMs,
		WAIT_LIMITS.rateLimitFloorMs * 2 ** Math.max(0, rateLimitCount - 1),
	);
	const base =
		askedMs !== undefined && Number.isFinite(askedMs) && askedMs >= WAIT_LIMITS.rateLimitFloorMs ? askedMs : backoff;
	return Math.ceil(base);
}

/**
 * A pause plus a little jitter, never below it: for storage, which has no gate, so that the parts
 * of an upload do not return in the same millisecond. (Requests held by the key's gate leave
 * spaced by the gate instead, and wait no longer than asked.)
 */
function withJitter(pauseMs: number): number {
	return Math.ceil(pauseMs + Math.min(WAIT_LIMITS.rateLimitJitterCapMs, pauseMs * WAIT_LIMITS.rateLimitJitterShare) * Math.random());
}

/** The pause before retry number `retry` (1, 2, …) after a failure: exponential, equal jitter. */
function failureDelayMs(retry: number): number {
	const exponential = Math.min(
		WAIT_LIMITS.failureBackoffCapMs,
		WAIT_LIMITS.failureBackoffBaseMs * 2 ** Math.max(0, retry - 1),
	);
	return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}

interface RetryOptions {
	context: ApiContext;
	/** The item's (the poll's) bounds: Request Timeout, the Max Retry Wait budget, the poll's time. */
	policy: RequestPolicy;
	/** API requests pass through the key's rate-limit gate; storage requests do not. */
	gate?: RateLimitGate;
	/** Makes the error for a request held at the gate longer than its budget allows. */
	gateRefusal?: (waitMs: number) => Error;
	/** Retries after failures (default WAIT_LIMITS.maxFailureRetries). */
	maxFailureRetries?: number;
	/** Who answers, in messages: 'The API' (default) or 'Storage'. */
	service?: string;
	/** No attempt starts and no wait ends after this moment; attempts are cut short by it too. */
	deadline?: Deadline;
	/** The error when the deadline has passed before any attempt failed. */
	deadlineError?: () => Error;
}

/** What one attempt may take. */
export interface AttemptLimits {
	/** The attempt's number, from 1. */
	attemptNumber: number;
	/**
	 * Request Timeout, or less: what the budget has left (a repeated attempt) or the time to the
	 * call's deadline. An API attempt's deadline over its whole answer; a storage attempt's idle time.
	 */
	timeoutMs: number;
	/**
	 * A repeated attempt only: what Max Retry Wait has left when it starts. It is charged to the
	 * budget, so it must end by then whatever its bytes take (a storage transfer's real-time deadline).
	 */
	budgetLeftMs: number | undefined;
}

const join = (...notes: Array<string | undefined>) => notes.filter(Boolean).join('. ') || undefined;
const tries = (count: number) => (count > 1 ? `Gave up after ${count} attempts` : undefined);

/**
 * Runs `attempt` until it succeeds or the policy gives up. `attempt` gets its number and the time
 * it may take. The first attempt has the Request Timeout (and a storage transfer its speed limit);
 * every wait and every later attempt, API and storage alike, is charged to the item's budget, so
 * a call ends within its first attempt + Max Retry Wait.
 */
export async function withRetries<T>(
	options: RetryOptions,
	attempt: (limits: AttemptLimits) => Promise<AttemptResult<T>>,
): Promise<T> {
	const { context, gate } = options;
	const { budget, requestTimeoutMs, waitDeadline } = options.policy;
	// The call's own deadline (a URL's expiry, the Wait Timeout) or the policy's (an editor lookup's time), the earlier.
	const ownDeadline = options.deadline;
	options = { ...options, deadline: earlier(ownDeadline, options.policy.deadline) };
	const deadlineError = options.deadline === ownDeadline ? options.deadlineError : undefined;
	const maxFailureRetries = options.maxFailureRetries ?? WAIT_LIMITS.maxFailureRetries;
	let failureRetries = 0;
	let rateLimits = 0;
	let lastFailure: AttemptFailure | undefined;

	for (let attemptNumber = 1; ; attemptNumber++) {
		throwIfCancelled(context);
		await passGate(options, lastFailure, attemptNumber);

		// The first attempt has the Request Timeout; every later one only what the budget has left.
		const budgetLeftMs = attemptNumber > 1 ? budget.remainingMs() : undefined;
		let timeoutMs = requestTimeoutMs;
		if (budgetLeftMs !== undefined) timeoutMs = Math.min(timeoutMs, budgetLeftMs);
		if (options.deadline) timeoutMs = Math.min(timeoutMs, options.deadline.at - waitClock.now());
		if (timeoutMs < Math.min(WAIT_LIMITS.minAttemptMs, requestTimeoutMs)) {
			const deadlineOver = options.deadline !== undefined && options.deadline.at - waitClock.now() < WAIT_LIMITS.minAttemptMs;
			const note = deadlineOver
				? (options.deadline?.note ?? 'The time allowed for this request is over')
				: `No time is left for another attempt (${budget.describe()})`;
			const error = lastFailure
				? lastFailure.giveUp(join(note, tries(attemptNumber - 1)))
				: (deadlineError?.() ?? new NodeOperationError(context.getNode(), note));
			throw deadlineOver ? endedByDeadline(error) : error;
		}

		// An attempt takes real time (its bounds are real time, transport/watch.ts), whatever clock the waits use.
		const startedAt = Date.now();
		const result = await attempt({ attemptNumber, timeoutMs, budgetLeftMs });
		if (budgetLeftMs !== undefined) budget.chargeAttempt(Date.now() - startedAt);
		if (result.ok) return result.value;
		throwIfCancelled(context);
		const failure = result.failure;
		lastFailure = failure;

		let delayMs: number;
		if (failure.kind === 'rate-limited') {
			rateLimits += 1;
			const pauseMs = rateLimitPauseMs(failure.retryAfterMs, rateLimits);
			// Every 429 closes the key's gate for every user of the key, before this request decides
			// whether it waits: the others must not send into the pause the API announced.
			gate?.hold(waitClock.now() + pauseMs);
			delayMs = gate ? pauseMs : withJitter(pauseMs);
		} else {
			if (!failure.repeatable) throw failure.giveUp(tries(attemptNumber));
			if (failureRetries >= maxFailureRetries) throw failure.giveUp(tries(attemptNumber));
			failureRetries += 1;
			delayMs = failureDelayMs(failureRetries);
		}
		if (!budget.allows(delayMs)) {
			const what = failure.kind === 'rate-limited' ? `${options.service ?? 'The API'} asked to wait` : 'Retrying needs a pause of';
			throw failure.giveUp(
				join(`${what} ${Math.ceil(delayMs / 1000)} s, more than ${budget.holder} may still wait (${budget.describe()})`, tries(attemptNumber)),
			);
		}
		if (options.deadline !== undefined && waitClock.now() + delayMs >= options.deadline.at) {
			throw endedByDeadline(failure.giveUp(join(options.deadline.note, tries(attemptNumber))));
		}
		if (waitDeadline !== undefined && waitClock.now() + delayMs >= waitDeadline.at) {
			throw failure.giveUp(join(waitDeadline.note, tries(attemptNumber)));
		}
		if (failure.kind === 'rate-limited' && gate) {
			// The pause holds every request with this key; this one waits for it at the gate.
			continue;
		}
		await pause(context, delayMs, budget);
	}
}

/**
 * Waits at the key's rate-limit gate for this request's turn, or refuses when the wait does not
 * fit. A request that waits holds a place in the gate's queue only while it really waits: refused
 * or stopped, it gives the place back, so it never lengthens the wait of the requests after it.
 */
async function passGate(options: RetryOptions, lastFailure: AttemptFailure | undefined, attemptNumber: number): Promise<void> {
	const { context, gate } = options;
	const { budget, waitDeadline } = options.policy;
	if (!gate || gate.waitMs() <= 0) return;
	const ticket = gate.join();
	try {
		// Bounded: each round either passes, throws, or waits (charged to the budget); a round
		// after a wait ends sooner unless a new 429 closed the gate again.
		for (;;) {
			const held = ticket.waitMs();
			if (held <= 0) {
				ticket.pass();
				return;
			}
			const pastWaitDeadline = waitDeadline !== undefined && waitClock.now() + held >= waitDeadline.at;
			const pastDeadline = options.deadline !== undefined && waitClock.now() + held >= options.deadline.at;
			if (!budget.allows(held) || pastWaitDeadline || pastDeadline) {
				const limit = pastWaitDeadline
					? (waitDeadline?.note ?? '')
					: pastDeadline
						? (options.deadline?.note ?? '')
						: `more than ${budget.holder} may still wait (${budget.describe()})`;
				const note = `The API asked to pause requests with this key for ${Math.ceil(held / 1000)} s more; ${limit}`;
				if (lastFailure) throw lastFailure.giveUp(join(note, tries(attemptNumber - 1)));
				throw options.gateRefusal?.(held) ?? new NodeOperationError(context.getNode(), note);
			}
			await pause(context, held, budget);
		}
	} finally {
		// Refused or stopped: the place goes back at once (a no-op once it passed).
		ticket.giveBack();
	}
}
