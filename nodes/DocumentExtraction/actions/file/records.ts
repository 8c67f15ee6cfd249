import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requireUuid } from '../../helpers/validation';
import type { ApiContext } from '../../transport';
import { apiRequest, approveStorageUrl, unexpectedResponse } from '../../transport';

/** File records and preview links: what several File operations look up. */

/** The File resource locator of an item (parameter `fileId`), checked to be a UUID. */
export function readFileId(context: IExecuteFunctions, itemIndex: number): string {
	return requireUuid(
		context,
		itemIndex,
		'File',
		context.getNodeParameter('fileId', itemIndex, '', { extractValue: true }),
	);
}

/**
 * The `fileIds` query parameter of GET /files. The specification calls it a string; the
 * service's public client code sends a JSON array of UUIDs, which the API accepts. One form,
 * sent from here only.
 */
export function fileIdsQueryValue(fileIds: string[]): string {
	return JSON.stringify(fileIds);
}

/** The list record of one file (GET /files filtered by its id); a clear error when absent. */
async function findFile(
	this: ApiContext,
	fileId: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const body = await apiRequest.call(this, {
		method: 'GET',
		path: '/files',
		qs: { fileIds: fileIdsQueryValue([fileId]), page: 1, limit: 1 },
		itemIndex,
	});
	if (!Array.isArray(body.files)) throw unexpectedResponse(this, 'the file list', body, itemIndex);
	const file = (body.files as IDataObject[]).find((candidate) => candidate.fileId === fileId);
	if (!file) {
		const error = new NodeOperationError(
			this.getNode(),
			`File ${fileId} was not found in this workspace`,
			{
				itemIndex,
				description:
					'Check the file ID (the API key decides the workspace); the file may have been deleted.',
			},
		);
		error.context.fileId = fileId;
		throw error;
	}
	return file;
}

/**
 * A fresh, short-lived (about one hour) presigned preview URL for a file record. Never cached:
 * every call asks the API again.
 */
async function createPreviewUrl(
	this: ApiContext,
	file: IDataObject,
	itemIndex?: number,
): Promise<string> {
	const s3Path = file.fileStoragePath;
	if (typeof s3Path !== 'string' || s3Path === '') {
		throw unexpectedResponse(this, `file ${String(file.fileId)} without a storage path`, file, itemIndex);
	}
	const body = await apiRequest.call(this, {
		method: 'POST',
		path: '/files/preview',
		body: { s3Path },
		safeToRepeat: true,
		itemIndex,
	});
	if (typeof body.signedUrl !== 'string' || body.signedUrl === '') {
		throw unexpectedResponse(this, 'the preview request', body, itemIndex);
	}
	return await approveStorageUrl(this, body.signedUrl, 'preview URL', itemIndex);
}

/** The file of an item's File locator, with a fresh preview URL for its stored bytes. */
export async function fileWithPreviewUrl(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ fileId: string; file: IDataObject; signedUrl: string }> {
	const fileId = readFileId(this, itemIndex);
	const file = await findFile.call(this, fileId, itemIndex);
	const signedUrl = await createPreviewUrl.call(this, file, itemIndex);
	return { fileId, file, signedUrl };
}
