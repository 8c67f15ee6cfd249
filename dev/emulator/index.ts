/**
 * A faithful local Document Extraction Service for tests, demos and benchmarks.
 * See README.md in this folder for the contract, the seeded keys and the fault controls.
 */
import type { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, type ControllableClock, isControllable, ManualClock, OffsetClock } from './clock';
import { installControl } from './control';
import type { RateLimitOptions } from './api-dispatch';
import { EmulatorCore } from './core';
import type { CallbackFaults } from './callback-faults';
import type { Faults } from './faults';
import { fileRoutes } from './routes/files';
import { uploadRoutes } from './routes/uploads';
import { workspaceRoutes } from './routes/workspace';
import type { EmulatorEvents, FaultLabel, RequestLogEntry } from './request-log';
import { SEED_IDS, SEEDED_KEYS } from './seed';
import type { EmulatorState } from './state';
import type { DeleteAnswerShape } from './types';

export { ManualClock, OffsetClock, SEED_IDS, SEEDED_KEYS };
export type { Clock, ControllableClock, DeleteAnswerShape, EmulatorEvents, FaultLabel, RateLimitOptions, RequestLogEntry };
export type { CallbackFault, CallbackFaultKind, CallbackFaultSpec, CallbackStepFilter } from './callback-faults';
export type { CallbackDelivery } from './types';
export type { FailFault, DelayFault, ResetFault, FaultMatch, HangFault, HangMode, HostName, RedirectFault, RedirectStatus, RewriteUrlsFault, EditAnswerFault, PendingFaults } from './faults';

export interface EmulatorOptions {
	/** API listener port (0 = any free port; default 0). */
	port?: number;
	/** Storage listener port (default 0). */
	storagePort?: number;
	/** Trap listener port (default 0): the host that stands for "some other host". */
	trapPort?: number;
	/** Bind address (default 127.0.0.1). */
	host?: string;
	/** Real-time duration of processing, split over its steps (default 300; tests use 0). */
	processingDelayMs?: number;
	/** Time source; a clock with advance/set is controllable over /__emulator/clock too. Default: real time with an adjustable offset. */
	clock?: Clock;
	/** Where uploaded bytes are stored (default: a fresh temp directory, removed on close). */
	dataDir?: string;
	/** Per-key request budget; absent = unlimited. */
	rateLimit?: RateLimitOptions;
	/** Seed file types, schemas and workflows (default true). Workspaces and keys always exist. */
	seed?: boolean;
	/** Maximum directory depth (default 1: root folders and their children). */
	maxDirectoryDepth?: number;
	/** Smallest multipart part size in MB (default 5). */
	minPartSizeMB?: number;
	/** Part size when partSizeLimit is absent, in MB (default 10). */
	defaultPartSizeMB?: number;
	/** Highest pageCount an upload may announce (default 500). */
	maxPageCount?: number;
	/** Storage PUTs without Content-Length answer 411 like S3 (default true). */
	requireContentLength?: boolean;
	/**
	 * Storage sink mode (default false): storage PUTs (single and parts) are checked and answered as
	 * usual with their MD5 ETag, but their bytes are not written anywhere and no SHA-256 is computed.
	 * Files are created without bytes: no extraction (values empty), a fileHash that is not the
	 * content's, storage GET answers 403 InvalidObjectState. For throughput benchmarks.
	 */
	storageSink?: boolean;
	/** Request log entries kept (oldest dropped; default 10000). */
	requestLogLimit?: number;
	/** Callback retries after the first attempt (default 5) and first backoff (default 1000 ms). */
	callbackRetries?: number;
	callbackRetryBaseMs?: number;
	/** Shape of the DELETE /files answer (default 'detailed', with deletedFileIds). */
	deleteAnswer?: DeleteAnswerShape;
}

export interface Emulator {
	/** Host root, e.g. http://127.0.0.1:PORT; the API lives under /prod/v1. */
	apiUrl: string;
	/** Storage host root; presigned URLs point here. */
	storageUrl: string;
	/** Trap host root: answers 200 {"trap": true} to anything and logs it with host 'trap'. */
	trapUrl: string;
	keys: typeof SEEDED_KEYS;
	state: EmulatorState;
	faults: Faults;
	/** Faults of the callbacks it sends: delayed, duplicated, out of order, forged, replayed, never sent, before-parked (README). */
	callbackFaults: CallbackFaults;
	/** Request log (all hosts, oldest first). Clear with `requests.length = 0`. */
	requests: RequestLogEntry[];
	/** 'request' when a request arrives (its fault taken), 'response' when its status is settled. */
	events: EventEmitter<EmulatorEvents>;
	clock: Clock;
	/** Resolves when no processing or background rerun is running. */
	idle(): Promise<void>;
	/** Replace (or remove with undefined) the per-key rate limit. */
	setRateLimit(limit: RateLimitOptions | undefined): void;
	/** Set the default callback URL of a key (used when an upload sends none). */
	setDefaultCallbackUrl(apiKey: string, url: string | undefined): void;
	/** DELETE /files then refuses these files (FORBIDDEN, `detail`) and deletes the others. */
	protectFiles(fileIds: string[], detail?: string): void;
	/** Shape of later DELETE /files answers. */
	setDeleteAnswer(shape: DeleteAnswerShape): void;
	/** Real time that processing takes from now on (the option processingDelayMs). */
	setProcessingDelay(ms: number): void;
	close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const ownsDataDir = options.dataDir === undefined;
	const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'dex-emulator-')));
	const clock = options.clock ?? new OffsetClock();
	const core = new EmulatorCore({
		clock,
		seed: options.seed ?? true,
		dataDir,
		processingDelayMs: options.processingDelayMs ?? 300,
		rateLimit: options.rateLimit,
		maxDirectoryDepth: options.maxDirectoryDepth ?? 1,
		minPartSizeMB: options.minPartSizeMB ?? 5,
		defaultPartSizeMB: options.defaultPartSizeMB ?? 10,
		maxPageCount: options.maxPageCount ?? 500,
		requireContentLength: options.requireContentLength ?? true,
		storageSink: options.storageSink ?? false,
		requestLogLimit: options.requestLogLimit ?? 10000,
		callbackRetries: options.callbackRetries ?? 5,
		callbackRetryBaseMs: options.callbackRetryBaseMs ?? 1000,
		deleteAnswer: options.deleteAnswer ?? 'detailed',
	});
	core.addRoutes([...uploadRoutes(), ...fileRoutes(), ...workspaceRoutes()]);
	installControl(core);
	await core.listen(options.port ?? 0, options.storagePort ?? 0, options.host ?? '127.0.0.1', options.trapPort ?? 0);
	let closed = false;
	return {
		apiUrl: core.apiUrl,
		storageUrl: core.storageUrl,
		trapUrl: core.trapUrl,
		keys: SEEDED_KEYS,
		state: core.state,
		faults: core.faults,
		callbackFaults: core.callbackFaults,
		requests: core.requests,
		events: core.events,
		clock,
		idle: () => core.state.idle(),
		setRateLimit: (limit) => {
			core.rateLimit = limit;
			core.resetRateLimitWindows();
		},
		setDefaultCallbackUrl: (apiKey, url) => core.state.setDefaultCallbackUrl(apiKey, url),
		protectFiles: (fileIds, detail) => core.state.protectFiles(fileIds, detail),
		setDeleteAnswer: (shape) => {
			core.deleteAnswer = shape;
		},
		setProcessingDelay: (ms) => core.processor.setProcessingDelay(ms),
		close: async () => {
			if (closed) return;
			closed = true;
			await core.close();
			if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
		},
	};
}

export { isControllable };
export { keyLeaks, requestsCarrying, waitForRequest } from './log-helpers';
export { JsonText } from './http-util';
export { addGeneratedFileType } from './generated-types';
