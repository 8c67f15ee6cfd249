/**
 * The one gateway to the Document Extraction API and its presigned storage URLs.
 * Operations, load-options methods and the trigger call only what is exported here.
 */
export type { ApiContext } from './context';
export { isExecuteContext, pause, readParameter } from './context';
export { CREDENTIAL_TYPE, withCredentialsReadOnce } from './connection';
export type { ApiRequest, ApiResponse, PageOf, PaginationOptions } from './api';
export {
	apiRequest,
	apiRequestAllItems,
	apiRequestWithResponse,
	listAt,
	unexpectedResponse,
} from './api';
export { buildApiError, describeViolation } from './errors';
export type { Problem, Violation } from './errors';
export { idempotencyKey } from './idempotency';
export type { RetryPolicy } from './retry';
export { DEFAULT_RETRY_POLICY, RATE_LIMIT_WAIT_PARAMETER, retryPolicyFor } from './retry';
export type {
	PayloadSource,
	StorageDownload,
	StoragePutOptions,
	StoragePutResult,
	UploadPayload,
} from './storage';
export { downloadFromStorage, putToStorage, redactSignedUrl } from './storage';
