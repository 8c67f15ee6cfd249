import { defineResource } from '../resource';
import * as get from './get.operation';

export const resource = defineResource({
	value: 'workflow',
	name: 'Workflow',
	description: 'Processing workflows and their steps',
	defaultOperation: 'get',
	operations: [
		{
			name: 'Get',
			value: 'get',
			description: 'Get a workflow and its steps',
			action: 'Get a workflow',
			toolDescription:
				'Gets a processing workflow of the service and its steps. Needs the workflow ID (24 hexadecimal characters).',
			module: get,
		},
	],
});
