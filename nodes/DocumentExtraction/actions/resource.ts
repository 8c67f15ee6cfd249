import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule, ResourceOperations } from './types';

export interface OperationEntry {
	/** Shown in the operation selector. */
	name: string;
	value: string;
	description: string;
	/** The label n8n shows in the actions panel and uses for the node's title when added. */
	action: string;
	/**
	 * What an AI agent is told the operation does when the node is used as a tool: what it does,
	 * what it needs, what it returns. The default of the tool's Description parameter.
	 */
	toolDescription: string;
	module: OperationModule;
}

/**
 * A resource from its operations: the router's map (value -> module), the editor's
 * description (the operation selector, options by name, then each operation's parameters), and
 * the Description parameter of the node's tool form, one per operation.
 */
export function defineResource(
	resource: string,
	defaultOperation: string,
	entries: OperationEntry[],
): { operations: ResourceOperations; description: INodeProperties[]; toolDescription: INodeProperties[] } {
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [...entries]
			.sort((a, b) => a.name.localeCompare(b.name))
			.map(({ name, value, description, action }) => ({ name, value, description, action })),
		default: defaultOperation,
	};
	return {
		operations: Object.fromEntries(entries.map((entry) => [entry.value, entry.module])),
		description: [selector, ...entries.flatMap((entry) => entry.module.description)],
		toolDescription: entries.map(({ value, toolDescription }) => ({
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: toolDescription,
			description:
				'What the AI agent is told this tool does. The default says what the operation does, what it needs and what it returns.',
			// Only in the tool form (n8n's generated documentExtractionTool). In the node's own properties,
			// not in usableAsTool replacements: n8n 2.41 builds the tool type that runs from the node's own
			// properties, and without a toolDescription there it adds its own ("Set Automatically", which
			// tells the model only "Get many files in Document Extraction").
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [value] } },
		})),
	};
}
