import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { waitClock } from './clock';
import type { ApiContext } from './context';
import { cancelSignalOf, readParameter } from './context';

/**
 * The one retry and wait policy. Every request of the node (API calls, storage uploads and
 * downloads, multipart parts) and the processing wait go through `withRetries` or `waitFor`:
 * callers say what an attempt did; this module decides whether to try again, how long to wait
 * (floored, capped, jittered), charges the wait to the item's budget, stops at deadlines and on
 * cancellation, and holds the run's other API requests while the API asks for a pause (429).
 */

export const WAIT_LIMITS = {
	/** A 429 is never retried sooner than this, whatever the answer says. */
	rateLimitFloorMs: 1000,
	/** A 429 without a usable retryAfter waits 1 s, 2 s, 4 s … up to this. */
	rateLimitBackoffCapMs: 30_000,
	/** Extra wait added to a 429's pause, at most this share of it, so items do not return together. */
	rateLimitJitterShare: 0.2,
	rateLimitJitterCapMs: 5_000,
	/** After a failure (5xx, network error, timeout): 0.5 s, 1 s, 2 s … up to this, equal jitter. */
	failureBackoffBaseMs: 500,
	failureBackoffCapMs: 8_000,
	/** Retries after failures, for requests that are safe to repeat. */
	maxFailureRetries: 3,
	/** Default of Max Retry Wait: all the waits of one item together, in seconds. */
	defaultMaxWaitSeconds: 60,
	/** Highest Max Retry Wait accepted. */
	maxMaxWaitSeconds: 3600,
	/** Default of Request Timeout, in seconds. */
	defaultRequestTimeoutSeconds: 60,
	/** Lowest Request Timeout accepted, in seconds. */
	minRequestTimeoutSeconds: 1,
} as const;

/** Names of the options (inside each operation's Options collection) that set the policy. */
export const MAX_WAIT_PARAMETER = 'options.maxRateLimitWait';
export const REQUEST_TIMEOUT_PARAMETER = 'options.requestTimeout';

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

/** Seconds from a retryAfter body field or a Retry-After header (seconds or an HTTP date). */
export function retryAfterMs(body: IDataObject | undefined, headers: IDataObject | undefined): number | undefined {
	const fromBody = body?.retryAfter;
	if (typeof fromBody === 'number' && Number.isFinite(fromBody)) return fromBody * 1000;
	if (typeof fromBody === 'string' && fromBody.trim() !== '' && Number.isFinite(Number(fromBody))) {
		return Number(fromBody) * 1000;
	}
	const header = headers?.['retry-after'];
	const text = Array.isArray(header) ? String(header[0]) : header === undefined || header === null ? '' : String(header);
	if (text.trim() === '') return undefined;
	const seconds = Number(text);
	if (Number.isFinite(seconds)) return seconds * 1000;
	const date = Date.parse(text);
	if (!Number.isNaN(date)) return date - Date.now();
	return undefined;
}

/**
 * The pause before retrying after a 429: what the API asked for, never less than the floor; when
 * it asked for nothing usable (missing, 0, negative, unparsable, a past date), 1 s, 2 s, 4 s …
 * by the number of 429s so far. Plus a little jitter, never below what was asked.
 */
function rateLimitDelayMs(askedMs: number | undefined, rateLimitCount: number): number {
	const backoff = Math.min(
		WAIT_LIMITS.rateLimitBackoffCapMs,
		WAIT_LIMITS.rateLimitFloorMs * 2 ** Math.max(0, rateLimitCount - 1),
	);
	const base =
		askedMs !== undefined && Number.isFinite(askedMs) && askedMs >= WAIT_LIMITS.rateLimitFloorMs ? askedMs : backoff;
	const jitter = Math.min(WAIT_LIMITS.rateLimitJitterCapMs, base * WAIT_LIMITS.rateLimitJitterShare) * Math.random();
	return Math.ceil(base + jitter);
}

/** The pause before retry number `retry` (1, 2, …) after a failure: exponential, equal jitter. */
function failureDelayMs(retry: number): number {
	const exponential = Math.min(
		WAIT_LIMITS.failureBackoffCapMs,
		WAIT_LIMITS.failureBackoffBaseMs * 2 ** Math.max(0, retry - 1),
	);
	return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}

/** HTTP answers worth repeating for a request that is safe to repeat. */
export function isTransientStatus(statusCode: number): boolean {
	return statusCode === 408 || (statusCode >= 500 && statusCode !== 501 && statusCode !== 505);
}

const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ENETDOWN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
	// n8n's HTTP client (axios) when the connection closed before the answer's body was complete
	'ERR_BAD_RESPONSE',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** The low-level network error code inside an error thrown by n8n's HTTP helpers, if any. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^(E[A-Z_]+|ERR_[A-Z_]+|UND_ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)$/.test(code)) {
			return code;
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Whether any error in the cause chain has a network code worth a retry. */
export function isTransientNetworkError(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/**
 * All the waits of one item (or of one poll) together. The user sees and sets its size: the
 * Max Retry Wait option. Only time spent waiting counts, not time spent in requests.
 */
export class WaitBudget {
	spentMs = 0;
	waits = 0;

	constructor(readonly limitMs: number) {}

	allows(ms: number): boolean {
		return this.spentMs + ms <= this.limitMs;
	}

	remainingMs(): number {
		return Math.max(0, this.limitMs - this.spentMs);
	}

	describe(): string {
		return `Max Retry Wait is ${Math.round(this.limitMs / 1000)} s; ${Math.round(this.spentMs / 1000)} s were already waited in ${this.waits} wait(s)`;
	}

	charge(ms: number): void {
		this.spentMs += ms;
		this.waits += 1;
	}
}

/**
 * The API's word about the key, shared by every API request of one node run (all its items and
 * batches) or one poll: after a 429, nothing is sent to the API until the pause it asked for
 * has passed.
 */
export class RateLimitGate {
	private openAtMs = 0;

	hold(untilMs: number): void {
		this.openAtMs = Math.max(this.openAtMs, untilMs);
	}

	/** How long a request must wait before it may go, 0 when the gate is open. */
	waitMs(): number {
		return Math.max(0, this.openAtMs - waitClock.now());
	}
}

/** The execution was stopped: nothing more is sent (error.context.cancelled is true). */
export function cancelledError(context: ApiContext): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		'The execution was stopped; no further requests were sent.',
	);
	error.context.cancelled = true;
	return error;
}

export function isCancelled(context: ApiContext): boolean {
	return cancelSignalOf(context)?.aborted === true;
}

export function throwIfCancelled(context: ApiContext): void {
	if (isCancelled(context)) throw cancelledError(context);
}

/**
 * Waits `ms` on the wait clock, charged to `budget` when given; ends at once with
 * cancelledError when the execution is stopped (the only way the clock's sleep fails).
 */
export async function pause(context: ApiContext, ms: number, budget?: WaitBudget): Promise<void> {
	throwIfCancelled(context);
	if (ms <= 0) return;
	budget?.charge(ms);
	try {
		await waitClock.sleep(ms, cancelSignalOf(context));
	} catch {
		throw cancelledError(context);
	}
}

export interface Limits {
	maxWaitMs: number;
	requestTimeoutMs: number;
}

/**
 * One of the two options every operation and the trigger have, checked: a number (or text holding
 * one, as an expression may give) within its range. Anything else is refused, naming the option
 * and the item, instead of being replaced by a default behind the user's back.
 */
function readLimit(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	displayName: string,
	fallback: number,
	range: { min: number; max?: number },
): number {
	const value: unknown = readParameter<NodeParameterValueType>(context, parameter, itemIndex, fallback);
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
	if (Number.isFinite(number) && number >= range.min && (range.max === undefined || number <= range.max)) return number;
	const expected =
		range.max === undefined ? `a number of seconds, ${range.min} or more` : `a number of seconds from ${range.min} to ${range.max}`;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const shown = text === undefined ? 'nothing' : `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
	const where = itemIndex === undefined ? '' : ` in item ${itemIndex}`;
	throw new NodeOperationError(context.getNode(), `Invalid ${displayName}${where}: expected ${expected}, got ${shown}`, {
		itemIndex,
		description: `Correct "${displayName}" (it is checked before anything is sent to the API).`,
	});
}

/** Reads and checks the item's Max Retry Wait (ms) and Request Timeout (ms) options. */
export function limitsFor(context: ApiContext, itemIndex: number | undefined): Limits {
	const maxWait = readLimit(context, itemIndex, MAX_WAIT_PARAMETER, 'Max Retry Wait (Seconds)', WAIT_LIMITS.defaultMaxWaitSeconds, {
		min: 0,
		max: WAIT_LIMITS.maxMaxWaitSeconds,
	});
	const timeout = readLimit(
		context,
		itemIndex,
		REQUEST_TIMEOUT_PARAMETER,
		'Request Timeout (Seconds)',
		WAIT_LIMITS.defaultRequestTimeoutSeconds,
		{ min: WAIT_LIMITS.minRequestTimeoutSeconds },
	);
	return { maxWaitMs: maxWait * 1000, requestTimeoutMs: timeout * 1000 };
}

export interface RetryOptions {
	context: ApiContext;
	budget: WaitBudget;
	/** API requests pass through the run's rate-limit gate; storage requests do not. */
	gate?: RateLimitGate;
	/** Makes the error for a request held at the gate longer than its budget allows. */
	gateRefusal?: (waitMs: number) => Error;
	/** Retries after failures (default WAIT_LIMITS.maxFailureRetries). */
	maxFailureRetries?: number;
	/** Who answers, in messages: 'The API' (default) or 'Storage'. */
	service?: string;
	/** No attempt starts and no wait ends after this time (wait clock, epoch ms). */
	deadline?: number;
	/** Says why the deadline ends the retries, e.g. "the part URLs expire at …". */
	deadlineNote?: string;
	/** The error when the deadline has passed before any attempt failed. */
	deadlineError?: () => Error;
	/** No wait ends after this time (a poll's budget); attempts themselves are not cut short by it. */
	waitDeadline?: { at: number; note: string };
	/** Real-time limit of one attempt; each attempt gets the smaller of it and the deadline's rest. */
	requestTimeoutMs: number;
}

/**
 * Runs `attempt` until it succeeds or the policy gives up. `attempt` gets the attempt number
 * (from 1) and the timeout it must give its request.
 */
export async function withRetries<T>(
	options: RetryOptions,
	attempt: (attemptNumber: number, timeoutMs: number) => Promise<AttemptResult<T>>,
): Promise<T> {
	const { context, budget, gate } = options;
	const maxFailureRetries = options.maxFailureRetries ?? WAIT_LIMITS.maxFailureRetries;
	let failureRetries = 0;
	let rateLimits = 0;
	let lastFailure: AttemptFailure | undefined;
	const tries = (count: number) => (count > 1 ? `Gave up after ${count} attempts` : undefined);
	const join = (...notes: Array<string | undefined>) => notes.filter(Boolean).join('. ') || undefined;

	for (let attemptNumber = 1; ; attemptNumber++) {
		throwIfCancelled(context);
		const held = gate?.waitMs() ?? 0;
		if (held > 0) {
			const pastWaitDeadline = options.waitDeadline !== undefined && waitClock.now() + held >= options.waitDeadline.at;
			if (!budget.allows(held) || pastWaitDeadline) {
				const limit = pastWaitDeadline ? (options.waitDeadline?.note ?? '') : `more than this item may still wait (${budget.describe()})`;
				const note = `The API asked to pause requests with this key for ${Math.ceil(held / 1000)} s more; ${limit}`;
				if (lastFailure) throw lastFailure.giveUp(join(note, tries(attemptNumber - 1)));
				throw options.gateRefusal?.(held) ?? new NodeOperationError(context.getNode(), note);
			}
			await pause(context, held, budget);
		}
		const remaining = options.deadline === undefined ? Infinity : options.deadline - waitClock.now();
		if (remaining <= 0) {
			const note = options.deadlineNote ?? 'The time allowed for this request is over';
			if (lastFailure) throw endedByDeadline(lastFailure.giveUp(join(note, tries(attemptNumber - 1))));
			throw endedByDeadline(options.deadlineError?.() ?? new NodeOperationError(context.getNode(), note));
		}
		const timeoutMs = Math.max(1, Math.min(options.requestTimeoutMs, remaining));
		const result = await attempt(attemptNumber, timeoutMs);
		if (result.ok) return result.value;
		throwIfCancelled(context);
		const failure = result.failure;
		lastFailure = failure;

		let delayMs: number;
		if (failure.kind === 'rate-limited') {
			rateLimits += 1;
			delayMs = rateLimitDelayMs(failure.retryAfterMs, rateLimits);
		} else {
			if (!failure.repeatable) throw failure.giveUp(tries(attemptNumber));
			if (failureRetries >= maxFailureRetries) throw failure.giveUp(tries(attemptNumber));
			failureRetries += 1;
			delayMs = failureDelayMs(failureRetries);
		}
		if (!budget.allows(delayMs)) {
			const what = failure.kind === 'rate-limited' ? `${options.service ?? 'The API'} asked to wait` : 'Retrying needs a pause of';
			throw failure.giveUp(
				join(`${what} ${Math.ceil(delayMs / 1000)} s, more than this item may still wait (${budget.describe()})`, tries(attemptNumber)),
			);
		}
		if (options.deadline !== undefined && waitClock.now() + delayMs >= options.deadline) {
			throw endedByDeadline(
				failure.giveUp(join(options.deadlineNote ?? 'The time allowed for this request is over', tries(attemptNumber))),
			);
		}
		if (options.waitDeadline !== undefined && waitClock.now() + delayMs >= options.waitDeadline.at) {
			throw failure.giveUp(join(options.waitDeadline.note, tries(attemptNumber)));
		}
		if (failure.kind === 'rate-limited' && gate) {
			gate.hold(waitClock.now() + delayMs);
			continue;
		}
		await pause(context, delayMs, budget);
	}
}
