import type { IExecuteFunctions } from 'n8n-workflow';

import type { ApprovedUrl, FileRecord } from '../../../shared/api';
import { createPreviewUrl, getFile, unexpectedResponse } from '../../../shared/api';
import type { ItemPolicy } from '../../../shared/run';
import { requireUuid } from '../../../shared/parameters';

/** The File locator and what several File operations look up with it. */

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
 * The file of an item's File locator, with a fresh preview URL for its stored bytes (about one
 * hour; never cached), approved by the URL policy.
 */
export async function fileWithPreviewUrl(
	this: IExecuteFunctions,
	policy: ItemPolicy,
): Promise<{ fileId: string; file: FileRecord; signedUrl: ApprovedUrl }> {
	const { itemIndex } = policy;
	const fileId = readFileId(this, itemIndex);
	const file = await getFile(this, fileId, { policy });
	const s3Path = file.fileStoragePath;
	if (typeof s3Path !== 'string' || s3Path === '') {
		throw unexpectedResponse(this, `file ${String(file.fileId)} without a storage path`, file, itemIndex);
	}
	const signedUrl = await createPreviewUrl(this, s3Path, { policy });
	return { fileId, file, signedUrl };
}
