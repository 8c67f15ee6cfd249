import { defineResource } from '../resource';
import * as updateFields from './updateFields.operation';

export const resource = defineResource({
	value: 'schema',
	name: 'Schema',
	description: 'Schema field definitions (deprecated API)',
	defaultOperation: 'updateFields',
	operations: [
		{
			name: 'Update Fields (Deprecated)',
			value: 'updateFields',
			description:
				'Patch field definitions of a schema. Deprecated by the API: it will be removed in a future version.',
			action: 'Update schema fields (deprecated)',
			toolDescription:
				'Deprecated by the service: changes the field definitions of a schema. Needs the schema ID (24 hexadecimal characters) and the fields. Prefer not to use it.',
			module: updateFields,
		},
	],
});
