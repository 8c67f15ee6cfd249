import { defineResource } from '../resource';
import * as execute from './execute.operation';

export const { operations, description } = defineResource('query', 'execute', [
	{
		name: 'Execute',
		value: 'execute',
		description: 'Run a query-builder configuration over the extracted data and get rows',
		action: 'Execute a query',
		module: execute,
	},
]);
