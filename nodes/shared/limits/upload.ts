/**
 * File > Upload's bounds, part of the one table of limits (./index.ts re-exports them; docs/reliability.md
 * names each). Plain data.
 */

/** File > Upload: its options' defaults and ranges, and the fixed bounds of a multipart upload. */
export const UPLOAD_LIMITS = {
	/** Default of Multipart Threshold (MB): with Multipart Upload "Auto", larger files go in parts. */
	defaultMultipartThresholdMb: 100,
	/** Part Size (MB): what S3 multipart uploads accept (5 MB to 5 GB, the last part smaller). */
	defaultPartSizeMb: 10,
	minPartSizeMb: 5,
	maxPartSizeMb: 5120,
	/** Part Concurrency: parts sent at once; memory is (Part Concurrency + 1) x Part Size. */
	defaultPartConcurrency: 4,
	maxPartConcurrency: 32,
	/** The most parts a multipart upload can have (S3's limit): a plan with more is refused. */
	maxParts: 10_000,
	/**
	 * The parts of a multipart upload are filled from n8n's binary storage in reads of this size
	 * (each a fresh buffer, copied into a part buffer and freed): a quarter of the reads of 256 KiB
	 * for the same copy, each copy short enough not to hold the event loop (docs/large-files.md).
	 */
	storageReadChunkBytes: 1024 * 1024,
	/** A folder name of a Destination Path: a directory name of the service. */
	maxFolderNameLength: 255,
} as const;

/** Wait for Completion (Upload): its options' defaults and ranges, and its first and last checks. */
export const PROCESSING_WAIT_LIMITS = {
	/** Default of Wait Timeout (Seconds): the whole wait, status requests and their retries included. */
	defaultWaitTimeoutSeconds: 300,
	minWaitTimeoutSeconds: 1,
	/** Poll Interval (Seconds): the longest pause between two status checks. */
	defaultPollIntervalSeconds: 5,
	minPollIntervalSeconds: 0.5,
	/** The first status check comes after this (then the pause doubles up to the Poll Interval). */
	firstStatusCheckMs: 1000,
	/** The last status check of a wait gets at least this much of the Wait Timeout. */
	lastStatusCheckMs: 1000,
} as const;
