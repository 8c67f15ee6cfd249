import type { INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getUploadStatus, withoutSecrets } from '../../../../../shared/api';
import { forEachConcurrently } from '../../../../../shared/concurrency';
import { CALLBACK_WAIT_LIMITS } from '../../../../../shared/limits';
import { asNodeError } from '../../../../../shared/nodeError';
import { defaultRequestLimits, storedItemPolicy } from '../../../../../shared/requestPolicy';
import type { ApiContext } from '../../../../../shared/run';
import { apiKeysOf } from '../../../../../shared/run';
import type { UploadProgress } from '../../../../../shared/uploadStatus';
import { readUploadStatus } from '../../../../../shared/uploadStatus';
import { errorItem } from '../../../errorItem';
import { notFinishedInTime, processingFailed, uploadedButUnfinished } from '../wait';
import { uploadResults } from '../zipMembers';
import type { WaitItem } from './state';

/**
 * The node's output after a callback wait, the same items in the same order and pairing as Wait
 * Mode "Poll the Service" gives with On Error: Continue: per input item, an item per processed
 * file (a ZIP: per member) with its values, an item per failed member, or the item's error
 * (`error`, `uploadId`) when its processing failed or had not ended by the Wait Timeout. A
 * resumed node cannot fail (n8n runs the rest of the workflow with what webhook() returns), so a
 * failure is always the item's error item, whatever On Error says.
 */
export async function callbackResults(
	this: ApiContext,
	items: WaitItem[],
	/** The status the API answered for items known to have ended (read again for the others). */
	known: ReadonlyMap<number, UploadProgress | undefined>,
	wait: { timeoutMs: number },
): Promise<INodeExecutionData[]> {
	const outputs = new Array<INodeExecutionData[]>(items.length);
	await forEachConcurrently(items.length, CALLBACK_WAIT_LIMITS.statusConcurrency, async (index) => {
		outputs[index] = await itemResults(this, index, items[index], known.get(index), wait);
	});
	return withoutSecrets(outputs.flat(), apiKeysOf(this));
}

async function itemResults(
	context: ApiContext,
	index: number,
	item: WaitItem,
	known: UploadProgress | undefined,
	wait: { timeoutMs: number },
): Promise<INodeExecutionData[]> {
	if (item.error) return [{ json: item.error, pairedItem: { item: index } }];
	const { uploadId } = item;
	const fileName = item.fileName ?? 'the file';
	const policy = storedItemPolicy(context, item.limits ?? defaultRequestLimits(), index);
	try {
		if (!uploadId) {
			throw new NodeOperationError(context.getNode(), `The wait has no record of the upload of item ${index}`, { itemIndex: index });
		}
		const progress = known ?? readUploadStatus(await getUploadStatus(context, uploadId, { policy }), item.expectZip === true);
		if (progress.state === 'processing') {
			const { message, description } = notFinishedInTime(fileName, uploadId, wait.timeoutMs, progress.lastStep);
			throw uploadedButUnfinished(context, { uploadId, policy }, message, description);
		}
		if (progress.state === 'failed' && progress.failed.length === 0) {
			const { message, description } = processingFailed(fileName, uploadId, progress.errorReason);
			throw uploadedButUnfinished(context, { uploadId, policy }, message, description);
		}
		const produced = await uploadResults.call(context, progress, {
			uploadId,
			fileName,
			includeValues: item.includeValues !== false,
			simplify: item.simplify !== false,
			policy,
		});
		return produced.map((output) => ({ ...output, pairedItem: { item: index } }));
	} catch (error) {
		const nodeError = asNodeError(context, error, index);
		if (uploadId && nodeError.context.uploadId === undefined) nodeError.context.uploadId = uploadId;
		return [errorItem(nodeError, index)];
	}
}
