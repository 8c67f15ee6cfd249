import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as directory from './directory';
import * as file from './file';
import * as fileType from './fileType';
import * as query from './query';
import * as schema from './schema';
import type { ResourceOperations } from './types';
import * as workflow from './workflow';
import * as workspace from './workspace';

/** Every resource's operations, by resource value. New resources are added here. */
const resources: Record<string, ResourceOperations> = {
	directory: directory.operations,
	file: file.operations,
	fileType: fileType.operations,
	query: query.operations,
	schema: schema.operations,
	workflow: workflow.operations,
	workspace: workspace.operations,
};

/** Fields of an error's context worth keeping in a continueOnFail item. */
const ERROR_CONTEXT_FIELDS = ['uploadId', 'fileId', 'httpCode', 'requestId'];

function asNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	if (nodeError.context.itemIndex === undefined) nodeError.context.itemIndex = itemIndex;
	const itemNote = `Item index: ${itemIndex}`;
	if (!nodeError.description?.includes(itemNote)) {
		nodeError.description = nodeError.description ? `${nodeError.description}\n${itemNote}` : itemNote;
	}
	return nodeError;
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	for (const field of ERROR_CONTEXT_FIELDS) {
		const value = error.context[field];
		if (value !== undefined && value !== null) json[field] = value as IDataObject[string];
	}
	return { json, pairedItem: { item: itemIndex } };
}

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

	const runItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			const output = await handler.execute.call(this, itemIndex);
			return this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (this.continueOnFail()) return [errorItem(nodeError, itemIndex)];
			throw nodeError;
		}
	};

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		returnData.push(...(await runItem(itemIndex)));
	}
	return [returnData];
}
