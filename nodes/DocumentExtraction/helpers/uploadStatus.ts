/** Reading GET /uploads/{uploadId} moved to nodes/shared (the Callback Trigger reads it too). */
export type { UploadProgress } from '../../shared/uploadStatus';
export { readUploadStatus } from '../../shared/uploadStatus';
