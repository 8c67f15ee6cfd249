/**
 * File > Review Values' bounds, part of the one table of limits (./index.ts re-exports them;
 * docs/reliability.md names each). Plain data.
 */
export const REVIEW_LIMITS = {
	/** Default of Wait Limit (hours): past it n8n resumes the execution with the input items unchanged. */
	defaultWaitHours: 72,
	/** Highest Wait Limit accepted (hours): 30 days. */
	maxWaitHours: 720,
	/** Files one review page lists (one execution's items); more fail the run before it waits. */
	maxFiles: 100,
	/** Fields of one file the page shows; a file with more is shown read-only with a note. */
	maxFields: 5000,
	/** Rows of one table the page shows and a submit may hold (SCHEMA_LIMITS.maxTableRows is the write's bound). */
	maxTableRows: 10_000,
	/** Allowed values of one choice field offered as a list; more are offered as free text checked on submit. */
	maxChoices: 100_000,
	/** A submit's body, in characters of its one JSON payload: larger submits are refused unread. */
	maxSubmitChars: 2 * 1024 * 1024,
	/** A reviewer's note, in characters. */
	maxNoteChars: 2000,
	/** One value as the page shows it, in characters; longer text is shown read-only. */
	maxValueChars: 100_000,
	/** Executions whose review one process remembers as sent or being sent (sent once), the oldest forgotten first. */
	maxClaims: 1000,
	/** API requests of one page or submit at once (a file's values, its preview link). */
	requestConcurrency: 4,
	/** One API attempt of a page or a submit (a person waits on it). */
	requestTimeoutMs: 15_000,
	/** All the retries of one request of a page or a submit. */
	maxRetryWaitMs: 10_000,
} as const;
