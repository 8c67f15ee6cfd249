/**
 * Upload's Wait Mode "When the Service Calls Back" in the real n8n application (regular mode), for
 * the n8n that N8N_E2E_VERSION picks: test/e2e/callback-wait.test.ts (2.41.1) and
 * test/e2e-n8n1/callback-wait.test.ts (1.123.81). Production executions, started by a Webhook,
 * wait for the emulator's callbacks; N8N_CONCURRENCY_PRODUCTION_LIMIT=1, so a second execution
 * can only run while the first one waits if waiting holds nothing.
 *
 * The smoke (run by `npm run test:e2e`, `npm run test:e2e:n8n1`, CI): many documents in two
 * executions at once, with forged, duplicated and reordered callbacks; whether n8n checks its own
 * resume token for this node (measured and asserted per version). The heavy cases run with
 * CALLBACK_WAIT_FULL=1 (`npm run test:callback`): the Wait Timeout without any callback and n8n's
 * wait tracker (measured), n8n restarted while an execution waits, "save successful executions:
 * none".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';

import { startEmulator, type Emulator } from '../../dev/emulator';
import {
	CALLBACK_UPLOAD_NODE,
	PICK_UP_NODE,
	callbackUploadWorkflow,
	callbackUrlsOfExecution,
	executionFromUploads,
	executionRecord,
	untilWaiting,
	writeCallbackDocuments,
} from '../../dev/n8n/callback-workflows';
import { n8nCli } from '../../dev/n8n/n8n-cli';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { executionOutput, importCredentialsAndWorkflows, prepareUserFolder, waitForExecution, type PreparedFolder } from '../../dev/n8n/n8n-stack';
import { e2eN8nVersion, e2eRuntime, versionEnv, waitFor } from './helpers';

const FULL = process.env.CALLBACK_WAIT_FULL === '1';
const fullTest = FULL ? test : test.skip;

const SMOKE = { id: 'dexCallbackSmoke', path: 'dex-callback-smoke', webhookId: '1c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e001' };
const TIMEOUT = { id: 'dexCallbackTmout', path: 'dex-callback-timeout', webhookId: '1c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e002' };
const NONE = { id: 'dexCallbackNone1', path: 'dex-callback-none', webhookId: '1c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e003' };
const MANY = { id: 'dexCallbackMany1', path: 'dex-callback-many', webhookId: '1c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e004' };

/** n8n's output with a time on each of its lines, to measure the wait tracker's ticks. */
function trackerClock(ticks: number[]): Writable {
	let pending = '';
	return new Writable({
		write(chunk: Buffer, _encoding, callback) {
			pending += chunk.toString();
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) if (line.includes('Querying database for waiting executions')) ticks.push(Date.now());
			callback();
		},
	});
}

export function describeCallbackWaitInRealN8n(): void {
	describe(`Upload waiting for the service's callbacks in the real n8n ${e2eN8nVersion()}`, () => {
		let prepared: PreparedFolder;
		let emulator: Emulator;
		let n8n: N8nInstance;
		let env: Record<string, string>;
		const trackerTicks: number[] = [];
		const n8n1 = () => prepared.runtime.n8nVersion.startsWith('1.');

		const start = async (port?: number) =>
			await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env, port, echo: trackerClock(trackerTicks) });

		beforeAll(async () => {
			const runtime = await e2eRuntime();
			prepared = await prepareUserFolder({ build: false, runtime });
			env = { ...prepared.env, ...versionEnv(runtime), N8N_LOG_LEVEL: 'debug', N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' };
			const smokeGlob = writeCallbackDocuments(path.join(prepared.documentsDir, 'callback-smoke'), 5);
			const manyGlob = writeCallbackDocuments(path.join(prepared.documentsDir, 'callback-many'), 20);
			const oneGlob = writeCallbackDocuments(path.join(prepared.documentsDir, 'callback-one'), 2);
			emulator = await startEmulator({ processingDelayMs: 4000 });
			const workflows = [
				callbackUploadWorkflow({ ...SMOKE, webhookPath: SMOKE.path, name: 'e2e: five documents wait for their callbacks', documents: { glob: smokeGlob } }),
				callbackUploadWorkflow({ ...MANY, webhookPath: MANY.path, name: 'e2e: twenty documents, long processing', documents: { glob: manyGlob } }),
				callbackUploadWorkflow({ ...TIMEOUT, webhookPath: TIMEOUT.path, name: 'e2e: no callback, a Wait Timeout of 5 s', documents: { glob: oneGlob }, waitTimeout: 5 }),
				callbackUploadWorkflow({ ...NONE, webhookPath: NONE.path, name: 'e2e: save successful executions: none', documents: { glob: oneGlob }, after: 'report', settings: { saveDataSuccessExecution: 'none' } }),
			];
			const cli = n8nCli({ userFolder: prepared.userFolder, env, runtime });
			await importCredentialsAndWorkflows(cli, emulator, workflows);
			for (const workflow of workflows) await cli.publishWorkflow(workflow.id!);
			n8n = await start();
		});

		afterAll(async () => {
			await n8n?.stop();
			await emulator?.close();
			if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
		});

		beforeEach(() => {
			emulator.callbackFaults.clear();
			emulator.faults.clear();
			emulator.setProcessingDelay(4000);
		});

		const startExecution = async (webhookPath: string) => await executionFromUploads(n8n, emulator, webhookPath);
		const waiting = async (executionId: string) => await untilWaiting(n8n, executionId);
		const callbackUrlsOf = (executionId: string) => callbackUrlsOfExecution(emulator, executionId);
		/**
		 * Callbacks whose last answer was a 5xx: none. The node itself never answers 5xx (the engine
		 * tests check every answer); n8n 2.41 may answer one itself, before the node runs, to a call
		 * that races another call resuming the same execution (`preserveInputOverride` reading a run it
		 * has just removed: "Cannot read properties of undefined (reading 'inputOverride')"), and the
		 * service then sends it again, as it does after any 5xx: those retries (backoff 1 s, 2 s, 4 s …)
		 * are waited for, up to 60 s, before judging how each callback ended.
		 */
		const endedInServerErrors = async () => {
			const failed = () => emulator.state.callbacks.filter((delivery) => (delivery.lastStatus ?? 0) >= 500);
			await waitFor('the callbacks n8n answered 5xx to be sent again', () => (failed().length === 0 ? true : undefined), 60_000, 1000).catch(() => undefined);
			const raced = emulator.state.callbacks.filter((delivery) => delivery.statuses.some((status) => status >= 500)).length;
			if (raced) process.stderr.write(`[callback e2e] n8n ${prepared.runtime.n8nVersion}: ${raced} callback(s) got a 5xx from n8n before the node ran, then a 2xx/4xx when sent again\n`);
			return failed();
		};

		test('five documents in each of two executions at once: both wait, holding nothing (production concurrency 1), and resume once through forged, duplicated and reordered callbacks; n8n checks its resume token on 2.x only', async () => {
			emulator.callbackFaults.add({ kind: 'forge', count: 'all' });
			emulator.callbackFaults.add({ kind: 'duplicate', copies: 2, concurrent: true, count: 'all' });
			emulator.callbackFaults.add({ kind: 'reorder', windowMs: 300, count: 'all' });
			emulator.setProcessingDelay(15_000);
			const first = await startExecution(SMOKE.path);
			await waiting(first);

			// The resume URL's token, measured: n8n 2.41 refuses a call without it before the node sees it; n8n 1.x has none.
			const [url] = callbackUrlsOf(first);
			const withoutToken = new URL(url);
			withoutToken.searchParams.delete('signature');
			const intermediate = JSON.stringify({ status: 'waiting', step: 'processing_started' });
			const noToken = await fetch(withoutToken, { method: 'POST', headers: { 'content-type': 'application/json' }, body: intermediate });
			const noTokenBody = await noToken.text();
			const wrongSecret = new URL(url);
			wrongSecret.searchParams.set('dexToken', 'f'.repeat(64));
			// A stranger's final step is refused by the node's secret; an intermediate step is answered
			// "noted" before anything is read (it changes nothing: docs/dev/callback-wait.md).
			const final = JSON.stringify({ status: 'completed', step: 'processing_finished' });
			const stranger = await fetch(wrongSecret, { method: 'POST', headers: { 'content-type': 'application/json' }, body: final });
			const strangersStep = await fetch(wrongSecret, { method: 'POST', headers: { 'content-type': 'application/json' }, body: intermediate });
			expect({ status: strangersStep.status, body: (await strangersStep.json()) as unknown }).toMatchObject({ status: 200, body: { status: 'noted' } });
			process.stderr.write(`[callback e2e] n8n ${prepared.runtime.n8nVersion}: resume URL ${new URL(url).searchParams.has('signature') ? 'with' : 'without'} n8n's token; without it: ${noToken.status} ${noTokenBody}; wrong dexToken: ${stranger.status}\n`);
			if (n8n1()) {
				expect(new URL(url).searchParams.has('signature')).toBe(false);
				expect(noToken.status).toBe(200); // reached the node: 1.x checks nothing
			} else {
				expect(noToken.status).toBe(401);
				expect(JSON.parse(noTokenBody)).toEqual({ error: 'Invalid token' });
			}
			expect(stranger.status).toBe(401);

			// A second execution runs its uploads while the first waits: with one production slot, it
			// could not start before the first ended if waiting held the slot.
			const second = await startExecution(SMOKE.path);
			await waiting(second);
			const secondUploadedAt = [...emulator.state.uploads.values()].filter((upload) => upload.params.callbackURL?.includes(`/webhook-waiting/${second}/`)).map((upload) => upload.createdAtMs);
			expect(secondUploadedAt).toHaveLength(5);

			const firstEnded = await waitForExecution(n8n, first, 180_000);
			expect(Math.max(...secondUploadedAt)).toBeLessThan(Date.parse(String(firstEnded.stoppedAt)));
			for (const executionId of [first, second]) {
				const execution = await waitForExecution(n8n, executionId, 180_000);
				expect(execution.status).toBe('success');
				expect(execution.mode).toBe('webhook');
				expect(executionOutput(execution, CALLBACK_UPLOAD_NODE).map((item) => item.status)).toEqual(['processed', 'processed', 'processed', 'processed', 'processed']);
				expect(executionOutput(execution, PICK_UP_NODE).map((item) => item.state)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
				// Resumed once: the Upload has one run, the rest of the workflow ran once per item.
				expect(execution.data?.resultData.runData[CALLBACK_UPLOAD_NODE]).toHaveLength(1);
				expect(execution.data?.resultData.runData[PICK_UP_NODE]).toHaveLength(1);
			}
			expect(await endedInServerErrors()).toEqual([]);
		});

		fullTest('no callback at all: at the Wait Timeout n8n passes the input through, and Get Upload Status picks the uploads up by the node\'s context; the wait tracker measured', async () => {
			emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
			emulator.setProcessingDelay(300);
			const executionId = await startExecution(TIMEOUT.path);
			await waiting(executionId);
			const waitTill = Date.parse(String((await executionRecord(n8n, executionId)).waitTill));

			const execution = await waitForExecution(n8n, executionId, 180_000);

			expect(execution.status).toBe('success');
			const passed = executionOutput(execution, CALLBACK_UPLOAD_NODE);
			expect(passed.every((item) => item.uploadId === undefined && item.status === undefined)).toBe(true);
			expect(executionOutput(execution, PICK_UP_NODE).map((item) => item.state)).toEqual(['completed', 'completed']);
			const late = Date.parse(String(execution.stoppedAt)) - waitTill;
			const gaps = trackerTicks.slice(1).map((tick, index) => tick - trackerTicks[index]);
			process.stderr.write(`[callback e2e] n8n ${prepared.runtime.n8nVersion}: a 5 s wait ended ${(late / 1000).toFixed(1)} s after its waitTill; wait tracker ticks ${gaps.map((gap) => (gap / 1000).toFixed(1)).join(', ')} s apart\n`);
			expect(gaps.length).toBeGreaterThan(0);
			for (const gap of gaps) expect(Math.abs(gap - 60_000)).toBeLessThan(5_000);
		});

		fullTest('twenty documents with long processing, and n8n restarted while the execution waits: it resumes once with every document', async () => {
			emulator.setProcessingDelay(25_000);
			const executionId = await startExecution(MANY.path);
			await waiting(executionId);
			const port = n8n.port;
			await n8n.stop();
			n8n = await start(port);

			const execution = await waitForExecution(n8n, executionId, 300_000);

			expect(execution.status).toBe('success');
			expect(executionOutput(execution, CALLBACK_UPLOAD_NODE).map((item) => item.status)).toEqual(Array.from({ length: 20 }, () => 'processed'));
			expect(execution.data?.resultData.runData[PICK_UP_NODE]).toHaveLength(1);
			expect(await endedInServerErrors()).toEqual([]);
		});

		fullTest('"save successful executions: none": the waiting execution is kept, resumes, the rest of the workflow runs once per document, then n8n deletes it', async () => {
			const executionId = await startExecution(NONE.path);
			await waiting(executionId);
			const uploads = callbackUrlsOf(executionId).length;
			expect(uploads).toBe(2);

			// The rest of the workflow reports each file once; then the execution is gone.
			await waitFor('both files reported', () => {
				const reported = [...emulator.state.files.values()].filter((file) => file.exportInfo?.integrationExportStatus === 'completed');
				return reported.length >= 2 ? reported : undefined;
			}, 120_000);
			await waitFor('the execution to be deleted', async () => {
				const response = await n8n.request(`/api/v1/executions/${executionId}`, { headers: { 'X-N8N-API-KEY': n8n.apiKey } });
				return response.status === 404 ? true : undefined;
			}, 60_000);
			const reports = emulator.requests.filter((entry) => entry.method === 'PATCH' && /\/files\/[^/]+$/.test(entry.path));
			expect(reports).toHaveLength(2);
		});

		test('no n8n process tried to reach anything but 127.0.0.1', () => {
			expect(n8n.outboundAttempts()).toEqual([]);
		});
	});
}
