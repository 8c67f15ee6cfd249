import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as create from './create.operation';

export const operations: ResourceOperations = { create };

export const description: INodeProperties[] = [
	operationSelector(
		'directory',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create a directory (folder) to organise files',
				action: 'Create a directory',
			},
		],
		'create',
	),
	...create.description,
];
