import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as execute from './execute.operation';

export const operations: ResourceOperations = { execute };

export const description: INodeProperties[] = [
	operationSelector(
		'query',
		[
			{
				name: 'Execute',
				value: 'execute',
				description: 'Run a query-builder configuration over the extracted data and get rows',
				action: 'Execute a query',
			},
		],
		'execute',
	),
	...execute.description,
];
