/**
 * The Callback Trigger in the real n8n application (`n8n start`, the package installed as a
 * community package, the emulator calling back), for the n8n that N8N_E2E_VERSION picks:
 * test/e2e/callback-trigger.test.ts (2.41.1) and test/e2e-n8n1/callback-trigger.test.ts
 * (1.123.81) both run it. A published workflow starts with the trigger; the emulator has the
 * trigger's Production URL as the key's default callback URL, and the test also calls the URL
 * itself (duplicates, concurrent deliveries, forgeries), then counts n8n's executions.
 */
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';

import { SEEDED_KEYS, startEmulator, waitForRequest, type Emulator } from '../../dev/emulator';
import { n8nCli } from '../../dev/n8n/n8n-cli';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import {
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	PACKAGE_NAME,
	executionOutput,
	importCredentialsAndWorkflows,
	listExecutions,
	prepareUserFolder,
	type PreparedFolder,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { CALLBACK_LIMITS } from '../../nodes/shared/limits';
import { e2eRuntime, uploadToEmulator, versionEnv, waitFor } from './helpers';

const TRIGGER_NODE = 'When the service calls back';
const WEBHOOK_ID = '5d0c7a8e-2b1f-4e3a-9c6d-7f8e9a0b1c2d';

const WORKFLOW: WorkflowJson = {
	id: 'dexE2eCallback01',
	name: 'e2e: the Callback Trigger',
	nodes: [
		{
			id: 'c1',
			name: TRIGGER_NODE,
			type: `${PACKAGE_NAME}.documentExtractionCallbackTrigger`,
			typeVersion: 1,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: { events: ['fileProcessed'] },
			credentials: { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } },
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
};

interface Answer {
	status: number;
	body: { outcome?: string };
	ms: number;
}

export function describeCallbackTriggerInRealN8n(): void {
	describe(`the Callback Trigger in n8n ${process.env.N8N_E2E_VERSION || '2.41.1'} (n8n start, community package, emulator)`, () => {
		let prepared: PreparedFolder;
		let emulator: Emulator;
		let n8n: N8nInstance;
		let url: string;

		async function post(body: unknown): Promise<Answer> {
			const started = Date.now();
			const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			const text = await response.text();
			let parsed: Answer['body'] = {};
			try {
				parsed = JSON.parse(text) as Answer['body'];
			} catch {
				// not JSON
			}
			return { status: response.status, body: parsed, ms: Date.now() - started };
		}

		/** The trigger's items over all ended executions of the workflow. */
		async function emittedItems(): Promise<Array<Record<string, unknown>>> {
			const executions = await listExecutions(n8n, WORKFLOW.id!);
			return executions.filter((execution) => execution.stoppedAt && execution.data?.resultData.runData[TRIGGER_NODE]).flatMap((execution) => executionOutput(execution, TRIGGER_NODE));
		}

		async function executionsOf(uploadId: string): Promise<number> {
			const executions = await listExecutions(n8n, WORKFLOW.id!);
			return executions.filter((execution) => execution.data?.resultData.runData[TRIGGER_NODE] && executionOutput(execution, TRIGGER_NODE).some((item) => item.uploadId === uploadId)).length;
		}

		/** Waits until `uploadId` has an execution, then a while longer so that a second one would show. */
		async function settledExecutionsOf(uploadId: string): Promise<number> {
			await waitFor(`an execution for upload ${uploadId}`, async () => ((await executionsOf(uploadId)) > 0 ? true : undefined), 60_000, 500);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			return await executionsOf(uploadId);
		}

		function finalDelivery(uploadId: string) {
			return emulator.state.callbacks.find((delivery) => delivery.payload.uploadId === uploadId && delivery.payload.step === 'processing_finished');
		}

		beforeAll(async () => {
			prepared = await prepareUserFolder({ build: false, runtime: await e2eRuntime() });
			const env = { ...prepared.env, ...versionEnv(prepared.runtime) };
			const cli = n8nCli({ userFolder: prepared.userFolder, env, runtime: prepared.runtime });
			emulator = await startEmulator({ processingDelayMs: 300, callbackRetries: 5, callbackRetryBaseMs: 300 });
			await importCredentialsAndWorkflows(cli, emulator, [WORKFLOW]);
			await cli.publishWorkflow(WORKFLOW.id!);
			n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env });
			url = `${n8n.url}/webhook/${WEBHOOK_ID}/callback`;
			emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, url);
		});

		afterAll(async () => {
			await n8n?.stop();
			await emulator?.close();
			if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
		});

		test('activated with the workflow: its URL answers, a body without an upload id 400, asking the API nothing', async () => {
			const answer = await waitFor('the webhook to be registered', async () => {
				const reply = await post({ status: 'completed', fileIds: 'x' });
				return reply.status === 404 && reply.body.outcome === undefined ? undefined : reply;
			}, 60_000, 500);
			expect(answer).toMatchObject({ status: 400, body: { outcome: 'invalid' } });
			expect(emulator.requests.filter((entry) => entry.host === 'api')).toEqual([]);
		});

		test('a processed upload, called back by the emulator at every step: one execution with the file, as the polling trigger emits it', async () => {
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, INVOICE_FILE_NAME, Buffer.from(invoiceText()));
			expect(await settledExecutionsOf(uploadId)).toBe(1);
			const item = (await emittedItems()).find((candidate) => candidate.uploadId === uploadId);
			expect(item).toMatchObject({ fileName: INVOICE_FILE_NAME, status: 'processed', fileId: expect.any(String) });
			const steps = emulator.state.callbacks.filter((delivery) => delivery.payload.uploadId === uploadId);
			expect(steps.map((delivery) => [delivery.payload.step, delivery.delivered, delivery.lastStatus])).toEqual([
				['file_uploaded', true, 200],
				['processing_started', true, 200],
				['fraud_detection', true, 200],
				['processing_finished', true, 200],
			]);
		});

		test('the API failing at first: 503, the emulator calls again, one execution; one status request per call at most', async () => {
			// A check asks the API once, never retrying inside the call (the service calls again), and
			// the 503 is remembered for CALLBACK_LIMITS.recentAnswerMs: the emulator's retries 300 ms
			// and 600 ms later cost no request. So one failing request fails the first call only.
			emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 500, count: 1 });
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `retried-${INVOICE_FILE_NAME}`, Buffer.from(`${invoiceText()}Note: retried\n`));
			expect(await settledExecutionsOf(uploadId)).toBe(1);
			expect(emulator.faults.pending().fail).toEqual([]);
			const delivery = finalDelivery(uploadId);
			expect(delivery).toMatchObject({ delivered: true });
			expect(delivery!.attempts).toBeGreaterThanOrEqual(2);
			const statusRequests = emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.endsWith(`/uploads/${uploadId}`));
			expect(statusRequests.map((entry) => entry.status)).toEqual([500, 200]);
		});

		test('10 deliveries of one callback at once, then 3 one after another: one execution, every call answered 200', async () => {
			emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
			try {
				const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `concurrent-${INVOICE_FILE_NAME}`, Buffer.from(`${invoiceText()}Note: concurrent\n`));
				await emulator.idle();
				const body = { status: 'completed', step: 'processing_finished', uploadId, timestamp: new Date().toISOString() };
				const concurrent = await Promise.all(Array.from({ length: 10 }, async () => await post(body)));
				expect(concurrent.map((answer) => answer.status)).toEqual(concurrent.map(() => 200));
				expect(concurrent.filter((answer) => answer.body.outcome === 'emitted')).toHaveLength(1);
				for (let repeat = 0; repeat < 3; repeat++) expect(await post(body)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
				expect(await settledExecutionsOf(uploadId)).toBe(1);
			} finally {
				emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, url);
			}
		});

		test("forged callbacks: an unknown upload 404, another key's upload 404, a forged completed in flight 503; no execution", async () => {
			const before = (await listExecutions(n8n, WORKFLOW.id!)).length;
			expect(await post({ status: 'completed', uploadId: randomUUID(), fileIds: randomUUID() })).toMatchObject({ status: 404, body: { outcome: 'unknownUpload' } });
			const other = await uploadToEmulator(emulator, SEEDED_KEYS.workspaceB, INVOICE_FILE_NAME, Buffer.from(invoiceText()));
			await emulator.idle();
			expect(await post({ status: 'completed', uploadId: other })).toMatchObject({ status: 404 });
			const requested = await fetch(`${emulator.apiUrl}/prod/v1/files/upload`, {
				method: 'POST',
				headers: { 'x-api-key': SEEDED_KEYS.readWrite, 'content-type': 'application/json' },
				body: JSON.stringify({ fileName: INVOICE_FILE_NAME, fileType: 'text/plain', callbackURL: 'https://nowhere.example/cb' }),
			});
			const { uploadId: inFlight } = (await requested.json()) as { uploadId: string };
			expect(await post({ status: 'completed', uploadId: inFlight })).toMatchObject({ status: 503, body: { outcome: 'retryLater' } });
			await new Promise((resolve) => setTimeout(resolve, 2000));
			expect(await listExecutions(n8n, WORKFLOW.id!)).toHaveLength(before);
		});

		test('an API that never answers: the call is answered 503 all the same (the service waits 30 s at most)', async () => {
			emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
			try {
				const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `slow-${INVOICE_FILE_NAME}`, Buffer.from(`${invoiceText()}Note: slow\n`));
				await emulator.idle();
				emulator.faults.hangNext({ method: 'GET', path: /\/uploads\// });
				const hung = waitForRequest(emulator, (entry) => entry.path.includes(uploadId) && entry.fault === 'hang', { timeoutMs: 30_000 });
				const answer = await post({ status: 'completed', uploadId });
				await hung;
				expect(answer).toMatchObject({ status: 503, body: { outcome: 'retryLater' } });
				process.stderr.write(`[callback trigger] n8n ${prepared.runtime.n8nVersion}: an API that never answers, callback answered 503 after ${answer.ms} ms\n`);
				// The service's next call, after the while the 503 is remembered, is checked again and starts the one execution.
				await new Promise((resolve) => setTimeout(resolve, CALLBACK_LIMITS.recentAnswerMs + 200));
				expect(await post({ status: 'completed', uploadId })).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
				expect(await settledExecutionsOf(uploadId)).toBe(1);
			} finally {
				emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, url);
			}
		});
	});
}
