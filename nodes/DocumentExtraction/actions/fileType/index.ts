import { defineResource } from '../resource';
import * as approve from './approve.operation';
import * as getMany from './getMany.operation';

export const resource = defineResource({
	value: 'fileType',
	name: 'File Type',
	description: 'Document types and their schemas',
	defaultOperation: 'getMany',
	operations: [
		{
			name: 'Get Many',
			value: 'getMany',
			description: 'List the file types (document types) of the workspace',
			action: 'Get many file types',
			toolDescription:
				'Lists the document types (file types) of the workspace, such as Invoice or Receipt, with their IDs and current schema version and fields. Use it to learn which fields documents have or to get a file type ID.',
			module: getMany,
		},
		{
			name: 'Approve',
			value: 'approve',
			description: 'Approve a file type\'s schema version for use',
			action: 'Approve a file type',
			toolDescription:
				"Approves a document type's schema version for use. Needs the file type (its 24-hexadecimal ID, from Get Many file types). Returns whether it was approved.",
			module: approve,
		},
	],
});
