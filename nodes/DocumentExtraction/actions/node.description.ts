import type { INodeProperties } from 'n8n-workflow';

import * as file from './file';

/** The node's parameters: the resource selector, then each resource's operations. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [{ name: 'File', value: 'file' }],
		default: 'file',
	},
	...file.description,
];
