import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ItemPolicy } from '../../shared/run';

/**
 * One operation: its own parameters (with display options) and what it does for one item.
 * The router owns the item loop, pairing and continueOnFail; an operation returns the items
 * produced for item `itemIndex` (the router pairs them with that item). `policy` is the item's
 * request policy, read from its options once by the router: the operation hands it to every
 * call of the API layer.
 */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, policy: ItemPolicy): Promise<INodeExecutionData[]>;
	/**
	 * Only for an operation whose run is more than its items (Upload waiting for the service's
	 * callbacks): called once before the first item (a check that fails here sends nothing); when
	 * it returns a RunFinish, the router hands that every item's output, in input order, and
	 * outputs what it returns.
	 */
	prepareRun?(this: IExecuteFunctions): Promise<RunFinish | undefined>;
}

/** What the node outputs, from each input item's output (the router's items, paired, in input order). */
export type RunFinish = (this: IExecuteFunctions, outputs: INodeExecutionData[][]) => Promise<INodeExecutionData[][]>;

/** The operations of one resource, by operation value. */
export type ResourceOperations = Record<string, OperationModule>;
