/**
 * The callbacks' bounds, one group of the one table of limits (./index.ts re-exports them;
 * docs/reliability.md names each): the one callback verifier (nodes/shared/callbacks/), the
 * Callback Trigger (CALLBACK_LIMITS) and Upload's callback wait (CALLBACK_WAIT_LIMITS). Plain data.
 */

// ---- The Callback Trigger, and the answers of both callback paths (retryAfterSeconds): how soon it answers the
// service, what it keeps to recognise a callback it has already handled. docs/callback-trigger.md ("Bounds") and
// docs/reliability.md name each.

export const CALLBACK_LIMITS = {
	/** The check of a callback through the API (the upload's status, its files' records) ends within this, else 503 (the service calls again). */
	answerWithinMs: 10_000,
	/** Include Extracted Values: read within this of the call (the service waits 30 s), else valuesError. */
	valuesWithinMs: 25_000,
	/** Retry-After of a 503 answer ("not now, call again") of either callback path, in seconds (the service may use its own backoff instead). */
	retryAfterSeconds: 30,
	/** Default of History Size: uploads (and steps) remembered to recognise a repeated callback (about 41 KB of static data). */
	defaultHistorySize: 1000,
	/** Highest History Size accepted (about 410 KB of static data, written on every emission). */
	maxHistorySize: 10_000,
	/** Trigger nodes whose memory (checks in flight, recent uploads and answers) one n8n process keeps; the least recently called is dropped. */
	maxScopesInMemory: 100,
	/** A body n8n hands over as text (a content type other than JSON) is read as JSON up to this many characters. */
	maxTextBodyChars: 65_536,
	/** A step name longer than this (or with other characters than letters, digits, _ . -) is not read from a callback. */
	maxStepNameLength: 64,
	/** Values requests (Include Extracted Values) run side by side, before the answer (valuesWithinMs). */
	valuesConcurrency: 4,
	/** Checks through the API at once, per trigger node and process; a call past it is answered 503 with Retry-After, no request. */
	maxChecksInFlight: 8,
	/** The same, for all Callback Triggers of one n8n process together. */
	maxChecksInFlightPerProcess: 32,
	/** After a check that emitted nothing, calls about the same upload are answered from memory (503) for this long: no request. */
	recentAnswerMs: 1_000,
	/** An upload the API does not know (404) is answered 404 from memory for this long: no request. */
	unknownUploadMs: 60_000,
	/** Uploads whose last answer (above) one trigger node remembers per process; the oldest dropped first. */
	maxRememberedAnswers: 500,
} as const;

/** Upload's Wait Mode "When the Service Calls Back": what a callback may cost, what a process remembers. */
export const CALLBACK_WAIT_LIMITS = {
	maxTrackedExecutions: 1000, // Waiting executions whose confirmed uploads one n8n process remembers; the oldest is forgotten first (then checked again at its next callback).
	verifyRequestTimeoutMs: 10_000, // A callback's check of its upload: one API attempt, and its retries (the service waits 30 s for the answer).
	verifyMaxRetryWaitMs: 10_000,
	verifySpacingMs: 2_000, // After the API called an upload unfinished, a callback for it within this time is not checked again (answered 503, Retry-After CALLBACK_LIMITS.retryAfterSeconds).
	statusConcurrency: 4, // Status requests at the same time: before the execution waits, a process's first look at a waiting execution, the results.
	tailRecheckUploads: 8, // At most this many uploads unconfirmed after a final callback: each is asked for (another process may have had its callback), at most once per spacing.
	tailRecheckSpacingMs: 5_000,
} as const;
