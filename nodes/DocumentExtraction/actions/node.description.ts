import type { INodeProperties } from 'n8n-workflow';

import { RESOURCES } from './registry';

/**
 * The node's parameters, from the registry of resources: the resource selector, then each
 * resource's operations, then, shown only when n8n offers the node to an AI agent as a tool
 * (`@tool`), a Description per operation that tells the model what the tool does, needs and
 * returns (n8n's own default would be the action label, e.g. "Get many files in Document Extraction").
 */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCES.map((resource) => resource.option),
		default: 'file',
	},
	...RESOURCES.flatMap((resource) => resource.properties),
	...RESOURCES.flatMap((resource) => resource.toolProperties),
];
