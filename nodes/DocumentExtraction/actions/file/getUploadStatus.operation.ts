import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getUploadStatus } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import { uploadIdParameter } from '../../descriptions/common';
import { requireUuid } from '../../../shared/parameters';
import { readUploadStatus } from '../../../shared/uploadStatus';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [uploadIdParameter, optionsCollection()];

const displayOptions = { show: { resource: ['file'], operation: ['getUploadStatus'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const uploadId = requireUuid(
		this,
		itemIndex,
		'Upload ID',
		this.getNodeParameter('uploadId', itemIndex),
	);
	const status = await getUploadStatus(this, uploadId, { policy });
	const progress = readUploadStatus(status, false);
	return [
		{
			json: {
				uploadId,
				state: progress.state,
				processedFileIds: progress.processed.map(({ file }) => file.fileId),
				failedFiles: progress.failed.map((failure) => ({
					fileName: failure.fileName ?? null,
					errorReason: failure.errorReason,
				})),
				...(progress.errorReason ? { errorReason: progress.errorReason } : {}),
				...status,
			},
		},
	];
}
