/**
 * Upload's Wait Mode "When the Service Calls Back" in queue mode (n8n main + workers, PostgreSQL,
 * Redis; every process with main's address as its public webhook URL, as the queue stack sets it).
 * An execution's uploads run on a worker, its callbacks reach main, its resumed run goes to a worker
 * again; while it waits it holds no worker slot.
 *
 * The smoke (in `npm run test:queue`, CI): one worker with one slot; a second execution uploads
 * while the first waits. N8N_E2E_VERSION picks the n8n (`npm run test:callback` runs 2.41.1 and
 * 1.123.81). With CALLBACK_WAIT_FULL=1 (`npm run test:callback`): the worker that ran
 * the uploads killed while the execution waits, main restarted while it waits, and "save
 * successful executions: none".
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	CALLBACK_UPLOAD_NODE,
	PICK_UP_NODE,
	callbackUploadWorkflow,
	callbackUrlsOfExecution,
	executionFromWebhook,
	untilWaiting,
	writeCallbackDocuments,
} from '../../dev/n8n/callback-workflows';
import { executionOutput, waitForExecution } from '../../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { e2eN8nVersion, e2eRuntime, versionEnv, waitFor } from '../e2e/helpers';

const FULL = process.env.CALLBACK_WAIT_FULL === '1';
const fullTest = FULL ? test : test.skip;

const THREE = { id: 'dexQueueCallbk01', path: 'dex-queue-callback', webhookId: '2d8c3a5f-8b1d-4b68-8b7f-22c1d1b2f001' };
const NONE = { id: 'dexQueueCallbk02', path: 'dex-queue-callback-none', webhookId: '2d8c3a5f-8b1d-4b68-8b7f-22c1d1b2f002' };

describe(`queue mode, n8n ${e2eN8nVersion()}: Upload waits for the callbacks without holding a worker`, () => {
	let stack: QueueStack;
	let rootDir: string;

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-callback-'));
		const documents = path.join(rootDir, 'callback-documents');
		const glob = writeCallbackDocuments(documents, 3);
		const runtime = await e2eRuntime();
		stack = await startQueueStack({
			rootDir,
			runtime,
			env: versionEnv(runtime),
			build: false,
			workerConcurrency: 1,
			extraReadableDirs: [documents],
			emulator: { processingDelayMs: 15_000 },
			workflows: () => [
				callbackUploadWorkflow({ ...THREE, webhookPath: THREE.path, name: 'queue e2e: three documents wait for their callbacks', documents: { glob } }),
				callbackUploadWorkflow({ ...NONE, webhookPath: NONE.path, name: 'queue e2e: save successful executions: none', documents: { glob }, after: 'report', settings: { saveDataSuccessExecution: 'none' } }),
			],
			publish: [THREE.id, NONE.id],
			log: (line) => process.stderr.write(`[queue callback] ${line}\n`),
		});
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	beforeEach(() => {
		stack.emulator.callbackFaults.clear();
		stack.emulator.setProcessingDelay(15_000);
	});

	const startedBy = (executionId: string) => (Object.entries(stack.workerLogs()).flatMap(([name, text]) => (text.match(new RegExp(`Worker started execution ${executionId} \\(job`, 'g')) ?? []).map(() => name)));
	const uploadTimes = (executionId: string) =>
		[...stack.emulator.state.uploads.values()].filter((upload) => upload.params.callbackURL?.includes(`/webhook-waiting/${executionId}/`)).map((upload) => upload.createdAtMs);

	test('one worker with one slot: a second execution uploads while the first waits; each resumes once, on a worker, with every document', async () => {
		await stack.workers[1].instance?.stop();
		stack.workers[1].instance = undefined;
		try {
			const first = await executionFromWebhook(stack.main, THREE.id, THREE.path);
			await untilWaiting(stack.main, first);
			expect(callbackUrlsOfExecution(stack.emulator, first).every((url) => url.startsWith(stack.main.url))).toBe(true);
			const second = await executionFromWebhook(stack.main, THREE.id, THREE.path, new Set([first]));
			await untilWaiting(stack.main, second);
			const secondUploadedAt = uploadTimes(second);
			expect(secondUploadedAt).toHaveLength(3);

			const firstEnded = await waitForExecution(stack.main, first, 180_000);
			expect(Math.max(...secondUploadedAt)).toBeLessThan(Date.parse(String(firstEnded.stoppedAt)));
			for (const executionId of [first, second]) {
				const execution = await waitForExecution(stack.main, executionId, 180_000);
				expect(execution.status).toBe('success');
				expect(executionOutput(execution, CALLBACK_UPLOAD_NODE).map((item) => item.status)).toEqual(['processed', 'processed', 'processed']);
				expect(executionOutput(execution, PICK_UP_NODE)).toHaveLength(3);
				// Two jobs on the worker: the uploads, and the run after the callbacks.
				expect(await waitFor('both jobs in the worker log', () => (startedBy(executionId).length >= 2 ? startedBy(executionId) : undefined), 30_000)).toEqual(['worker-1', 'worker-1']);
			}
		} finally {
			await stack.startWorker(1);
		}
	});

	fullTest('the worker that uploaded is killed while the execution waits: the other worker runs it on, once', async () => {
		const executionId = await executionFromWebhook(stack.main, THREE.id, THREE.path);
		await untilWaiting(stack.main, executionId);
		const uploader = await waitFor('the worker that uploaded', () => startedBy(executionId)[0], 30_000);
		const index = stack.workers.findIndex((worker) => worker.name === uploader);
		await stack.killWorker(index);
		try {
			const execution = await waitForExecution(stack.main, executionId, 180_000);

			expect(execution.status).toBe('success');
			expect(executionOutput(execution, CALLBACK_UPLOAD_NODE).map((item) => item.status)).toEqual(['processed', 'processed', 'processed']);
			expect(execution.data?.resultData.runData[PICK_UP_NODE]).toHaveLength(1);
			expect(startedBy(executionId)).toEqual([uploader, stack.workers.find((worker) => worker.name !== uploader)!.name]);
		} finally {
			await stack.startWorker(index);
		}
	});

	fullTest('main restarted while the execution waits: the callbacks after the restart resume it, once', async () => {
		stack.emulator.setProcessingDelay(25_000);
		const executionId = await executionFromWebhook(stack.main, THREE.id, THREE.path);
		await untilWaiting(stack.main, executionId);

		await stack.restartMain();
		const execution = await waitForExecution(stack.main, executionId, 240_000);

		expect(execution.status).toBe('success');
		expect(executionOutput(execution, CALLBACK_UPLOAD_NODE).map((item) => item.status)).toEqual(['processed', 'processed', 'processed']);
		expect(execution.data?.resultData.runData[PICK_UP_NODE]).toHaveLength(1);
	});

	fullTest('"save successful executions: none": the waiting execution is kept, resumes on a worker, reports each file once, then is deleted', async () => {
		stack.emulator.setProcessingDelay(5_000);
		const executionId = await executionFromWebhook(stack.main, NONE.id, NONE.path);
		await untilWaiting(stack.main, executionId);
		const fileIds = () => [...stack.emulator.state.uploads.values()].filter((upload) => upload.params.callbackURL?.includes(`/webhook-waiting/${executionId}/`)).flatMap((upload) => upload.fileIds);

		await waitFor('the three files reported', () => {
			const reported = fileIds().filter((fileId) => stack.emulator.state.files.get(fileId)?.exportInfo?.integrationExportStatus === 'completed');
			return reported.length === 3 ? reported : undefined;
		}, 120_000);
		await waitFor('the execution to be deleted', async () => {
			const response = await stack.main.request(`/api/v1/executions/${executionId}`, { headers: { 'X-N8N-API-KEY': stack.main.apiKey } });
			return response.status === 404 ? true : undefined;
		}, 60_000);
		const reports = stack.emulator.requests.filter((entry) => entry.method === 'PATCH' && fileIds().some((fileId) => entry.path.endsWith(`/files/${fileId}`)));
		expect(reports).toHaveLength(3);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.main.outboundAttempts()).toEqual([]);
		for (const worker of stack.workers) expect(worker.instance?.outboundAttempts() ?? []).toEqual([]);
	});
});
