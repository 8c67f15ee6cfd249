/**
 * The triggers' bounds, part of the one table of limits (./index.ts re-exports them; docs/reliability.md
 * names each). Plain data.
 */

// ---- The trigger: how many requests a poll may send, what it keeps between polls. docs/trigger.md ("Bounds")
// names each.

export const TRIGGER_LIMITS = {
	/** List requests of one poll (pages, checks and searches together): 20,000 files looked at. */
	maxListRequestsPerPoll: 200,
	/** A file dated later than n8n's clock plus this waits (with every file after it) until then. */
	futureToleranceMs: 10 * 60 * 1000,
	/** The cursor never passes n8n's clock minus this: a file the service makes visible a little after its timestamp (a slow commit) is still ahead of the cursor when it appears. */
	cursorLagMs: 5_000,
	/** Files emitted (or passed at activation) while dated after the cursor's limit, kept with their timestamps until the cursor passes them (about 80 KB). */
	maxEarly: 1000,
	/** Files listed with a timestamp that is not RFC 3339 text, reported once each (about 39 KB of ids). */
	maxUnplaced: 1000,
	/** The longest timestamp accepted from the service (RFC 3339 with nanoseconds and an offset has 35 characters). */
	maxStampLength: 40,
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
	/** Start From "Now": pages of the newest files read at activation, while they are dated within the cursor's lag (at most maxEarly files). */
	startPages: 10,
	/** Start From "Now": files uploaded this long before activation are checked for being in flight. */
	inFlightLookbackMs: 24 * 60 * 60 * 1000,
	/** Fetch Test Event looks at this many pages of the newest files, in the event's order. */
	testEventPages: 5,
	/** Share of n8n's poll budget spent on starting requests; the rest is margin for the last ones. */
	pollBudgetShare: 0.75,
	/** A poll's time when n8n does not say (n8n 1.x has no getPollBudgetMs): n8n 2.x's default. */
	defaultPollBudgetMs: 5 * 60 * 1000,
} as const;

// ---- The Callback Trigger: how soon it answers the service, what it keeps to recognise a callback it has already
// handled. docs/callback-trigger.md ("Bounds") and docs/reliability.md name each.

export const CALLBACK_LIMITS = {
	/** The check of a callback through the API (the upload's status, its files' records) ends within this, else 503 (the service calls again). */
	answerWithinMs: 10_000,
	/** Include Extracted Values: read within this of the call (the service waits 30 s), else valuesError. */
	valuesWithinMs: 25_000,
	/** Retry-After of a 503 answer, in seconds (the service may use its own backoff instead). */
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
