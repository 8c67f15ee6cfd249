import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadAnswer, UploadRequest } from '../../../../shared/api';
import { putUploadFile, requestUpload } from '../../../../shared/api';
import type { ItemPolicy } from '../../../../shared/run';
import type { BinarySource } from '../../../helpers/binary';
import { sentBefore } from './replay';

/**
 * Single upload: POST /files/upload, then one PUT of the whole file to the presigned URL (unless
 * a replayed answer's bytes already arrived). Returns the answer without the presigned URL: it is
 * a short-lived bearer secret, not part of the output.
 */
export async function singleUpload(
	context: IExecuteFunctions,
	policy: ItemPolicy,
	body: UploadRequest,
	source: BinarySource,
): Promise<UploadAnswer> {
	const { upload, uploadUrl, replayed } = await requestUpload(context, body, { policy });
	if (await sentBefore.call(context, replayed, upload.uploadId, policy)) return upload;
	await putUploadFile(context, uploadUrl, source.open, {
		contentType: body.fileType,
		label: `file "${body.fileName}" (upload ID ${upload.uploadId})`,
		policy,
	});
	return upload;
}
