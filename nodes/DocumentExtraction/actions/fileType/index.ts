import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as approve from './approve.operation';
import * as getMany from './getMany.operation';

export const operations: ResourceOperations = { getMany, approve };

export const description: INodeProperties[] = [
	operationSelector(
		'fileType',
		[
			{
				name: 'Approve',
				value: 'approve',
				description: 'Approve a file type\'s schema version for use',
				action: 'Approve a file type',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the file types (document types) of the workspace',
				action: 'Get many file types',
			},
		],
		'getMany',
	),
	...getMany.description,
	...approve.description,
];
