import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/**
 * One operation: its own parameters (with display options) and what it does for one item.
 * The router owns the item loop, pairing and continueOnFail; an operation returns the items
 * produced for item `itemIndex` (the router pairs them with that item).
 */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** The operations of one resource, by operation value. */
export type ResourceOperations = Record<string, OperationModule>;
