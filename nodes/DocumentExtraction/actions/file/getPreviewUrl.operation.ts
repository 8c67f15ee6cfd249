import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/requestOptions';
import { fileIdParameter } from '../../descriptions/common';
import { fileWithPreviewUrl } from './records';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [
	{
		...fileIdParameter,
		description: 'The file to create a preview link for',
		hint: 'The link works for about one hour; the node asks for a new one on every run',
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['file'], operation: ['getPreviewUrl'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** A fresh presigned preview link (about one hour) for the file of each item. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const { fileId, file, signedUrl } = await fileWithPreviewUrl.call(this, policy);
	return [
		{
			json: {
				fileId,
				fileName: file.fileName ?? null,
				fileType: file.fileType ?? null,
				fileSize: file.fileSize ?? null,
				signedUrl: signedUrl.href,
			},
		},
	];
}
