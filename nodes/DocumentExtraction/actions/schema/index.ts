import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as updateFields from './updateFields.operation';

export const operations: ResourceOperations = { updateFields };

export const description: INodeProperties[] = [
	operationSelector(
		'schema',
		[
			{
				name: 'Update Fields (Deprecated)',
				value: 'updateFields',
				description:
					'Patch field definitions of a schema. Deprecated by the API: it will be removed in a future version.',
				action: 'Update schema fields (deprecated)',
			},
		],
		'updateFields',
	),
	...updateFields.description,
];
