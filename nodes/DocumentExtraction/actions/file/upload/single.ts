import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadAnswer, UploadRequest } from '../../../../shared/api';
import { requestUpload } from '../../../../shared/api';
import type { BinarySource } from '../../../helpers/binary';
import { waitClock } from '../../../../shared/run';
import { putToStorage } from '../../../../shared/transport';
import { sentBefore } from './replay';

/** A presigned upload URL is valid for 300 seconds from the upload request (docs/dev/api-contract.md#upload-url-lifetime). */
const UPLOAD_URL_LIFETIME_MS = 300 * 1000;

/**
 * Single upload: POST /files/upload, then one PUT of the whole file to the presigned URL (unless
 * a replayed answer's bytes already arrived). Returns the answer without the presigned URL: it is
 * a short-lived bearer secret, not part of the output.
 */
export async function singleUpload(
	context: IExecuteFunctions,
	itemIndex: number,
	body: UploadRequest,
	source: BinarySource,
): Promise<UploadAnswer> {
	const requestedAt = waitClock.now();
	const { upload, presignedUploadURL, replayed } = await requestUpload.call(context, body, { itemIndex });
	if (await sentBefore.call(context, replayed, upload.uploadId, itemIndex)) return upload;
	await putToStorage.call(context, presignedUploadURL, source.open, {
		contentType: body.fileType,
		label: `file "${body.fileName}" (upload ID ${upload.uploadId})`,
		role: 'presigned upload URL',
		itemIndex,
		validUntil: requestedAt + UPLOAD_URL_LIFETIME_MS,
	});
	return upload;
}
