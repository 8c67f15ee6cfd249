import type { NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from './run/context';
import { readParameter } from './run/context';

/**
 * Every number that bounds a request, in one place: the defaults and ranges of the options the
 * user sets, and the fixed bounds of the request path. docs/reliability.md lists them in one table.
 */
export const WAIT_LIMITS = {
	/** A 429 is never retried sooner than this, whatever the answer says. */
	rateLimitFloorMs: 1000,
	/** A 429 without a usable retryAfter waits 1 s, 2 s, 4 s … up to this. */
	rateLimitBackoffCapMs: 30_000,
	/** Extra wait added to a 429's pause, at most this share of it, so items do not return together. */
	rateLimitJitterShare: 0.2,
	rateLimitJitterCapMs: 5_000,
	/** After a 429's pause, requests held by the gate leave one by one, this far apart. */
	rateLimitResumeSpacingMs: 100,
	/** After a failure (5xx, network error, timeout): 0.5 s, 1 s, 2 s … up to this, equal jitter. */
	failureBackoffBaseMs: 500,
	failureBackoffCapMs: 8_000,
	/** Retries after failures, for requests that are safe to repeat. */
	maxFailureRetries: 3,
	/** Default of Max Retry Wait: all the waits and repeated attempts of one item together, in seconds. */
	defaultMaxWaitSeconds: 60,
	/** Highest Max Retry Wait accepted. */
	maxMaxWaitSeconds: 3600,
	/** Default of Request Timeout, in seconds. */
	defaultRequestTimeoutSeconds: 60,
	/** Lowest Request Timeout accepted, in seconds. */
	minRequestTimeoutSeconds: 1,
	/** A retry is not started with less time than this left (it could not finish). */
	minAttemptMs: 250,
} as const;

export const ANSWER_LIMITS = {
	/** Default of Max Answer Size: the largest API answer read into memory, in MB (MiB). */
	defaultMaxAnswerMb: 64,
	minMaxAnswerMb: 1,
	maxMaxAnswerMb: 2048,
	/** An error answer (non-2xx) is read up to this many bytes; the rest is dropped unread. */
	errorBodyBytes: 64 * 1024,
	/** Of an error answer that is not JSON, at most this much text is summarised. */
	summarisedTextBytes: 4096,
	/** Pages read by Return All when the API gives no total (1,000,000 items at 100 a page). */
	maxPagesWithoutTotal: 10_000,
} as const;

export const SPEED_LIMITS = {
	/** Default of Min Transfer Speed, in KB/s (KiB/s): a storage transfer slower than this … */
	defaultMinSpeedKbps: 1,
	/** The lowest Min Transfer Speed accepted: the low-speed limit can be lowered, never turned off. */
	minMinSpeedKbps: 0.1,
	/** … over this many seconds (Low Speed Time) is aborted. */
	defaultLowSpeedSeconds: 30,
	minLowSpeedSeconds: 1,
	maxLowSpeedSeconds: 3600,
} as const;

/** Names of the options (inside each operation's Options collection) that set the bounds. */
export const MAX_WAIT_PARAMETER = 'options.maxRateLimitWait';
export const REQUEST_TIMEOUT_PARAMETER = 'options.requestTimeout';
export const MAX_ANSWER_PARAMETER = 'options.maxAnswerSize';
export const MIN_SPEED_PARAMETER = 'options.minTransferSpeed';
export const LOW_SPEED_TIME_PARAMETER = 'options.lowSpeedTime';

export interface Limits {
	/** Max Retry Wait: the waits and repeated attempts of one item together. */
	maxWaitMs: number;
	/** Request Timeout: one API attempt, from sending to the answer's last byte. */
	requestTimeoutMs: number;
	/** Max Answer Size: the largest API answer read into memory. */
	maxAnswerBytes: number;
	/** Min Transfer Speed: storage transfers slower than this over lowSpeedWindowMs are aborted. */
	minBytesPerSecond: number;
	lowSpeedWindowMs: number;
}

/**
 * One option, checked: a number (or text holding one, as an expression may give) within its
 * range. Anything else is refused, naming the option and the item, instead of being replaced by
 * a default behind the user's back.
 */
function readLimit(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	label: { displayName: string; unit: string },
	fallback: number,
	range: { min: number; max?: number },
): number {
	const value: unknown = readParameter<NodeParameterValueType>(context, parameter, itemIndex, fallback);
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
	if (Number.isFinite(number) && number >= range.min && (range.max === undefined || number <= range.max)) return number;
	const expected =
		range.max === undefined ? `a number of ${label.unit}, ${range.min} or more` : `a number of ${label.unit} from ${range.min} to ${range.max}`;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const shown = text === undefined ? 'nothing' : `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
	const where = itemIndex === undefined ? '' : ` in item ${itemIndex}`;
	throw new NodeOperationError(context.getNode(), `Invalid ${label.displayName}${where}: expected ${expected}, got ${shown}`, {
		itemIndex,
		description: `Correct "${label.displayName}" (it is checked before anything is sent to the API).`,
	});
}

/** Reads and checks the item's bounds from its options (defaults where an operation has no such option). */
export function limitsFor(context: ApiContext, itemIndex: number | undefined): Limits {
	const seconds = (displayName: string) => ({ displayName, unit: 'seconds' });
	const maxWait = readLimit(context, itemIndex, MAX_WAIT_PARAMETER, seconds('Max Retry Wait (Seconds)'), WAIT_LIMITS.defaultMaxWaitSeconds, {
		min: 0,
		max: WAIT_LIMITS.maxMaxWaitSeconds,
	});
	const timeout = readLimit(
		context,
		itemIndex,
		REQUEST_TIMEOUT_PARAMETER,
		seconds('Request Timeout (Seconds)'),
		WAIT_LIMITS.defaultRequestTimeoutSeconds,
		{ min: WAIT_LIMITS.minRequestTimeoutSeconds },
	);
	const maxAnswerMb = readLimit(
		context,
		itemIndex,
		MAX_ANSWER_PARAMETER,
		{ displayName: 'Max Answer Size (MB)', unit: 'MB' },
		ANSWER_LIMITS.defaultMaxAnswerMb,
		{ min: ANSWER_LIMITS.minMaxAnswerMb, max: ANSWER_LIMITS.maxMaxAnswerMb },
	);
	const minSpeedKbps = readLimit(
		context,
		itemIndex,
		MIN_SPEED_PARAMETER,
		{ displayName: 'Min Transfer Speed (KB/s)', unit: 'KB/s' },
		SPEED_LIMITS.defaultMinSpeedKbps,
		{ min: SPEED_LIMITS.minMinSpeedKbps },
	);
	const lowSpeedSeconds = readLimit(
		context,
		itemIndex,
		LOW_SPEED_TIME_PARAMETER,
		seconds('Low Speed Time (Seconds)'),
		SPEED_LIMITS.defaultLowSpeedSeconds,
		{ min: SPEED_LIMITS.minLowSpeedSeconds, max: SPEED_LIMITS.maxLowSpeedSeconds },
	);
	return {
		maxWaitMs: maxWait * 1000,
		requestTimeoutMs: timeout * 1000,
		maxAnswerBytes: Math.floor(maxAnswerMb * 1024 * 1024),
		minBytesPerSecond: minSpeedKbps * 1024,
		lowSpeedWindowMs: lowSpeedSeconds * 1000,
	};
}

// -------------------------------------------------------------------------------------------------
// Paging and the trigger: how many requests a list may take, and what the trigger keeps between
// polls. The paging guard (nodes/shared/paging.ts) applies the request caps; docs/reliability.md
// ("Every bound, in one table") and docs/trigger.md ("Bounds") name each of them.
// -------------------------------------------------------------------------------------------------

export const PAGING_LIMITS = {
	/** Query > Execute with Return All: requests (pages of rows) at most; past it the item fails. */
	queryMaxPages: 10_000,
	/** The editor's file search, while searching: pages read per call (fewer once enough files match). */
	fileSearchPagesPerCall: 10,
	/** … it answers once this many files of the call match. */
	fileSearchEnoughMatches: 20,
} as const;

export const TRIGGER_LIMITS = {
	/** List requests of one poll (pages, checks and searches together): 20,000 files looked at. */
	maxListRequestsPerPoll: 200,
	/** A file dated later than n8n's clock plus this waits (with every file after it) until then. */
	futureToleranceMs: 10 * 60 * 1000,
	/**
	 * The cursor never passes n8n's clock minus this: a file the service makes visible a little
	 * after its timestamp (a slow commit) is still ahead of the cursor when it appears.
	 */
	cursorLagMs: 5_000,
	/** Files emitted (or passed at activation) while dated after the cursor's limit, kept with their timestamps until the cursor passes them (about 80 KB). */
	maxEarly: 1000,
	/** Files listed with a timestamp that is not RFC 3339 text, reported once each (about 39 KB of ids). */
	maxUnplaced: 1000,
	/** The longest timestamp accepted from the service (RFC 3339 with nanoseconds and an offset has 35 characters). */
	maxStampLength: 40,
	/** An item's values nested deeper than this are replaced by a marker and named in the item's triggerNotes. */
	maxValueDepth: 100,
	/** The static data of one trigger never exceeds this (JSON), whatever the service answers; docs/trigger.md derives it. */
	maxStaticDataBytes: 300_000,
	/** Restarts of a walk through files sharing one timestamp after the set shifted under it. */
	maxTieRestarts: 3,
	/** Pages looked at, back from where it was, to find the last handled file of a large tie. */
	maxTieSearchPages: 10,
	/** Ids the static data keeps for files sharing the cursor's timestamp (about 39 KB). */
	maxTieIds: 1000,
	/** Files still being processed that the trigger remembers (about 39 KB of ids). */
	maxPending: 1000,
	/** Files emitted ahead of a cursor waiting for room among the pending files (about 39 KB). */
	maxAhead: 1000,
	/** A pending file that has not changed for this long (against newer uploads) is given up. */
	pendingGiveUpMs: 24 * 60 * 60 * 1000,
	/** Values requests (Include Extracted Values) run side by side. */
	valuesConcurrency: 4,
	/** Start From "Now": files uploaded this long before activation are checked for being in flight. */
	inFlightLookbackMs: 24 * 60 * 60 * 1000,
	/** Fetch Test Event looks at this many pages of the most recently changed files. */
	testEventPages: 5,
	/** Share of n8n's poll budget spent on starting requests; the rest is margin for the last ones. */
	pollBudgetShare: 0.75,
	/** A poll's time when n8n does not say (n8n 1.x has no getPollBudgetMs): n8n 2.x's default. */
	defaultPollBudgetMs: 5 * 60 * 1000,
} as const;
