import { defineResource } from '../resource';
import * as approve from './approve.operation';
import * as getMany from './getMany.operation';

export const { operations, description } = defineResource('fileType', 'getMany', [
	{
		name: 'Get Many',
		value: 'getMany',
		description: 'List the file types (document types) of the workspace',
		action: 'Get many file types',
		module: getMany,
	},
	{
		name: 'Approve',
		value: 'approve',
		description: 'Approve a file type\'s schema version for use',
		action: 'Approve a file type',
		module: approve,
	},
]);
