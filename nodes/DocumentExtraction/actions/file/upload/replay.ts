import type { IExecuteFunctions } from 'n8n-workflow';

import { getUploadStatus } from '../../../../shared/api';
import type { ItemPolicy } from '../../../../shared/run';

/**
 * The replay guard of Upload, single and multipart alike: whether the bytes of an upload already
 * reached the service. Asked only when the upload (or multipart initiation) request was answered
 * as a replay of an earlier attempt (`replayed`), which happens when the same stored execution
 * runs again (n8n's Retry On Fail, a queue-mode worker taking over a stalled job): the presigned
 * URL can be used more than once, and a second PUT would make a second document. The service
 * records a step once the bytes arrive.
 */
export async function sentBefore(
	this: IExecuteFunctions,
	replayed: boolean,
	uploadId: string,
	policy: ItemPolicy,
): Promise<boolean> {
	if (!replayed) return false;
	const status = await getUploadStatus(this, uploadId, { policy });
	const steps = Array.isArray(status.statuses) ? status.statuses : [];
	const files = Array.isArray(status.files) ? status.files : [];
	return steps.length > 0 || files.length > 0;
}
