/**
 * The one request path to the Document Extraction API and its presigned storage URLs. The API
 * layer (nodes/shared/api) calls only what is exported here. Every request carries the request
 * policy of its item, poll or editor lookup (../run/policy.ts): this path applies it and reads no
 * parameter. A storage transfer takes only an ApprovedUrl (approveStorageUrl, once per URL).
 *
 * Modules, one concern each:
 *   http.ts           one HTTP attempt through n8n's helpers: redirects refused, byte caps
 *   watch.ts          the real-time bounds of an attempt: deadline, idle, low speed, size, stop
 *   retry.ts          the one retry policy (floor, cap, jitter, budget, gate); failures.ts what a
 *                     failed attempt says (the pause asked, whether it is worth repeating)
 *   rateGate.ts       the per-key 429 gate shared by the whole n8n process
 *   api.ts            API calls (JSON, problem+json), pagination.ts their lists
 *   storage.ts        presigned storage transfers (approval, PUT, download); storageOutcome.ts what an attempt's answer means
 *   connection.ts     the credential read once: base URL, key, gate
 *   secrets.ts        redaction of keys and signatures; errors.ts the errors a person reads
 *   returnedUrls.ts   URLs the API hands back; idempotency.ts Idempotency-Key values
 *
 * Below it: ../run (the request policy, run scope, stopping, the wait clock), ../limits (every
 * bound and default), ../text.ts (service text made short).
 */
export { CREDENTIAL_TYPE } from './http';
export type { AnswerCap, ApiRequest, ApiResponse } from './api';
export { apiRequest, apiRequestWithResponse, unexpectedResponse } from './api';
export { apiRequestAllItems, listAt } from './pagination';
export { buildApiError, describeViolation, tooLargeError } from './errors';
export type { Problem, Violation } from './errors';
export { redact, scrubError, withoutSecrets } from './secrets';
export { claimIdempotencyKey, idempotencyKey } from './idempotency';
export { isEndedByDeadline } from './retry';
export type {
	ApprovedUrl,
	PayloadSource,
	StorageDownload,
	StorageDownloadOptions,
	StoragePutOptions,
	StoragePutResult,
	UploadPayload,
} from './storage';
export { approveStorageUrl, downloadFromStorage, putToStorage } from './storage';
export type { ReturnedUrlRole } from './returnedUrls';
export { apiKeyDigest, approvedApiBase } from './connection';
