import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ItemPolicy } from '../../shared/run';

/**
 * One operation: its own parameters (with display options) and what it does for one item.
 * The router owns the item loop, pairing and continueOnFail; an operation returns the items
 * produced for item `itemIndex` (the router pairs them with that item). `policy` is the item's
 * request policy, read from its options once by the router: the operation hands it to every
 * call of the API layer. `run` is what the operation's prepareRun read for the whole run, handed
 * down the same way (undefined for an operation without prepareRun).
 */
export interface OperationModule<Run = unknown> {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, policy: ItemPolicy, run: Run): Promise<INodeExecutionData[]>;
	/**
	 * Only for an operation whose run is more than its items (Upload, which may wait for the
	 * service's callbacks): called once before the first item (a check that fails here sends
	 * nothing). The router hands its `run` to every item's execute(), as it hands the policy,
	 * and, when it has a `finish`, that every item's output, in input order, and outputs what it
	 * returns.
	 */
	prepareRun?(this: IExecuteFunctions): Promise<PreparedRun<Run>>;
}

/** What an operation read and decided for the whole run, before the first item. */
export interface PreparedRun<Run> {
	run: Run;
	/** What the node outputs, from each input item's output (the router's items, paired, in input order). */
	finish?(this: IExecuteFunctions, outputs: INodeExecutionData[][], run: Run): Promise<INodeExecutionData[][]>;
}

/** The operations of one resource, by operation value. */
export type ResourceOperations = Record<string, OperationModule>;
