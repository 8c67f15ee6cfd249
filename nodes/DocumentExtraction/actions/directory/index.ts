import { defineResource } from '../resource';
import * as create from './create.operation';

export const { operations, description } = defineResource('directory', 'create', [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a directory (folder) to organise files',
		action: 'Create a directory',
		module: create,
	},
]);
