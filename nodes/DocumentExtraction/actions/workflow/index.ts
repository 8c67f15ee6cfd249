import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as get from './get.operation';

export const operations: ResourceOperations = { get };

export const description: INodeProperties[] = [
	operationSelector(
		'workflow',
		[
			{
				name: 'Get',
				value: 'get',
				description: 'Get a workflow and its steps',
				action: 'Get a workflow',
			},
		],
		'get',
	),
	...get.description,
];
