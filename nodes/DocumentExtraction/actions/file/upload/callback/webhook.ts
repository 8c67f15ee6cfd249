import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { getUploadStatus } from '../../../../../shared/api';
import type { Answerable } from '../../../../../shared/callbacks';
import { RETRY_LATER, answerCall, isIntermediate, readNotice } from '../../../../../shared/callbacks';
import { forEachConcurrently } from '../../../../../shared/concurrency';
import { CALLBACK_WAIT_LIMITS } from '../../../../../shared/limits';
import { defaultRequestLimits, storedItemPolicy } from '../../../../../shared/requestPolicy';
import { sameSecret } from '../../../../../shared/sameSecret';
import { waitClock, withRunScope } from '../../../../../shared/run';
import { readUploadStatus } from '../../../../../shared/uploadStatus';
import type { Verdict, WaitProgress } from './progress';
import { forgetAfterResume, progressOf, resumedHere } from './progress';
import { callbackResults } from './results';
import type { WaitHeader, WaitItem } from './state';
import { readWaitHeader, readWaitItem } from './state';
import { CALLBACK_QUERY } from './webhooks';

/**
 * Upload's webhook(): a callback of the service to a waiting execution (docs/dev/callback-wait.md).
 * A callback is a hint, never evidence: its body is read only for whether it reports an
 * intermediate step; whether an upload has finished is asked of the API with the credential, at
 * most once per upload and process while the callbacks agree with it. Every call is answered by
 * this function itself, 2xx or 4xx, never 5xx, and it never throws: n8n would end the waiting
 * execution in error and run the rest of the workflow with an empty item. The execution resumes
 * once, when every upload of the run is confirmed, with the items the polling mode outputs.
 *
 * Answers (the callback verifier's one set, nodes/shared/callbacks/answers.ts): 200 an
 * intermediate step (first, before anything else is read); 401 wrong secret; 400 no item or a
 * body that is not a JSON object; 404 not a waiting Upload; 200 already confirmed, confirmed,
 * resuming or already resumed; 503 with Retry-After, not now (the
 * API says the upload has not finished, could not be reached, or was asked for this upload
 * moments ago): the service tries again.
 */

type Reply = (status: number, body: IDataObject) => IWebhookResponseData;

export async function callbackWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const response = this.getResponseObject() as unknown as Answerable;
	const reply: Reply = (status, body) => {
		answerCall(response, status, body);
		return { noWebhookResponse: true };
	};
	try {
		return await withRunScope(this, async () => await handleCallback(this, reply));
	} catch {
		// Whatever went wrong, the execution keeps waiting and the service tries again later.
		return reply(RETRY_LATER, { error: 'The callback could not be handled just now; send it again later' });
	}
}

/** The item number of the callback URL: a whole number below `count`. */
function itemIndexOf(value: unknown, count: number): number | undefined {
	if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return undefined;
	const index = Number(value);
	return index < count ? index : undefined;
}

async function handleCallback(context: IWebhookFunctions, reply: Reply): Promise<IWebhookResponseData> {
	// An intermediate step changes nothing and asks nothing: answered before the wait's state is
	// read, because reading it is an n8n expression, which n8n 2.x evaluates in its expression
	// isolate (docs/dev/callback-wait.md#what-a-call-costs-n8n). It tells a caller no more than the
	// secret check below would (that this execution waits for callbacks); past the Wait Timeout
	// n8n resumes the execution itself.
	const read = readNotice(context.getBodyData());
	if (read.ok && isIntermediate(read.notice)) return reply(200, { status: 'noted', note: 'an intermediate step: nothing to check' });
	const header = readWaitHeader(context);
	if (!header) return reply(404, { error: 'This execution is not waiting for Document Extraction callbacks' });
	const query = context.getQueryData() as IDataObject;
	if (!sameSecret(query[CALLBACK_QUERY.secret], header.secret)) {
		return reply(401, { error: 'This callback URL does not belong to the wait of this execution' });
	}
	const index = itemIndexOf(query[CALLBACK_QUERY.item], header.count);
	if (index === undefined) return reply(400, { error: `The callback URL names no item of this wait (${header.count} items)` });
	if (!read.ok) return reply(400, { error: 'The callback body must be a JSON object' });

	const key = [context.getExecutionId() ?? '', context.getNode().name, header.secret].join('\u0000');
	if (resumedHere(key)) return reply(200, { status: 'already resumed' });
	if (waitClock.now() >= header.deadline) return await resume(context, header, key, reply, 'The Wait Timeout has passed: resuming with what has finished');

	const { progress, created } = progressOf(key);
	if (created) progress.firstLook = firstLook(context, header, progress);
	// A callback that starts or waits for the first look takes its item's answer from it: no second request.
	const joinedFirstLook = !progress.firstLookDone;
	await progress.firstLook;
	const item = progress.items?.[index] ?? {};
	if (!item.uploadId) return reply(200, { status: 'ignored', note: `item ${index} made no upload` });
	const looked = joinedFirstLook ? progress.firstVerdicts.get(index) : undefined;
	const verdict = progress.finished.has(index) ? 'finished' : (looked ?? (await checkForCallback(context, progress, index, item)));
	if (progress.resumed) return reply(200, { status: 'already resumed' });
	if (verdict === 'finished') {
		await tailRecheck(context, header, progress);
		if (progress.resumed) return reply(200, { status: 'already resumed' });
		if (progress.finished.size >= header.count) return await resume(context, header, key, reply, 'Every upload has finished: resuming');
		return reply(200, { status: 'confirmed', unfinishedUploads: header.count - progress.finished.size });
	}
	if (verdict === 'unfinished') {
		return reply(RETRY_LATER, { error: `The API says upload ${item.uploadId} has not finished processing; a callback is taken as a hint only` });
	}
	if (verdict === 'throttled') {
		return reply(RETRY_LATER, { error: `Upload ${item.uploadId} was checked with the API moments ago and had not finished; send the callback again later` });
	}
	return reply(RETRY_LATER, { error: `Upload ${item.uploadId} could not be checked with the API just now; send the callback again later` });
}

/** Every item's record, read once per process and execution. */
function itemsOf(context: IWebhookFunctions, header: WaitHeader, progress: WaitProgress): WaitItem[] {
	progress.items ??= Array.from({ length: header.count }, (_, index) => readWaitItem(context, index));
	return progress.items;
}

/** One status request for an item; records it as finished when processing has ended. */
async function askApi(context: IWebhookFunctions, progress: WaitProgress, index: number, item: WaitItem): Promise<Verdict> {
	const running = progress.checking.get(index);
	if (running) return await running;
	progress.askedAt.set(index, waitClock.now());
	const check = (async (): Promise<Verdict> => {
		try {
			const policy = storedItemPolicy(context, item.limits ?? defaultRequestLimits(), index, {
				requestTimeoutMs: CALLBACK_WAIT_LIMITS.verifyRequestTimeoutMs,
				maxWaitMs: CALLBACK_WAIT_LIMITS.verifyMaxRetryWaitMs,
			});
			const status = await getUploadStatus(context, item.uploadId ?? '', { policy });
			const upload = readUploadStatus(status, item.expectZip === true);
			if (upload.state === 'processing') {
				progress.unfinishedAt.set(index, waitClock.now());
				return 'unfinished';
			}
			progress.finished.set(index, upload);
			return 'finished';
		} catch {
			progress.unfinishedAt.set(index, waitClock.now());
			return 'unavailable';
		} finally {
			progress.checking.delete(index);
		}
	})();
	progress.checking.set(index, check);
	return await check;
}

/**
 * The check a final callback asks for, at most once per CALLBACK_WAIT_LIMITS.verifySpacingMs per
 * upload and process while the API says unfinished or cannot be asked (askApi spaces them): each
 * repeat of an unconfirmed final callback within it is answered 503 without a request.
 */
async function checkForCallback(context: IWebhookFunctions, progress: WaitProgress, index: number, item: WaitItem): Promise<Verdict | 'throttled'> {
	const last = progress.unfinishedAt.get(index);
	if (!progress.checking.has(index) && last !== undefined && waitClock.now() - last < CALLBACK_WAIT_LIMITS.verifySpacingMs) return 'throttled';
	return await askApi(context, progress, index, item);
}

/**
 * A process's first look at a waiting execution: every upload not known to have ended is asked
 * for once (items that failed before the wait, or had ended when it began, need no request).
 * Later callbacks ask only for their own upload.
 */
async function firstLook(context: IWebhookFunctions, header: WaitHeader, progress: WaitProgress): Promise<void> {
	const items = itemsOf(context, header, progress);
	try {
		await forEachConcurrently(items.length, CALLBACK_WAIT_LIMITS.statusConcurrency, async (index) => {
			const item = items[index];
			if (item.error !== undefined || !item.uploadId || item.doneAtPark) {
				progress.finished.set(index, undefined);
				return;
			}
			progress.firstVerdicts.set(index, await askApi(context, progress, index, item));
		});
	} finally {
		progress.firstLookDone = true;
	}
}

/**
 * When few uploads are left unconfirmed, each is asked for: their callbacks may have gone to
 * another n8n process (a webhook processor), which this one cannot hear from. Not an upload this
 * process asked for within CALLBACK_WAIT_LIMITS.tailRecheckSpacingMs, and not counted against
 * the callbacks' own checks (their spacing).
 */
async function tailRecheck(context: IWebhookFunctions, header: WaitHeader, progress: WaitProgress): Promise<void> {
	const items = itemsOf(context, header, progress);
	const now = waitClock.now();
	const left = items
		.map((_, index) => index)
		.filter((index) => !progress.finished.has(index));
	if (left.length === 0 || left.length > CALLBACK_WAIT_LIMITS.tailRecheckUploads) return;
	const due = left.filter((index) => now - (progress.askedAt.get(index) ?? -Infinity) >= CALLBACK_WAIT_LIMITS.tailRecheckSpacingMs);
	await Promise.all(due.map(async (index) => await askApi(context, progress, index, items[index])));
}

/**
 * Resumes the execution, once: the claim is taken before anything is awaited, the service is
 * answered at once (it waits 30 s at most; n8n 2.x would answer 500 to the loser of a race between
 * processes), then the results are read, each failure becoming its item's error item.
 */
async function resume(context: IWebhookFunctions, header: WaitHeader, key: string, reply: Reply, status: string): Promise<IWebhookResponseData> {
	const { progress } = progressOf(key);
	if (progress.resumed) return reply(200, { status: 'already resumed' });
	const items = itemsOf(context, header, progress);
	progress.resumed = true;
	reply(200, { status });
	try {
		const results = await callbackResults.call(context, items, progress.finished, { timeoutMs: header.timeoutMs });
		return { noWebhookResponse: true, workflowData: [results] };
	} finally {
		forgetAfterResume(key);
	}
}
