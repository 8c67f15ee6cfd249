/**
 * The one gateway to the Document Extraction API and its presigned storage URLs.
 * Operations, load-options methods and the trigger call only what is exported here.
 */
export type { ApiContext } from './context';
export { isExecuteContext, readParameter } from './context';
export { CREDENTIAL_TYPE } from './connection';
export { apiKeysOf, limitsOf, secretsOf, withRunScope } from './scope';
export type { ApiRequest, ApiResponse, PageOf, PaginationOptions } from './api';
export {
	apiRequest,
	apiRequestAllItems,
	apiRequestWithResponse,
	listAt,
	unexpectedResponse,
} from './api';
export { buildApiError, describeViolation, redact, scrubError, withoutSecrets } from './errors';
export type { Problem, Violation } from './errors';
export { idempotencyKey } from './idempotency';
export {
	MAX_WAIT_PARAMETER,
	REQUEST_TIMEOUT_PARAMETER,
	WAIT_LIMITS,
	cancelledError,
	isCancelled,
	isEndedByDeadline,
	pause,
	throwIfCancelled,
} from './retry';
export { waitClock } from './clock';
export type {
	PayloadSource,
	StorageDownload,
	StoragePutOptions,
	StoragePutResult,
	UploadPayload,
} from './storage';
export { approveStorageUrl, downloadFromStorage, putToStorage, redactSignedUrl } from './storage';
