import type { IDataObject, INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Fields of an error's context worth keeping in a continueOnFail item. */
const ERROR_CONTEXT_FIELDS = ['uploadId', 'partNumber', 'fileId', 'httpCode', 'requestId'];

/**
 * The item an error becomes with On Error: Continue, paired with its input item: the router's,
 * and Upload's when it resumes after waiting for callbacks (where no error can stop the node).
 */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	for (const field of ERROR_CONTEXT_FIELDS) {
		const value = error.context[field];
		if (value !== undefined && value !== null) json[field] = value as IDataObject[string];
	}
	return { json, pairedItem: { item: itemIndex } };
}
