import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule, ResourceOperations } from './types';

export interface OperationEntry {
	/** Shown in the operation selector. */
	name: string;
	value: string;
	description: string;
	/** The label n8n shows in the actions panel and uses for the node's title when added. */
	action: string;
	module: OperationModule;
}

/**
 * A resource from its operations: the router's map (value -> module) and the editor's
 * description (the operation selector, options by name, then each operation's parameters).
 */
export function defineResource(
	resource: string,
	defaultOperation: string,
	entries: OperationEntry[],
): { operations: ResourceOperations; description: INodeProperties[] } {
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
	};
}
