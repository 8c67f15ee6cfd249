/**
 * File > Upload with Wait for Completion "When the Service Calls Back", through n8n-core's engine:
 * the execution waits (dev/harness/waiting.ts stores it as n8n does and serves its resume URL on
 * 127.0.0.1), the emulator calls back over HTTP, with the callback faults of
 * dev/emulator/callback-faults.ts, and the execution resumes as n8n resumes it.
 */
import { WebhookContext } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { corruptPdf } from '../../dev/documents';
import type { WaitingWebhooks } from '../../dev/harness';
import { runNode, runWorkflow, startWaitingWebhooks } from '../../dev/harness';
import {
	CALLBACK_UPLOAD,
	NODE,
	POLLING_UPLOAD,
	binaryItem,
	comparable,
	emptyFileItem,
	mixedZipItem,
	documents,
	outputAfterWait,
	startCallbackRun,
	statusRequestsPerUpload,
	useWaitingWebhooks,
} from './callback-wait-support';
import { credentialsFor, requestsTo, useEmulator } from './support';
import { CALLBACK_LIMITS } from '../../nodes/shared/limits';

// A fresh emulator for every test: processing that one test left running does not reach the next.
const emulator = useEmulator({ processingDelayMs: 900, callbackRetryBaseMs: 100 }, 'test');
const waiting = useWaitingWebhooks();

/** Every answer webhook() gave: 2xx or 4xx, never 5xx, never without an answer, never a throw. */
function expectOnlyProperAnswers(server: WaitingWebhooks = waiting): void {
	const improper = server.calls.filter((call) => call.outcome === 'threw' || call.outcome === 'hung' || (call.outcome !== 'refused' && call.status >= 500 && call.status !== 503));
	expect(improper).toEqual([]);
}

/** The callback URL the node gave an upload (read from the emulator's record of it). */
function callbackUrlOf(uploadId: string): string {
	const url = emulator.state.uploads.get(uploadId)?.params.callbackURL;
	if (!url) throw new Error(`upload ${uploadId} has no callback URL`);
	return url;
}

async function post(url: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('File > Upload, Wait Mode "When the Service Calls Back"', () => {
	it("uploads every item, waits, and resumes once with the polling mode's items, order and pairing", async () => {
		const inputs = await documents(3);
		const polled = await runNode({ type: 'documentExtraction', parameters: POLLING_UPLOAD, credentials: credentialsFor(emulator), inputItems: inputs });
		emulator.requests.length = 0;

		const { parked, executionId } = await startCallbackRun(emulator, waiting, inputs);

		expect(parked.result.status).toBe('waiting');
		expect(parked.items.map((item) => item.json.status)).toEqual(['waiting', 'waiting', 'waiting']);
		expect(parked.items.every((item) => item.json.callbackURL === undefined)).toBe(true);
		const output = await outputAfterWait(waiting, executionId);
		expect(output.map(comparable)).toEqual(polled.items.map(comparable));
		expect(waiting.resumesOf(executionId)).toBe(1);
		expectOnlyProperAnswers();
		// Each upload asked for at most three times (before the wait, a first look, its own callback).
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/upload$/)).toHaveLength(3);
		expect(Math.max(...statusRequestsPerUpload(emulator).values())).toBeLessThanOrEqual(3);
	});

	it('a ZIP gives an item per member, as polling does; n8n numbers the items of a resumed node itself (pairing by position)', async () => {
		const inputs = [...(await documents(1)), await mixedZipItem(), ...(await documents(1))];
		const polled = await runNode({ type: 'documentExtraction', parameters: POLLING_UPLOAD, credentials: credentialsFor(emulator), inputItems: inputs });

		const { executionId } = await startCallbackRun(emulator, waiting, inputs);
		const output = await outputAfterWait(waiting, executionId);

		const jsonOf = (items: INodeExecutionData[]) => items.map((item) => comparable(item).json);
		expect(jsonOf(output)).toEqual(jsonOf(polled.items));
		expect(polled.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 1, 1, 1, 1, 2]);
		// n8n-core (1.x and 2.x) gives the items a resumed node outputs pairedItem = their position
		// (WorkflowExecute's paired-item lineage of the node's input): what docs/operations-file.md says.
		expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4, 5, 6]);
	});

	it('outputs at once, without waiting, when every upload has finished before the execution would wait', async () => {
		emulator.setProcessingDelay(0);
		// The status is answered once processing (a few milliseconds even without a delay) has ended.
		emulator.faults.delayNext({ method: 'GET', path: /\/uploads\//, delayMs: 300, count: 2 });
		const { parked } = await startCallbackRun(emulator, waiting, await documents(2));

		expect(parked.result.status).toBe('success');
		expect(parked.items.map((item) => [item.json.fileName, item.json.status, item.pairedItem])).toEqual([
			['doc-0-invoice-INV-2024-0042.txt', 'processed', { item: 0 }],
			['doc-1-receipt-R-7781.txt', 'processed', { item: 1 }],
		]);
	});

	it('refuses a resume URL the service cannot reach, naming WEBHOOK_URL, and uploads nothing', async () => {
		const publicHttp = { webhookWaitingBaseUrl: 'http://n8n.example.com/webhook-waiting', started: () => undefined, ended: () => undefined };
		const { error } = await runNode({ type: 'documentExtraction', parameters: CALLBACK_UPLOAD, credentials: credentialsFor(emulator), inputItems: await documents(2), observer: publicHttp });

		expect(error?.message).toBe(
			'The service cannot call this n8n back: n8n\'s public webhook URL is "http://n8n.example.com", and the service calls back https:// URLs only. Nothing was uploaded.',
		);
		expect(error?.description).toContain('Set WEBHOOK_URL (N8N_WEBHOOK_URL on n8n 2)');
		expect(requestsTo(emulator, 'api')).toEqual([]);

		// A loopback resume URL is only for a loopback API (the emulator): the service could not reach it.
		const local = { webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting', started: () => undefined, ended: () => undefined };
		const remoteApi = { documentExtractionApi: { apiKey: emulator.keys.readWrite, instance: 'default' } };
		const refused = await runNode({ type: 'documentExtraction', parameters: CALLBACK_UPLOAD, credentials: remoteApi, inputItems: await documents(1), observer: local });
		expect(refused.error?.message).toContain('an address on this machine that the service cannot reach');
	});

	it('takes a forged "completed" as a hint: the API says not yet (503, call again), and the execution resumes only when it has finished', async () => {
		emulator.callbackFaults.add({ kind: 'forge', count: 'all' });
		const { executionId } = await startCallbackRun(emulator, waiting, await documents(2));

		const output = await outputAfterWait(waiting, executionId);

		expect(output.map((item) => item.json.status)).toEqual(['processed', 'processed']);
		const forgedAnswers = waiting.calls.filter((call) => call.status === 503 && String((call.body as { error?: string }).error).includes('has not finished processing'));
		expect(forgedAnswers.length).toBeGreaterThan(0);
		expect(waiting.resumesOf(executionId)).toBe(1);
		expectOnlyProperAnswers();
	});

	it('many documents whose callbacks come out of order, duplicated and replayed: one resume, each item once, at most three status requests per document', async () => {
		emulator.callbackFaults.add({ kind: 'reorder', windowMs: 400, count: 'all' });
		emulator.callbackFaults.add({ kind: 'duplicate', copies: 2, concurrent: true, count: 'all' });
		emulator.callbackFaults.add({ kind: 'replay', afterMs: 300, count: 'all' });
		const inputs = await documents(24);
		const { executionId } = await startCallbackRun(emulator, waiting, inputs);

		const output = await outputAfterWait(waiting, executionId);

		expect(output.map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
		expect(output.map((item) => item.json.status)).toEqual(inputs.map(() => 'processed'));
		expect(waiting.resumesOf(executionId)).toBe(1);
		const perUpload = [...statusRequestsPerUpload(emulator).values()];
		expect(perUpload).toHaveLength(24);
		expect(Math.max(...perUpload)).toBeLessThanOrEqual(3);
		expectOnlyProperAnswers();
	});

	it("a callback refused while the uploads were still being made, never sent again, is caught by the first callback's look", async () => {
		emulator.callbackFaults.add({ kind: 'before-parked' }); // the first upload: processed at once, its callbacks not retried
		const { parked, executionId } = await startCallbackRun(emulator, waiting, await documents(3));
		expect(parked.result.status).toBe('waiting');

		const output = await outputAfterWait(waiting, executionId);

		expect(output.map((item) => item.json.status)).toEqual(['processed', 'processed', 'processed']);
		const first = [...emulator.state.uploads.values()].find((upload) => upload.params.fileName.startsWith('doc-0'))!;
		const firstDeliveries = emulator.state.callbacks.filter((delivery) => delivery.payload.uploadId === first.uploadId);
		expect(firstDeliveries.every((delivery) => delivery.statuses.join() === '409')).toBe(true);
	});

	it('when every callback is refused before the wait and never sent again, the uploads are found finished before waiting', async () => {
		emulator.callbackFaults.add({ kind: 'before-parked', count: 'all' });
		emulator.faults.delayNext({ method: 'GET', path: /\/uploads\//, delayMs: 300, count: 3 });
		const { parked } = await startCallbackRun(emulator, waiting, await documents(3));

		expect(parked.result.status).toBe('success');
		expect(parked.items.map((item) => item.json.status)).toEqual(['processed', 'processed', 'processed']);
	});
});

describe('Wait Timeout and missing callbacks', () => {
	it('no callback at all: at the Wait Timeout n8n passes the input items through, and their upload IDs stay in the node\'s context for Get Upload Status', async () => {
		emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
		const inputs = await documents(2);
		const workflow = {
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
				{ name: 'Upload and wait', type: 'documentExtraction', parameters: { ...CALLBACK_UPLOAD, options: { waitTimeout: 30 } } },
				{ name: 'Pick up', type: 'documentExtraction', parameters: { resource: 'file', operation: 'getUploadStatus', uploadId: "={{ $json.uploadId ?? $('Upload and wait').context.uploadIds[$itemIndex] }}" } },
			],
			connections: {
				Start: { main: [[{ node: 'Upload and wait', type: 'main' as const, index: 0 }]] },
				'Upload and wait': { main: [[{ node: 'Pick up', type: 'main' as const, index: 0 }]] },
			},
		};
		const parked = await runWorkflow(workflow, { credentials: credentialsFor(emulator), inputItems: inputs, observer: waiting, mode: 'webhook' });
		expect(parked.status).toBe('waiting');
		await emulator.idle();

		const uploadIds = waiting.storedData(parked.executionId)?.executionData?.contextData['node:Upload and wait']?.uploadIds as string[];
		expect(uploadIds).toEqual([...emulator.state.uploads.values()].map((upload) => upload.uploadId));

		const ended = await waiting.resumeAtWaitTill(parked.executionId);

		expect(ended.status).toBe('success');
		expect(ended.outputOf('Upload and wait').map((item) => item.json)).toEqual([{ n: 0 }, { n: 1 }]);
		expect(ended.outputOf('Pick up').map((item) => [item.json.uploadId, item.json.state])).toEqual(uploadIds.map((id) => [id, 'completed']));
	});

	it('a callback after the Wait Timeout resumes item by item: the finished document, and an error item naming the unfinished upload', async () => {
		emulator.setProcessingDelay(120_000);
		emulator.callbackFaults.add({ kind: 'before-parked' }); // the first document is processed at once …
		emulator.callbackFaults.add({ kind: 'delay', delayMs: 2500 }); // … and heard of only after the 1-second Wait Timeout
		const { parked, executionId } = await startCallbackRun(emulator, waiting, await documents(2), { options: { waitTimeout: 1 } });
		expect(parked.result.status).toBe('waiting');

		const output = await outputAfterWait(waiting, executionId, 30_000);

		const second = [...emulator.state.uploads.values()].find((upload) => upload.params.fileName.startsWith('doc-1'))!;
		expect(output.map((item) => [item.json.status ?? null, item.pairedItem])).toEqual([
			['processed', { item: 0 }],
			[null, { item: 1 }],
		]);
		expect(output[1].json).toEqual({
			error: expect.stringMatching(/^Processing of "doc-1-receipt-R-7781\.txt" did not finish within 1 seconds \(last step: \w+\)\. The file was uploaded: continue with the Get Upload Status operation and upload ID /),
			uploadId: second.uploadId,
		});
		expect(String(output[1].json.error).endsWith(`${second.uploadId}.`)).toBe(true);
	});
});

describe('what a callback cannot do', () => {
	async function parkedRun(server: WaitingWebhooks = waiting) {
		emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
		emulator.setProcessingDelay(60_000);
		const run = await startCallbackRun(emulator, server, await documents(2));
		expect(run.parked.result.status).toBe('waiting');
		return { ...run, uploadIds: run.parked.items.map((item) => String(item.json.uploadId)) };
	}

	it('a wrong secret, an unknown item or a body that is not JSON is refused without an API request; an intermediate step costs nothing and reads nothing of the wait', async () => {
		const { uploadIds, executionId } = await parkedRun();
		const url = new URL(callbackUrlOf(uploadIds[0]));
		emulator.requests.length = 0;

		const wrongSecret = new URL(url);
		wrongSecret.searchParams.set('dexToken', '0'.repeat(64));
		expect(await post(wrongSecret.href, { status: 'completed', step: 'processing_finished', uploadId: uploadIds[0] })).toMatchObject({ status: 401 });
		const noItem = new URL(url);
		noItem.searchParams.set('dexItem', '2');
		expect(await post(noItem.href, { status: 'completed' })).toMatchObject({ status: 400 });
		expect(await post(url.href, 'status=completed', 'text/plain')).toMatchObject({ status: 400 });
		// Text that is not JSON under a JSON content type, with a wrong secret: n8n answers 422 before the node runs (npm run fuzz, seed 20261127).
		expect(await post(wrongSecret.href, 'not json', 'application/json')).toMatchObject({ status: 422 });
		// An intermediate step is answered before the wait's state is read: no n8n expression (n8n 2.x
		// evaluates them in its expression isolate, the bulk of what a call costs there), with or
		// without the right secret. Without the reorder in webhook.ts this spy saw one evaluation.
		const evaluations = jest.spyOn(WebhookContext.prototype, 'evaluateExpression');
		try {
			expect(await post(url.href, { status: 'waiting', step: 'processing_started', uploadId: uploadIds[0] })).toMatchObject({ status: 200, body: { status: 'noted' } });
			expect(await post(wrongSecret.href, { status: 'waiting', step: 'fraud_detection', uploadId: uploadIds[0] })).toMatchObject({ status: 200, body: { status: 'noted' } });
			expect(evaluations).not.toHaveBeenCalled();
			expect(await post(wrongSecret.href, { status: 'completed', step: 'processing_finished', uploadId: uploadIds[0] })).toMatchObject({ status: 401 });
			expect(evaluations).toHaveBeenCalled();
		} finally {
			evaluations.mockRestore();
		}
		expect(requestsTo(emulator, 'api')).toEqual([]);

		// A final callback for an upload still processing: one request, then 503; again at once: 503, no request.
		expect(await post(url.href, { status: 'completed', step: 'processing_finished', uploadId: uploadIds[0] })).toMatchObject({ status: 503 });
		const asked = requestsTo(emulator, 'api').length;
		const again = await fetch(url.href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'completed' }) });
		expect(again.status).toBe(503);
		expect(again.headers.get('retry-after')).toBe(String(CALLBACK_LIMITS.retryAfterSeconds));
		expect(requestsTo(emulator, 'api').length).toBe(asked);
		expect(waiting.statusOf(executionId)).toBe('waiting');
		expectOnlyProperAnswers();
	});

	it('when the API cannot be reached the callback is answered 503 (call again) and the execution keeps waiting', async () => {
		const { uploadIds, executionId } = await parkedRun();
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 100 });

		const answer = await post(callbackUrlOf(uploadIds[1]), { status: 'completed', step: 'processing_finished' });

		expect(answer).toMatchObject({ status: 503, body: { error: expect.stringContaining('could not be checked with the API just now') } });
		expect(waiting.statusOf(executionId)).toBe('waiting');
		expectOnlyProperAnswers();
	});

	it('on n8n 1.x (no resume token, no guard against two resumes) the secret refuses a stranger, and concurrent final callbacks resume once', async () => {
		const n8n1 = await startWaitingWebhooks({ behaves: 'n8n1' });
		try {
			emulator.setProcessingDelay(1500);
			emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
			const { parked, executionId } = await startCallbackRun(emulator, n8n1, await documents(2));
			expect(parked.result.status).toBe('waiting');
			const urls = parked.items.map((item) => callbackUrlOf(String(item.json.uploadId)));
			expect(new URL(urls[0]).searchParams.get('signature')).toBeNull();
			const stranger = new URL(urls[0]);
			stranger.searchParams.delete('dexToken');
			expect((await post(stranger.href, { status: 'completed' })).status).toBe(401);

			await emulator.idle();
			// Processing ended for both; ten copies of each final callback at once.
			const answers = await Promise.all(urls.flatMap((url) => Array.from({ length: 10 }, async () => await post(url, { status: 'completed', step: 'processing_finished' }))));

			expect(answers.every((answer) => answer.status === 200 || answer.status === 409 || answer.status === 503)).toBe(true);
			await n8n1.whenEnded(executionId);
			expect(n8n1.resumesOf(executionId)).toBe(1);
			expectOnlyProperAnswers(n8n1);
		} finally {
			await n8n1.close();
		}
	});
});

describe('items that fail', () => {
	it('an item that fails before it is uploaded keeps its error item in its place; a document whose processing fails becomes its error item', async () => {
		const inputs: INodeExecutionData[] = [...(await documents(1)), await emptyFileItem(), await binaryItem('broken.pdf', corruptPdf(), 'application/pdf')];
		const polled = await runNode({ type: 'documentExtraction', parameters: POLLING_UPLOAD, credentials: credentialsFor(emulator), inputItems: inputs, continueOnFail: true });

		const { executionId } = await startCallbackRun(emulator, waiting, inputs, {}, { continueOnFail: true });
		const output = await outputAfterWait(waiting, executionId);

		expect(output.map(comparable)).toEqual(polled.items.map(comparable));
		expect(output.map((item) => Object.keys(item.json).includes('error'))).toEqual([false, true, true]);
		expect(String(output[2].json.error)).toMatch(/^Processing of "broken\.pdf" failed: /);
	});

	it('refuses, before any upload, items that do not all wait for callbacks, and a Callback URL of the user', async () => {
		const mixed = await runNode({
			type: 'documentExtraction',
			parameters: { ...CALLBACK_UPLOAD, waitMode: "={{ $json.n === 1 ? 'poll' : 'callback' }}" },
			credentials: credentialsFor(emulator),
			inputItems: await documents(2),
			observer: waiting,
		});
		expect(mixed.error?.message).toBe('Item 1 does not wait "When the Service Calls Back", as item 0 does: nothing was uploaded');

		const own = await runNode({
			type: 'documentExtraction',
			parameters: { ...CALLBACK_UPLOAD, options: { callbackURL: 'https://hooks.example.com/x' } },
			credentials: credentialsFor(emulator),
			inputItems: await documents(1),
			observer: waiting,
		});
		expect(own.error?.message).toMatch(/^Invalid Callback URL in item 0: expected no Callback URL/);
		expect(requestsTo(emulator, 'api', 'POST')).toEqual([]);
	});
});

void NODE;
