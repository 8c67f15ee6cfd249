import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule, ResourceOperations } from './types';

interface OperationEntry {
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

/** What a resource module declares: its entry in the Resource selector and its operations. */
interface ResourceSpec {
	value: string;
	/** Shown in the Resource selector, with `description`. */
	name: string;
	description: string;
	defaultOperation: string;
	operations: OperationEntry[];
}

/** A resource as the registry (registry.ts) holds it, produced by defineResource. */
export interface Resource {
	/** The Resource selector's option. */
	option: { name: string; value: string; description: string };
	/** The router's map: operation value -> module. */
	operations: ResourceOperations;
	/** The editor's parameters: the operation selector (options by name), then each operation's own. */
	properties: INodeProperties[];
	/** The Description parameter of the node's tool form (`@tool`), one per operation. */
	toolProperties: INodeProperties[];
}

export function defineResource(spec: ResourceSpec): Resource {
	const { value: resource, operations: entries, defaultOperation } = spec;
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
		option: { name: spec.name, value: resource, description: spec.description },
		operations: Object.fromEntries(entries.map((entry) => [entry.value, entry.module])),
		properties: [selector, ...entries.flatMap((entry) => entry.module.description)],
		toolProperties: entries.map(({ value, toolDescription }) => ({
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
