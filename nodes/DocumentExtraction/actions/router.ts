import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forEachConcurrently } from '../../shared/concurrency';
import { asNodeError } from '../../shared/nodeError';
import { BATCHING_DEFAULTS, BATCHING_PARAMETER } from '../descriptions/batching';
import { withoutSecrets } from '../../shared/api';
import { itemPolicy } from '../../shared/requestPolicy';
import { apiKeysOf, isCancelled, pause } from '../../shared/run';
import { requireNumber } from '../../shared/parameters';
import { errorItem } from './errorItem';
import { RESOURCES } from './registry';
import type { PreparedRun, ResourceOperations } from './types';

/** Every resource's operations, by resource value (from the registry). */
const resources: Record<string, ResourceOperations> = Object.fromEntries(
	RESOURCES.map((resource) => [resource.option.value, resource.operations]),
);


/**
 * Runs the chosen operation for every input item. The one place that owns the item loop,
 * pairs each output item with its input item, and applies continueOnFail.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}

	let prepared: PreparedRun<unknown> | undefined;
	try {
		prepared = await handler.prepareRun?.call(this);
	} catch (error) {
		// Refused before any item was sent: with Continue On Fail every item says why.
		const nodeError = asNodeError(this, error);
		if (!this.continueOnFail()) throw nodeError;
		return [items.map((_, itemIndex) => errorItem(nodeError, itemIndex))];
	}

	const runItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			// The item's request options are read and checked once, before it does anything: its
			// request policy, handed down to every request it makes; with what the run read before
			// the first item (prepareRun), handed down the same way.
			const policy = itemPolicy(this, itemIndex);
			const output = await handler.execute.call(this, itemIndex, policy, prepared?.run);
			// Items never show the API key, whatever the service echoed back. (Presigned URLs are
			// kept out of items by the operations; Get Preview URL's link is its purpose.)
			return this.helpers.constructExecutionMetaData(withoutSecrets(output, apiKeysOf(this)), {
				itemData: { item: itemIndex },
			});
		} catch (error) {
			// A stopped execution ends quietly with what the finished items produced, so n8n records
			// it as stopped (not failed) and its data shows which documents were done before the stop.
			if (isCancelled(this)) return [];
			const nodeError = asNodeError(this, error, itemIndex);
			if (this.continueOnFail()) return [errorItem(nodeError, itemIndex)];
			throw nodeError;
		}
	};

	// Outputs are kept per input item, so concurrent items still come out in input order.
	const outputs: INodeExecutionData[][] = new Array<INodeExecutionData[]>(items.length);
	const runItems = async (first: number, count: number, concurrency: number) =>
		await forEachConcurrently(
			count,
			concurrency,
			async (offset) => {
				outputs[first + offset] = await runItem(first + offset);
			},
			() => isCancelled(this),
		);

	const { batchSize, batchInterval } = batchingOf(this);
	if (batchInterval > 0) {
		for (let first = 0; first < items.length; first += batchSize) {
			if (first > 0) await pause(this, batchInterval);
			await runItems(first, Math.min(batchSize, items.length - first), batchSize);
		}
	} else {
		await runItems(0, items.length, batchSize);
	}
	if (prepared?.finish && !isCancelled(this)) return await prepared.finish.call(this, Array.from(outputs, (output) => output ?? []), prepared.run);
	return [outputs.flatMap((output) => output ?? [])];
}

/**
 * The node's Batching option (see descriptions/batching.ts), read from the first item for the
 * whole run and checked (a bad value fails the run before any request); one item at a time
 * without it.
 */
function batchingOf(context: IExecuteFunctions): { batchSize: number; batchInterval: number } {
	const batching = context.getNodeParameter(BATCHING_PARAMETER, 0, null) as IDataObject | null;
	if (!batching) return { batchSize: 1, batchInterval: 0 };
	const batch = (batching.batch ?? {}) as IDataObject;
	return {
		batchSize: requireNumber(
			context,
			0,
			'Items per Batch',
			batch.batchSize ?? BATCHING_DEFAULTS.batchSize,
			{ min: 1, integer: true },
			'a whole number of 1 or more',
		),
		batchInterval: requireNumber(
			context,
			0,
			'Batch Interval (Ms)',
			batch.batchInterval ?? BATCHING_DEFAULTS.batchInterval,
			{ min: 0 },
			'a number of milliseconds, 0 or more',
		),
	};
}
