import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANSWER_LIMITS } from '../limits';
import type { ApiContext } from '../run';
import type { ApprovedUrl } from '../transport';
import { apiRequest, apiRequestAllItems, approveStorageUrl, claimIdempotencyKey, listAt, unexpectedResponse } from '../transport';
import { ENDPOINTS, pathTo, sendWrite, sendWriteWithKey } from './endpoints';
import type { ApiCall, SortOrder, WriteCall } from './types';

/** A file (docs/dev/api-contract.md#list-files). `fileId` is checked to be text; the rest is as the service answered. */
export interface FileRecord extends IDataObject {
	fileId: string;
	fileName?: string;
	fileType?: string;
	fileSize?: number;
	fileStoragePath?: string;
	fileHash?: string;
	uploadId?: string;
	status?: string;
	summary?: string;
	referenceId?: string;
	isDuplicate?: boolean;
	schemaId?: string;
	fileClass?: string;
	createdAt?: string;
	updatedAt?: string;
	zipArchiveName?: string;
}

/** GET /files query (all optional). */
export interface FileListQuery {
	fileIds?: string[];
	createdAfter?: string;
	updatedAfter?: string;
	page?: number;
	limit?: number;
	sortBy?: string;
	sortOrder?: SortOrder;
}

export interface FilePage {
	files: FileRecord[];
	/** Files matching the query across all pages, when the API says. */
	count?: number;
}

/** Files per list request: the API's largest page size (limits.ts). */
export const FILE_PAGE_SIZE = ANSWER_LIMITS.pageSize;

/**
 * The query string of GET /files. `fileIds`: the specification calls it a string; the service's
 * public client code sends a JSON array of UUIDs, which the API accepts. One form, sent from here only
 * (docs/dev/api-contract.md#fileids-in-the-file-list-query).
 */
function fileListQs(query: FileListQuery): IDataObject {
	const qs: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined) qs[key] = key === 'fileIds' ? JSON.stringify(value) : (value as IDataObject[string]);
	}
	return qs;
}

/** A file list answer: `files` an array of records that each have a text `fileId`. */
function readFilePage(context: ApiContext, body: IDataObject, itemIndex?: number): FilePage {
	if (!Array.isArray(body.files)) throw unexpectedResponse(context, 'the file list', body, itemIndex);
	const files = body.files as FileRecord[];
	for (const file of files) {
		if (!file || typeof file !== 'object' || typeof file.fileId !== 'string') {
			throw unexpectedResponse(context, 'a file without a fileId in the file list', body, itemIndex);
		}
	}
	return { files, count: typeof body.count === 'number' ? body.count : undefined };
}

/** GET /files: one page of the workspace's files. */
export async function listFiles(context: ApiContext, query: FileListQuery, call: ApiCall): Promise<FilePage> {
	const body = await apiRequest(context, { ...ENDPOINTS.listFiles, qs: fileListQs(query), ...call });
	return readFilePage(context, body, call.policy.itemIndex);
}

/** GET /files, page after page (Return All and Limit), each file once. */
export async function listAllFiles(
	context: ApiContext,
	query: Omit<FileListQuery, 'page' | 'limit'>,
	pages: { limit?: number; pageSize?: number },
	call: ApiCall,
): Promise<FileRecord[]> {
	const files = await apiRequestAllItems(
		context,
		{ ...ENDPOINTS.listFiles, qs: fileListQs(query), ...call },
		{
			extract: (body) => ({ items: readFilePage(context, body, call.policy.itemIndex).files, total: listAt('files')(body).total }),
			...pages,
		},
	);
	return files as FileRecord[];
}

/** The list record of one file (GET /files filtered by its ID); a clear error when absent. */
export async function getFile(context: ApiContext, fileId: string, call: ApiCall): Promise<FileRecord> {
	const { files } = await listFiles(context, { fileIds: [fileId], page: 1, limit: 1 }, call);
	const file = files.find((candidate) => candidate.fileId === fileId);
	if (!file) {
		const error = new NodeOperationError(context.getNode(), `File ${fileId} was not found in this workspace`, {
			itemIndex: call.policy.itemIndex,
			description: 'Check the file ID (the API key decides the workspace); the file may have been deleted.',
		});
		error.context.fileId = fileId;
		throw error;
	}
	return file;
}

/**
 * DELETE /files answer: `{ success: true }`, or a partial failure that lists the failed files in
 * `errors` (each with its `fileId`, a `code` and a `detail`). Read by the Delete operation.
 */
export interface DeleteFilesAnswer extends IDataObject {
	success?: boolean;
	errors?: IDataObject[];
	deletedFileIds?: string[];
	detail?: string;
	message?: string;
}

/** DELETE /files for one batch (the API recommends at most 100 IDs). */
export async function deleteFiles(
	context: IExecuteFunctions,
	fileIds: string[],
	{ policy }: WriteCall,
): Promise<DeleteFilesAnswer> {
	// An array, as the request sample sends (its prose says a comma string): docs/dev/api-contract.md#delete-body
	return (await sendWrite(context, ENDPOINTS.deleteFiles, { fileIds }, policy)).body;
}

export type ExportStatus = 'completed' | 'empty' | 'error' | 'exporting';

/** PATCH /files/{fileId} body. */
export interface ExportStatusReport extends IDataObject {
	integrationExportStatus: ExportStatus;
	integrationExportMessages?: string[];
}

/** PATCH /files/{fileId} answer (docs/dev/api-contract.md#report-export-status). */
interface ExportStatusAnswer extends IDataObject {
	fileId?: string;
	exportInfo?: {
		integrationExportStatus?: string;
		integrationExportMessages?: string[] | null;
		integrationExportUpdatedAt?: string;
	};
}

/** PATCH /files/{fileId}: reports what the user's own system did with a file. */
export async function reportExportStatus(
	context: IExecuteFunctions,
	fileId: string,
	body: ExportStatusReport,
	{ policy }: WriteCall,
): Promise<ExportStatusAnswer> {
	const path = pathTo(context, ENDPOINTS.reportExportStatus, fileId, { what: 'file ID', source: 'The File parameter' }, policy.itemIndex);
	return (await sendWrite(context, ENDPOINTS.reportExportStatus, body, policy, path)).body;
}

/** The same report from a webhook call (File > Review Values' submit), keyed by its caller (sendWriteWithKey). */
export async function reportExportStatusWithKey(
	context: ApiContext,
	fileId: string,
	body: ExportStatusReport,
	{ policy, idempotencyKey }: WriteCall & { idempotencyKey: string },
): Promise<ExportStatusAnswer> {
	const path = pathTo(context, ENDPOINTS.reportExportStatus, fileId, { what: 'file ID', source: 'A review page' }, policy.itemIndex);
	return (await sendWriteWithKey(context, ENDPOINTS.reportExportStatus, body, policy, path, idempotencyKey)).body;
}

/**
 * PATCH /files/{fileId} as a claim (nodes/shared/callbacks/claim.ts): the export status sent with
 * the Idempotency-Key of `subject` (claimIdempotencyKey: the same in every n8n process, not the
 * item's), so that processes claiming the same subject race for it at the API. A 2xx, first or
 * replayed (Idempotent-Replayed: this process wrote it before and lost the answer), is this
 * process's claim; a 422 key reuse is thrown as any error.
 */
export async function claimFile(
	context: IWebhookFunctions,
	fileId: string,
	body: ExportStatusReport,
	subject: string[],
	{ policy, deadline }: ApiCall,
): Promise<void> {
	const path = pathTo(context, ENDPOINTS.reportExportStatus, fileId, { what: 'file ID', source: 'The upload\'s status' }, policy.itemIndex);
	await sendWriteWithKey(context, ENDPOINTS.reportExportStatus, body, policy, path, claimIdempotencyKey(context, subject), deadline);
}

/**
 * POST /files/preview: a fresh, short-lived (about one hour) presigned preview URL for a stored
 * file, judged by the URL policy before it is used. Never cached: every call asks the API again.
 */
export async function createPreviewUrl(context: ApiContext, s3Path: string, call: ApiCall): Promise<ApprovedUrl> {
	const body = await apiRequest(context, {
		...ENDPOINTS.createPreviewUrl,
		body: { s3Path },
		// The API answers it fresh every time and ignores Idempotency-Key: repeated like a read.
		safeToRepeat: true,
		...call,
	});
	if (typeof body.signedUrl !== 'string' || body.signedUrl === '') {
		throw unexpectedResponse(context, 'the preview request', body, call.policy.itemIndex);
	}
	return await approveStorageUrl(context, body.signedUrl, 'preview URL', call.policy);
}
