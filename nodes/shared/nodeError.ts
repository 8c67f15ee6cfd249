import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from './run';
import { secretsOf } from './run';
import { scrubError } from './transport';

/**
 * Any failure as the error n8n shows, with no secret of the run in it (both nodes). For an item
 * (the node's router), the error also names it: its context's itemIndex and an "Item index"
 * line in its description.
 */
export function asNodeError(
	context: ApiContext,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, itemIndex === undefined ? {} : { itemIndex });
	scrubError(nodeError, secretsOf(context));
	if (itemIndex === undefined) return nodeError;
	if (nodeError.context.itemIndex === undefined) nodeError.context.itemIndex = itemIndex;
	const itemNote = `Item index: ${itemIndex}`;
	if (!nodeError.description?.includes(itemNote)) {
		nodeError.description = nodeError.description ? `${nodeError.description}\n${itemNote}` : itemNote;
	}
	return nodeError;
}
