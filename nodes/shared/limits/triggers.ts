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
