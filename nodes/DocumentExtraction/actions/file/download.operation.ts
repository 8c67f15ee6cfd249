import type { IBinaryData, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { downloadFile } from '../../../shared/api';
import { optionsCollection, transferSpeedOptions } from '../../../shared/requestOptions';
import { fileIdParameter } from '../../descriptions/common';
import { binaryFileName, binaryMimeType } from '../../helpers/binary';
import { requireText } from '../../../shared/parameters';
import { fileWithPreviewUrl } from './records';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [
	{ ...fileIdParameter, description: 'The file to download' },
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the output binary field to put the file in',
	},
	optionsCollection(transferSpeedOptions),
];

const displayOptions = { show: { resource: ['file'], operation: ['download'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Downloads the stored file behind a fresh preview link into a binary field: the file record
 * gives the name and MIME type (cleaned: they are the service's text; the JSON keeps the record
 * as answered); the bytes stream from storage (without the API key) into n8n's
 * binary data, which keeps them on disk in filesystem mode.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = requireText(
		this,
		itemIndex,
		'Put Output File in Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
	);
	const { fileId, file, signedUrl } = await fileWithPreviewUrl.call(this, policy);
	const fileName = binaryFileName(file.fileName, fileId);
	// (.call loses the generic: the consumer below returns the binary data.)
	const binary = (await downloadFile(
		this,
		signedUrl,
		// The record's size bounds the download (a little over it); unknown: the Max Answer Size.
		{ label: `file "${fileName}"`, announcedBytes: file.fileSize, policy },
		async (download) => {
			const mimeType = binaryMimeType(file.fileType, download.contentType);
			const stream = download.body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];
			return await this.helpers.prepareBinaryData(stream, fileName, mimeType);
		},
	)) as IBinaryData;
	return [{ json: file, binary: { [binaryPropertyName]: binary } }];
}
