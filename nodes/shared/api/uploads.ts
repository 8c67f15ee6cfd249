import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { STORAGE_LIMITS } from '../limits';
import type { ApiContext } from '../run';
import { waitClock } from '../run';
import { apiRequest, unexpectedResponse } from '../transport';
import { ENDPOINTS, endpointName, pathTo, sendWrite } from './endpoints';
import type { IdSource } from '../ids';
import { requireServiceId } from '../ids';
import type { UploadUrl } from './transfers';
import type { ApiCall, WriteCall } from './types';
import { withoutField } from './types';

/** POST /files/upload body (the multipart initiation takes the same fields plus its sizes). */
export interface UploadRequest extends IDataObject {
	fileName: string;
	fileType: string;
	/** Required in one place of the specification, optional in another: docs/dev/api-contract.md#issplit-and-schemalocking. */
	isSplit: boolean;
	schemaLocking: boolean;
	isSplitExcel?: boolean;
	isEphemeral?: boolean;
	retainOriginalZipFileName?: boolean;
	callbackURL?: string;
	ocrModel?: string;
	directoryId?: string;
	destinationPath?: string;
	pageCount?: number;
	apiRequestId?: string;
}

/** POST /files/upload answer without its presigned URL (a short-lived bearer secret, kept apart). */
export interface UploadAnswer extends IDataObject {
	/** Checked to be a UUID: it goes into the status path. */
	uploadId: string;
	s3Path?: string;
	callbackURL?: string;
	callbackURLSource?: string;
	ocrModel?: string;
	schemaLocking?: boolean;
	isEphemeral?: boolean;
	destinationPath?: string;
}

/** The API answered with the stored answer of an earlier request with the same Idempotency-Key. */
function isReplayed(headers: IDataObject): boolean {
	return String(headers['idempotent-replayed'] ?? '').toLowerCase() === 'true';
}

/**
 * POST /files/upload: a presigned URL to PUT the file to (putUploadFile judges it and sends), valid
 * for its lifetime from the request. `replayed`: the answer is the replay of an earlier attempt
 * with the same Idempotency-Key (the bytes may have been sent already).
 */
export async function requestUpload(
	context: IExecuteFunctions,
	body: UploadRequest,
	{ policy }: WriteCall,
): Promise<{ upload: UploadAnswer; uploadUrl: UploadUrl; replayed: boolean }> {
	const { itemIndex } = policy;
	const requestedAt = waitClock.now();
	const answer = await sendWrite(context, ENDPOINTS.requestUpload, body, policy);
	const { uploadId, presignedUploadURL } = answer.body;
	if (typeof uploadId !== 'string' || typeof presignedUploadURL !== 'string') {
		throw unexpectedResponse(context, 'the upload request', { ...answer.body, presignedUploadURL: undefined }, itemIndex);
	}
	// Checked before any byte is sent: the upload ID goes into the status path.
	const source = { what: 'upload ID', source: `The upload request's answer (${endpointName(ENDPOINTS.requestUpload)})` };
	requireServiceId(context, uploadId, 'uuid', source, itemIndex);
	return {
		upload: withoutField(answer.body, 'presignedUploadURL') as UploadAnswer,
		uploadUrl: { url: presignedUploadURL, validUntil: requestedAt + STORAGE_LIMITS.uploadUrlLifetimeMs },
		replayed: isReplayed(answer.headers),
	};
}

/** POST /files/upload/multipart body: the upload fields plus the sizes, in MB. */
export interface MultipartUploadRequest extends UploadRequest {
	fileSize: number;
	partSizeLimit: number;
}

/**
 * POST /files/upload/multipart answer: `id` and `key` (checked to be text) for the completion,
 * and a presigned URL per part. The part plan is judged by the caller before anything is sent,
 * then its URLs by approvePartUrls.
 */
interface MultipartInitiation extends IDataObject {
	id: string;
	key: string;
	uploadId?: string;
	partSize?: number;
	presignedUrls?: IDataObject[];
}

export async function initiateMultipartUpload(
	context: IExecuteFunctions,
	body: MultipartUploadRequest,
	{ policy }: WriteCall,
): Promise<{ initiation: MultipartInitiation; replayed: boolean; partsValidUntil: number }> {
	const requestedAt = waitClock.now();
	const answer = await sendWrite(context, ENDPOINTS.initiateMultipartUpload, body, policy);
	const initiation = answer.body;
	if (typeof initiation.id !== 'string' || typeof initiation.key !== 'string') {
		throw unexpectedResponse(context, 'the multipart upload request', withoutField(initiation, 'presignedUrls'), policy.itemIndex);
	}
	return {
		initiation: initiation as MultipartInitiation,
		replayed: isReplayed(answer.headers),
		partsValidUntil: requestedAt + STORAGE_LIMITS.partUrlLifetimeMs,
	};
}

/** POST /files/upload/multipart/complete body: the ETags of the parts, in part order. */
interface MultipartCompletion extends IDataObject {
	id: string;
	key: string;
	parts: Array<{ partNumber: number; eTag: string }>;
}

/** POST /files/upload/multipart/complete; an answer with `success: false` fails. */
export async function completeMultipartUpload(
	context: IExecuteFunctions,
	body: MultipartCompletion,
	{ policy }: WriteCall,
): Promise<IDataObject> {
	const { body: completion } = await sendWrite(context, ENDPOINTS.completeMultipartUpload, body, policy);
	if (completion.success === false) {
		throw unexpectedResponse(context, 'the completion of the multipart upload', completion, policy.itemIndex);
	}
	return completion;
}

/**
 * GET /uploads/{uploadId} answer: the upload's step records, and its files (for a ZIP, one
 * record per member). Read by nodes/shared/uploadStatus.ts.
 */
export interface UploadStatus extends IDataObject {
	statuses?: IDataObject[];
	files?: IDataObject[];
}

/**
 * GET /uploads/{uploadId}. The ID is checked to be a UUID before it goes into the path (callers
 * check where they got it, naming the answer; this is the last check before the path).
 */
export async function getUploadStatus(
	context: ApiContext,
	uploadId: string,
	call: ApiCall & { idSource?: IdSource },
): Promise<UploadStatus> {
	const { idSource = { what: 'upload ID', source: 'The service' }, policy, deadline } = call;
	return await apiRequest(context, {
		method: ENDPOINTS.getUploadStatus.method,
		path: pathTo(context, ENDPOINTS.getUploadStatus, uploadId, idSource, policy.itemIndex),
		policy,
		deadline,
	});
}
