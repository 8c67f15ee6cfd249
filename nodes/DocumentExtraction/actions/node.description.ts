import type { INodeProperties } from 'n8n-workflow';

import * as directory from './directory';
import * as file from './file';
import * as fileType from './fileType';
import * as query from './query';
import * as schema from './schema';
import * as workflow from './workflow';
import * as workspace from './workspace';

/**
 * The node's parameters: the resource selector, then each resource's operations, then, shown only
 * when n8n offers the node to an AI agent as a tool (`@tool`), a Description per operation that
 * tells the model what the tool does, needs and returns (n8n's own default would be the action
 * label, e.g. "Get many files in Document Extraction").
 */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Directory', value: 'directory', description: 'Folders that organise files' },
			{ name: 'File', value: 'file', description: 'Uploads, extracted values, previews, exports' },
			{ name: 'File Type', value: 'fileType', description: 'Document types and their schemas' },
			{ name: 'Query', value: 'query', description: 'Tabular queries over extracted data' },
			{ name: 'Schema', value: 'schema', description: 'Schema field definitions (deprecated API)' },
			{ name: 'Workflow', value: 'workflow', description: 'Processing workflows and their steps' },
			{ name: 'Workspace', value: 'workspace', description: 'Subscription and project settings' },
		],
		default: 'file',
	},
	...directory.description,
	...file.description,
	...fileType.description,
	...query.description,
	...schema.description,
	...workflow.description,
	...workspace.description,
	...directory.toolDescription,
	...file.toolDescription,
	...fileType.toolDescription,
	...query.toolDescription,
	...schema.toolDescription,
	...workflow.toolDescription,
	...workspace.toolDescription,
];
