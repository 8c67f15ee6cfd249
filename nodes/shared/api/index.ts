/**
 * The API layer: one typed function per endpoint of the Document Extraction API (docs/dev/api-contract.md#endpoints),
 * and the presigned storage transfers, used by the node's operations, its editor methods and the
 * trigger alike. Each function builds its request from the endpoint table (endpoints.ts), derives
 * the Idempotency-Key of a write, checks every ID before it goes into a path, and reads the answer
 * into its type. Every call takes the request policy of its item, poll or editor lookup (built by
 * ../requestPolicy.ts where the run starts) and hands it down: no call goes out without its
 * bounds. Below it, the request path (nodes/shared/transport) sends, bounds, retries and reports.
 *
 *   endpoints.ts  methods and paths, written once; IDs into paths
 *   types.ts      call options and answer readers shared by the modules below
 *   files.ts      GET /files, DELETE /files, PATCH /files/{fileId}, POST /files/preview
 *   uploads.ts    POST /files/upload, multipart initiate and complete, GET /uploads/{uploadId}
 *   values.ts     GET and PATCH /files/{fileId}/values, PATCH /files/schema/rerun
 *   fileTypes.ts  GET /file-type (all, or until one is found), PATCH /file-type/approve, PATCH /schemas
 *   workspace.ts  GET /subscription, GET /project/setting, POST /directories, GET /workflows/{workflowId}
 *   query.ts      POST /query/execute
 *   transfers.ts  presigned storage: the upload's PUT, a part's PUT, a download (each URL approved once)
 *
 * The ID forms and the check of IDs the service hands back (../ids.ts) stand on the ground floor, below
 * this layer and parameters/ alike; they are exported here with the rest for the layer's callers.
 */
export { ENDPOINTS, endpointName } from './endpoints';
export type { IdForm, IdSource } from '../ids';
export { ID_FORMS, isId, requireServiceId } from '../ids';
export type { ApiCall } from './types';
export { withoutField } from './types';
export type { DeleteFilesAnswer, ExportStatus, ExportStatusReport, FileListQuery, FilePage, FileRecord } from './files';
export { FILE_PAGE_SIZE, claimFile, createPreviewUrl, deleteFiles, getFile, listAllFiles, listFiles, reportExportStatus, reportExportStatusWithKey } from './files';
export type { MultipartUploadRequest, UploadAnswer, UploadRequest, UploadStatus } from './uploads';
export { completeMultipartUpload, getUploadStatus, initiateMultipartUpload, requestUpload } from './uploads';
export type { FieldValue, RerunNotification, RerunOptions, RerunRequest } from './values';
export { getFormValues, rerunExtraction, updateFormValues, updateFormValuesWithKey } from './values';
export type { FileType, FileTypeApproval } from './fileTypes';
export { approveFileType, findFileType, listFileTypes, patchSchemaFields } from './fileTypes';
export type { DirectoryRequest } from './workspace';
export { createDirectory, getProjectSettings, getSubscription, getWorkflow } from './workspace';
export { executeQuery } from './query';
export type { PartUrl, UploadUrl } from './transfers';
export { approvePartUrls, downloadFile, putPart, putUploadFile } from './transfers';
// What callers need of the request path below, so that they import from this layer only.
export type { ApprovedUrl, PayloadSource, Violation } from '../transport';
export { apiKeyDigest, approvedApiBase, CREDENTIAL_TYPE, describeViolation, isEndedByDeadline, unexpectedResponse, withoutSecrets } from '../transport';
