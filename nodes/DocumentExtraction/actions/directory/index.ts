import { defineResource } from '../resource';
import * as create from './create.operation';

export const resource = defineResource({
	value: 'directory',
	name: 'Directory',
	description: 'Folders that organise files',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a directory (folder) to organise files',
			action: 'Create a directory',
			toolDescription:
				'Creates a folder (directory) that organises documents in the Document Extraction Service. Needs a name; optionally a description and the ID of a parent folder (24 hexadecimal characters). Returns the new folder with its ID.',
			module: create,
		},
	],
});
