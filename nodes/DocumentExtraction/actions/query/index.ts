import { defineResource } from '../resource';
import * as execute from './execute.operation';

export const resource = defineResource({
	value: 'query',
	name: 'Query',
	description: 'Tabular queries over extracted data',
	defaultOperation: 'execute',
	operations: [
		{
			name: 'Execute',
			value: 'execute',
			description: 'Run a query-builder configuration over the extracted data and get rows; fields picked from the file types',
			action: 'Execute a query',
			toolDescription:
				'Runs a query over the values extracted from all documents and returns rows: selected fields, filters (for example Total Amount greater than 100), grouping, sums, counts, averages and order. Use it for questions across many documents, such as the total per vendor. Needs the query configuration as JSON.',
			module: execute,
		},
	],
});
