import { defineResource } from '../resource';
import * as updateFields from './updateFields.operation';

export const { operations, description } = defineResource('schema', 'updateFields', [
	{
		name: 'Update Fields (Deprecated)',
		value: 'updateFields',
		description:
			'Patch field definitions of a schema. Deprecated by the API: it will be removed in a future version.',
		action: 'Update schema fields (deprecated)',
		module: updateFields,
	},
]);
