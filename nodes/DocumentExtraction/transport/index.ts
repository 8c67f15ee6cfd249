/**
 * The one gateway to the Document Extraction API and its presigned storage URLs.
 * Operations, load-options methods and the trigger call only what is exported here.
 *
 * Modules, one concern each:
 *   http.ts        one HTTP attempt through n8n's helpers: redirects refused, byte caps
 *   watch.ts       the real-time bounds of an attempt: deadline, idle, low speed, size, stop
 *   retry.ts       the one retry policy (classification, floor, cap, jitter, budget, gate)
 *   budget.ts      the one budget type (Max Retry Wait) and deadlines
 *   rateGate.ts    the per-key 429 gate shared by the whole n8n process
 *   limits.ts      every bound's default and the options that change it
 *   cancel.ts      stopping: the cancel signal and waits that end on it
 *   api.ts         API calls (JSON, problem+json), pagination.ts their lists
 *   storage.ts     presigned storage transfers (PUT, download); storageOutcome.ts what an attempt's answer means
 *   connection.ts  the credential read once: base URL, key, gate
 *   scope.ts       what one run or poll shares (budgets, options, secrets seen)
 *   secrets.ts     redaction of keys and signatures; errors.ts the errors a person reads;
 *   text.ts        service text made short in one linear pass
 *   urlPolicy.ts   URLs the API hands back; idempotency.ts Idempotency-Key values
 */
export type { ApiContext } from './context';
export { CREDENTIAL_TYPE } from './http';
export { apiKeysOf, limitsOf, secretsOf, withRunScope } from './scope';
export type { ApiRequest, ApiResponse } from './api';
export { apiRequest, apiRequestWithResponse, unexpectedResponse } from './api';
export { apiRequestAllItems, listAt } from './pagination';
export { buildApiError, describeViolation, tooLargeError } from './errors';
export { trimTrailingStops } from './text';
export type { Problem, Violation } from './errors';
export { redact, scrubError, withoutSecrets } from './secrets';
export { idempotencyKey } from './idempotency';
export type { Deadline } from './budget';
export {
	ANSWER_LIMITS,
	LOW_SPEED_TIME_PARAMETER,
	MAX_ANSWER_PARAMETER,
	MAX_WAIT_PARAMETER,
	MIN_SPEED_PARAMETER,
	REQUEST_TIMEOUT_PARAMETER,
	SPEED_LIMITS,
	WAIT_LIMITS,
} from './limits';
export { cancelledError, isCancelled, pause, throwIfCancelled } from './cancel';
export { isEndedByDeadline } from './retry';
export { waitClock } from './clock';
export type {
	PayloadSource,
	StorageDownload,
	StorageDownloadOptions,
	StoragePutOptions,
	StoragePutResult,
	UploadPayload,
} from './storage';
export { allowedDownloadBytes, approveStorageUrl, downloadFromStorage, putToStorage } from './storage';
