import { defineResource } from '../resource';
import * as get from './get.operation';

export const { operations, description, toolDescription } = defineResource('workflow', 'get', [
	{
		name: 'Get',
		value: 'get',
		description: 'Get a workflow and its steps',
		action: 'Get a workflow',
		toolDescription:
			'Gets a processing workflow of the service and its steps. Needs the workflow ID (24 hexadecimal characters).',
		module: get,
	},
]);
