import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiKeyDigest, approvedApiBase, getUploadStatus, withoutField } from '../../../../../shared/api';
import { requireResumeUrl } from '../../../../../shared/parameters';
import { storedItemPolicy } from '../../../../../shared/requestPolicy';
import { waitClock } from '../../../../../shared/run';
import type { UploadProgress } from '../../../../../shared/uploadStatus';
import { readUploadStatus } from '../../../../../shared/uploadStatus';
import type { PreparedRun } from '../../../types';
import type { WaitMode } from '../parameters';
import { waitModeOf } from '../parameters';
import { callbackResults } from './results';
import type { WaitItem } from './state';
import { writeWaitState } from './state';
import { CALLBACK_PATH, CALLBACK_QUERY } from './webhooks';

/**
 * Upload with Wait for Completion "When the Service Calls Back", the execute() side: before the
 * first item, the resume URL is checked and the run's callback URL made; each item's upload sends
 * it (upload.operation.ts); after the last, whether every upload has already ended is asked (a
 * callback that came while the uploads were still being made was refused by n8n and may never
 * come again): then the results come out at once; else what the webhook needs is written into
 * the node's context and the execution is put to wait until the Wait Timeout. webhook.ts takes it
 * from there.
 */

/**
 * What Upload reads for the whole run before the first item, handed down by the router to every
 * item as its request policy is (no module state): each item's Wait Mode, read once, and the
 * callback run when the items wait for callbacks.
 */
export interface UploadRun {
	waitModes: WaitMode[];
	callback?: CallbackRun;
}

/** A run that waits for callbacks, while its items are uploaded. */
export interface CallbackRun {
	/** The callback URL of the run, without the item. */
	callbackBase: URL;
	secret: string;
	/** What each uploaded item needs after the wait, and its Wait Timeout, by item index. */
	items: Map<number, { item: WaitItem; timeoutMs: number }>;
}

/** The callback URL an item's upload sends. */
export function callbackUrlFor(run: CallbackRun, itemIndex: number): string {
	const url = new URL(run.callbackBase.href);
	url.searchParams.set(CALLBACK_QUERY.item, String(itemIndex));
	return url.href;
}

/**
 * A secret of this run of the node in this execution: the same for every repeat of the same
 * stored execution (the upload bodies, and so their Idempotency-Keys, stay the same), unknown to
 * whoever does not hold the API key, and different for every execution, node and run.
 */
async function runSecret(context: IExecuteFunctions, resumeUrl: URL): Promise<string> {
	const node = context.getNode();
	const proxy = context.getWorkflowDataProxy(0);
	const material = [
		'document-extraction-callback-wait',
		context.getInstanceId(),
		context.getWorkflow().id ?? '',
		context.getExecutionId() ?? '',
		resumeUrl.href,
		node.id || node.name,
		typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0,
	].join('\u0000');
	return await apiKeyDigest(context, material, 0);
}

/** Before the first item: each item's Wait Mode; does this run wait for callbacks, and can the service reach n8n? */
export async function prepareUploadRun(this: IExecuteFunctions): Promise<PreparedRun<UploadRun>> {
	const count = this.getInputData().length;
	const modes = Array.from({ length: count }, (_, itemIndex) => waitModeOf(this, itemIndex));
	const first = modes.indexOf('callback');
	if (first === -1) return { run: { waitModes: modes } };
	const other = modes.findIndex((mode) => mode !== 'callback');
	if (other !== -1) {
		throw new NodeOperationError(this.getNode(), `Item ${other} does not wait "When the Service Calls Back", as item ${first} does: nothing was uploaded`, {
			itemIndex: other,
			description:
				'Waiting for callbacks pauses the whole execution, so every item of the run must use it. Give Wait for Completion and Wait Mode the same value for all items.',
		});
	}
	if (this.getNode().type.endsWith('Tool')) {
		throw new NodeOperationError(this.getNode(), 'Wait Mode "When the Service Calls Back" cannot be used by an AI agent: nothing was uploaded', {
			description: 'An agent\'s tool call cannot pause the execution. Choose Wait Mode "Poll the Service", or turn off Wait for Completion.',
		});
	}
	const resumeUrl = requireResumeUrl(this, this.getWorkflowDataProxy(0).$execution?.resumeUrl, await approvedApiBase(this, 0));
	const secret = await runSecret(this, resumeUrl);
	const callbackBase = new URL(resumeUrl.href);
	callbackBase.pathname = `${callbackBase.pathname.endsWith('/') ? callbackBase.pathname.slice(0, -1) : callbackBase.pathname}/${CALLBACK_PATH}`;
	callbackBase.searchParams.set(CALLBACK_QUERY.secret, secret);
	return { run: { waitModes: modes, callback: { callbackBase, secret, items: new Map() } }, finish: finishCallbackRun };
}

/** The waiting item of an upload: as the upload answered, without its callback URL (which carries the run's secret). */
export function waitingItem(upload: IDataObject): IDataObject {
	return { ...withoutField(upload, 'callbackURL'), status: 'waiting' };
}

/**
 * Whether processing of every upload has already ended, asking for one upload at a time, the last
 * uploaded first, and stopping at the first that has not ended: its callback will come, and the
 * first callback a process takes looks at every upload then (webhook.ts). Only when all have
 * ended (their callbacks were refused while the uploads were being made, and may never come
 * again) does it ask for each, and those answers are the results.
 */
async function endedBeforeTheWait(context: IExecuteFunctions, items: WaitItem[]): Promise<{ ended: Map<number, UploadProgress>; all: boolean }> {
	const ended = new Map<number, UploadProgress>();
	for (let index = items.length - 1; index >= 0; index--) {
		const { uploadId, limits, expectZip } = items[index];
		if (!uploadId || !limits) continue;
		let progress: UploadProgress;
		try {
			progress = readUploadStatus(await getUploadStatus(context, uploadId, { policy: storedItemPolicy(context, limits, index) }), expectZip === true);
		} catch {
			// Not known now: the wait will tell.
			return { ended, all: false };
		}
		if (progress.state === 'processing') return { ended, all: false };
		ended.set(index, progress);
	}
	return { ended, all: true };
}

/** After the last item: the results at once when every upload has ended, else the execution waits. */
async function finishCallbackRun(this: IExecuteFunctions, outputs: INodeExecutionData[][], upload: UploadRun): Promise<INodeExecutionData[][]> {
	const run = upload.callback;
	if (!run) return [outputs.flat()];
	// An item without an upload failed before it (On Error: Continue): its error item stays its output.
	const items: WaitItem[] = outputs.map((output, index) => {
		const uploaded = run.items.get(index);
		return uploaded ? uploaded.item : { error: output[0]?.json ?? { error: `Item ${index} was not uploaded` } };
	});
	const timeoutMs = Math.max(0, ...[...run.items.values()].map((item) => item.timeoutMs));
	const { ended, all } = await endedBeforeTheWait(this, items);
	if (all) return [await callbackResults.call(this, items, ended, { timeoutMs })];
	for (const index of ended.keys()) items[index].doneAtPark = true;
	const deadline = waitClock.now() + timeoutMs;
	writeWaitState(this, { v: 1, secret: run.secret, count: items.length, deadline, timeoutMs }, items);
	await this.putExecutionToWait(new Date(deadline));
	return [outputs.flat()];
}
