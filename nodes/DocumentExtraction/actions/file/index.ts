import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import * as getUploadStatus from './getUploadStatus.operation';
import * as getValues from './getValues.operation';
import * as upload from './upload.operation';

export const operations: ResourceOperations = { upload, getUploadStatus, getValues };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: [
			{
				name: 'Get Upload Status',
				value: 'getUploadStatus',
				description: 'Get the processing steps and resulting files of an upload',
				action: 'Get upload status',
			},
			{
				name: 'Get Values',
				value: 'getValues',
				description: 'Get the values extracted from a file',
				action: 'Get extracted values of a file',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a document, wait for processing and get the extracted values',
				action: 'Upload a file',
			},
		],
		default: 'upload',
	},
	...upload.description,
	...getUploadStatus.description,
	...getValues.description,
];
