/**
 * Every number that bounds a request, in one place: the defaults and ranges of the options the
 * user sets, and the fixed bounds of the request path. Plain data: the options are read and checked
 * into a request policy by requestPolicy.ts. docs/reliability.md lists every bound in one table
 * (test/package/limits-table.test.ts checks that none is missing there).
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
	/** A download may bring this much more than the size its file record announced: 1% … */
	downloadTolerancePercent: 1,
	/** … and at least this many bytes. */
	downloadToleranceMinBytes: 4096,
} as const;

/** Presigned storage URLs (the API layer's storage.ts applies them). */
export const STORAGE_LIMITS = {
	/** A presigned upload URL works this long from the upload request (api-spec, Limits). */
	uploadUrlLifetimeMs: 300 * 1000,
	/** The part URLs of a multipart upload work this long from its initiation (api-spec, Limits). */
	partUrlLifetimeMs: 900 * 1000,
	/** Retries of one part after a network error or a 5xx, while its URL works. */
	partRetries: 4,
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
