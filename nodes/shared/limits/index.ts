/**
 * Every number that bounds a request, in one place: the defaults and ranges of the options the
 * user sets, and the fixed bounds of the request path. Plain data: the options are read and checked
 * into a request policy by requestPolicy.ts. docs/reliability.md lists every bound in one table
 * (test/package/limits-table.test.ts checks that none is missing there).
 *
 * One table in files: this one holds what every node shares; the tables of one node stand beside it
 * and are re-exported here, so `nodes/shared/limits` is where any bound is imported from:
 *
 *   upload.ts     File > Upload: its options, multipart, Wait for Completion "Poll the Service"
 *   triggers.ts   the trigger (TRIGGER_LIMITS)
 *   callbacks.ts  both callback paths: the Callback Trigger (CALLBACK_LIMITS, whose Retry-After both
 *                 answer with) and Upload's callback wait (CALLBACK_WAIT_LIMITS)
 *   review.ts     File > Review Values: its wait, the page's and the submit's bounds
 */
export { PROCESSING_WAIT_LIMITS, UPLOAD_LIMITS } from './upload';
export { TRIGGER_LIMITS } from './triggers';
export { CALLBACK_LIMITS, CALLBACK_WAIT_LIMITS } from './callbacks';
export { REVIEW_LIMITS } from './review';

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
	/** A 429 closes the key's gate for the pause it asks, at most this long (the highest Max Retry Wait). */
	rateGateMaxHoldMs: 3600 * 1000,
	/** A key's 429 gate is forgotten this long after its pause (or its last held request) … */
	rateGateForgetAfterMs: 10 * 60_000,
	/** … and at most this many gates are kept, the oldest dropped first. */
	rateGateMaxKept: 1000,
	/** After a failure (5xx, network error, timeout): 0.5 s, 1 s, 2 s … up to this, equal jitter. */
	failureBackoffBaseMs: 500,
	failureBackoffCapMs: 8_000,
	maxFailureRetries: 3, // Retries after failures, for requests that are safe to repeat.
	defaultMaxWaitSeconds: 60, // Default of Max Retry Wait: all the waits and repeated attempts of one item together, in seconds.
	maxMaxWaitSeconds: 3600, // Highest Max Retry Wait accepted.
	defaultRequestTimeoutSeconds: 60, // Default of Request Timeout, in seconds.
	minRequestTimeoutSeconds: 1, // Lowest Request Timeout accepted, in seconds.
	/** A retry is not started with less time than this left (it could not finish). */
	minAttemptMs: 250,
} as const;

/** A person waits on these: the editor's lookups (list search, load options, the field mapper) and the credential test. */
export const EDITOR_LIMITS = {
	requestTimeoutMs: 10_000, // One API attempt of a lookup, connect to the last byte (a lookup reads no option: they belong to the operation edited).
	maxRetryWaitMs: 5_000, // All the waits and repeated attempts of one lookup: a 429 asking longer fails it at once.
	answerWithinMs: 20_000, // A whole lookup, every page and request of it: no attempt starts, no wait ends and no attempt runs past it.
	credentialTestTimeoutMs: 15_000, // The credential test's one request (no retry).
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
	/** Items per list request: the API's default and largest page size (GET /files, /file-type, values). */
	pageSize: 100,
	/** Pages read by Return All when the API gives no total (1,000,000 items at 100 a page). */
	maxPagesWithoutTotal: 10_000,
	/**
	 * Default of Max List Size, in MB (MiB): the answers of all the pages of one list read page by
	 * page (Return All, Query's rows, a file's values) together; the next page may read only what is left.
	 */
	defaultMaxListMb: 128,
	minMaxListMb: 1,
	maxMaxListMb: 4096,
	/** A download may bring this much more than the size its file record announced: 1% … */
	downloadTolerancePercent: 1,
	/** … and at least this many bytes. */
	downloadToleranceMinBytes: 4096,
} as const;

/** Presigned storage URLs (the API layer's transfers.ts applies them). */
export const STORAGE_LIMITS = {
	/** A presigned upload URL works this long from the upload request (docs/dev/api-contract.md#upload-url-lifetime). */
	uploadUrlLifetimeMs: 300 * 1000,
	/** The part URLs of a multipart upload work this long from its initiation (docs/dev/api-contract.md#presigned-storage-urls). */
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
	/** The idle time and the low-speed limit are checked this often (the speed over Low Speed Time in these steps). */
	checkIntervalMs: 1000,
} as const;


/**
 * Simplify's output (nodes/shared/output/simplify.ts). A value nested deeper than this is reported, not rendered
 * (n8n's JSON.stringify of run data overflows at a few thousand levels); at most this many notes, then a count.
 */
export const OUTPUT_LIMITS = {
	maxSimplifiedDepth: 100,
	maxSimplifyNotes: 20,
	/** A trigger's item (either trigger, output/documentItem.ts): values nested deeper are replaced by a marker, named in triggerNotes. */
	maxItemDepth: 100,
} as const;

/** Items: Batching, Return All / Limit, Delete's batches. */
export const ITEM_LIMITS = {
	/** Items per Batch of a Batching option added but not filled in … */
	defaultBatchSize: 8,
	/** … and its Batch Interval (Ms): none. */
	defaultBatchIntervalMs: 0,
	/** Default of Limit (Return All off). */
	defaultLimit: 50,
	/** File IDs per DELETE /files request (the API recommends at most 100). */
	deleteBatchSize: 100,
	/** A JSON parameter nested deeper than this is refused before any request (no form or query nests more than a few levels). */
	maxJsonDepth: 100,
} as const;

/** Names and types a binary gets from what the service said (binaryFileName, binaryMimeType). */
export const BINARY_LIMITS = {
	/** A file name, in UTF-8 bytes: what common file systems accept. */
	maxFileNameBytes: 255,
	/** The longest extension kept whole when a name is cut ("." included). */
	maxKeptExtensionLength: 16,
	/** A MIME type longer than this is not used. */
	maxMimeTypeLength: 255,
} as const;

/**
 * Service text in messages and what is parsed of an answer: every piece is clipped, every walk
 * bounded, so an answer cannot make a message long or its reading costly.
 */
export const TEXT_LIMITS = {
	/** A problem's title, in characters. */
	titleChars: 200,
	/** A problem's detail (or message, or the summary of a text answer). */
	detailChars: 500,
	/** A problem's or a violation's code. */
	codeChars: 60,
	/** A request ID (problem, x-request-id, x-amzn-requestid). */
	requestIdChars: 100,
	/** Violations (problem errors[]) named in a message. */
	violationsShown: 20,
	/** A violation's field pointer or parameter name … */
	violationFieldChars: 200,
	/** … and its detail. */
	violationDetailChars: 300,
	/** The first line of a network error's cause. */
	networkCauseChars: 300,
	/** A storage (XML) error answer's Message … */
	storageMessageChars: 300,
	/** … and its Code. */
	storageCodeChars: 100,
	/** A text (HTML, plain) error answer, its markup removed. */
	plainTextChars: 200,
	/** An answer of an unexpected shape, shown in its error. */
	unexpectedAnswerChars: 500,
	/** A Retry-After header longer than this is ignored. */
	retryAfterHeaderChars: 100,
	/** An error code longer than this is not taken for a network code … */
	networkCodeChars: 60,
	/** … looked for this many causes deep. */
	causeDepth: 5,
} as const;

/**
 * A file type's fields (schema) as the editor's field mapper, Update Values' checks and typed
 * values read them (nodes/shared/schema/): what the service's schema can make them do.
 */
export const SCHEMA_LIMITS = {
	/** Fields the field mapper lists at most; a file type with more asks for Using JSON or Map Automatically. */
	maxMapperFields: 5000,
	/** File types asked per request when looking one up (by ID or schema ID): the lookup stops at the page that has it. */
	fileTypeLookupPageSize: 25,
	/** Rows a table value written by Update Values may hold. */
	maxTableRows: 10_000,
	/** Columns a table field's label in the mapper names, before "…". */
	tableColumnsInLabel: 6,
	/** Allowed values of a choice field named in a message, before "…". */
	choicesInMessage: 20,
	/** Lookups (a file's schema, a file type's fields) one node run keeps for its items; past it, each item asks again. */
	runCacheEntries: 1000,
	/** Text longer than this is left as text by typed values (a number, true/false, a date is never longer). */
	maxTypedTextChars: 64,
	/** A file's text value longer than this is not offered as the start value of a field added to the mapper (it starts empty). */
	maxMapperStartValueChars: 1000,
} as const;

// ---- Paging: how many requests a list may take. The paging guard (nodes/shared/paging/) applies the request caps;
// docs/reliability.md and docs/trigger.md ("Bounds") name each.

export const PAGING_LIMITS = {
	/** Query > Execute with Return All: requests (pages of rows) at most; past it the item fails. */
	queryMaxPages: 10_000,
	/** The editor's file search, while searching: pages read per call (fewer once enough files match). */
	fileSearchPagesPerCall: 10,
	/** … it answers once this many files of the call match. */
	fileSearchEnoughMatches: 20,
} as const;
