import { defineResource } from '../resource';
import * as get from './get.operation';

export const { operations, description } = defineResource('workflow', 'get', [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a workflow and its steps',
		action: 'Get a workflow',
		module: get,
	},
]);
