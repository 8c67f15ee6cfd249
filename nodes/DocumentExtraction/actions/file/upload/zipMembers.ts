import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { IdSource } from '../../../../shared/api';
import { ENDPOINTS, endpointName } from '../../../../shared/api';
import { withLeadingKeys } from '../../../../shared/output/keyOrder';
import { valuesField } from '../../../../shared/output/values';
import type { ApiContext, ItemPolicy } from '../../../../shared/run';
import type { UploadProgress } from '../../../../shared/uploadStatus';

/** Where the file IDs that the wait found come from (named when one is not an ID). */
const STATUS_FILE_ID: IdSource = {
	what: 'file ID',
	source: `The upload status (${endpointName(ENDPOINTS.getUploadStatus)})`,
};

/** Whether the upload is a ZIP, whose members the service unpacks and processes one by one. */
export function isZipUpload(fileName: string, fileType: string): boolean {
	return /^application\/(x-)?zip(-compressed)?$/i.test(fileType) || /\.zip$/i.test(fileName);
}

/**
 * The output of a finished upload: an item per processed file (for a ZIP, per member, with its
 * name in the archive and the ZIP's upload ID), with its extracted values when asked; then an
 * item per failed file or member, saying why and at which step.
 */
export async function uploadResults(
	this: ApiContext,
	progress: UploadProgress,
	upload: { uploadId: string; fileName: string; includeValues: boolean; simplify: boolean; policy: ItemPolicy },
): Promise<INodeExecutionData[]> {
	const { uploadId, fileName, includeValues, simplify, policy } = upload;
	const items: INodeExecutionData[] = [];
	for (const { file, memberName } of progress.processed) {
		const json: IDataObject = { ...file, uploadId: file.uploadId ?? uploadId };
		if (memberName !== undefined) json.zipMemberName = memberName;
		if (progress.isZip) json.zipUploadId = uploadId;
		if (includeValues && typeof file.fileId === 'string') {
			Object.assign(json, await valuesField(this, file.fileId, policy, simplify, STATUS_FILE_ID));
		}
		items.push({ json: withLeadingKeys(json) });
	}
	for (const failure of progress.failed) {
		items.push({
			json: withLeadingKeys({
				uploadId: failure.uploadId ?? uploadId,
				...(progress.isZip ? { zipUploadId: uploadId, zipMemberName: failure.fileName } : {}),
				fileName: failure.fileName ?? fileName,
				fileType: failure.fileType ?? null,
				status: 'failed',
				errorReason: failure.errorReason,
				failedStep: failure.step ?? null,
				statuses: failure.statuses,
			}),
		});
	}
	return items;
}
