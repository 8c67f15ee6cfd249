/**
 * The 1.x smoke (`npm run test:e2e:n8n1`: n8n 1.123.81, the newest 1.x, on Node 22): the package
 * installed as a community package into the real n8n 1.x server, against the emulator:
 * upload -> wait -> values, the trigger in an active workflow, the credential test with a good
 * and a bad key, and a stopped execution during a 429 wait.
 * It runs on any version of N8N_VERSIONS (N8N_E2E_VERSION; its jest config defaults it to 1.123.81); where n8n 1.x
 * and 2.x differ, the test says which does what.
 */
import * as fs from 'node:fs';

import { SEEDED_KEYS, waitForRequest } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME } from '../../dev/documents';
import { n8nCli, type N8nCli } from '../../dev/n8n/n8n-cli';
import { startN8n } from '../../dev/n8n/n8n-launcher';
import { startEmulator, type Emulator } from '../../dev/emulator';
import {
	CREDENTIAL_TYPE,
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	emulatorCredential,
	executionOutput,
	findNode,
	importCredentialsAndWorkflows,
	listExecutions,
	prepareUserFolder,
	readExample,
	waitForExecution,
	type PreparedFolder,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';
import { e2eRuntime, runWorkflowOn, uploadToEmulator, versionEnv, waitFor, waitForExecutionData } from '../e2e/helpers';
import { describeFieldMapperInRealN8n } from '../e2e/resource-mapper-cases';

const BAD_KEY_CREDENTIAL = { id: 'dexBadKeyCred001', name: 'Emulator, unknown key' };
const WORKSPACE_B_CREDENTIAL = { id: 'dexWorkspaceBCred', name: 'Emulator, workspace B' };
const UNKNOWN_KEY = 'dex_test_wsA_unknown_0000000000000000';

const DISK = readExample('extract-documents-from-disk.json');
const TRIGGER = readExample('trigger-on-processed-files.json');
const TRIGGER_NODE = 'When a document is processed';
// n8n polls at most once a minute per entry of Poll Times: six entries poll every 10 seconds.
findNode(TRIGGER, TRIGGER_NODE).parameters.pollTimes = {
	item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
};

const SUBSCRIPTION: WorkflowJson = {
	id: 'dexN1Subscript01',
	name: 'n8n 1.x smoke: read the subscription',
	nodes: [
		{ id: 's1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 's2',
			name: 'Read the subscription',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { resource: 'workspace', operation: 'getSubscription', options: {} },
			credentials: { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } },
		},
	],
	connections: { Start: { main: [[{ node: 'Read the subscription', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

describe(`the package in n8n ${process.env.N8N_E2E_VERSION} (n8n start, community package, emulator)`, () => {
	let prepared: PreparedFolder;
	let emulator: Emulator;
	let n8n: N8nInstance;
	let cli: N8nCli;
	let env: Record<string, string>;
	const isV1 = () => prepared.runtime.n8nVersion.startsWith('1.');

	beforeAll(async () => {
		prepared = await prepareUserFolder({ build: false, runtime: await e2eRuntime() });
		env = { ...prepared.env, ...versionEnv(prepared.runtime) };
		cli = n8nCli({ userFolder: prepared.userFolder, env, runtime: prepared.runtime });
		emulator = await startEmulator({ processingDelayMs: 300 });
		await importCredentialsAndWorkflows(cli, emulator, [DISK, TRIGGER, SUBSCRIPTION], [
			emulatorCredential(emulator.apiUrl, UNKNOWN_KEY, BAD_KEY_CREDENTIAL.id, BAD_KEY_CREDENTIAL.name),
			emulatorCredential(emulator.apiUrl, SEEDED_KEYS.workspaceB, WORKSPACE_B_CREDENTIAL.id, WORKSPACE_B_CREDENTIAL.name),
		]);
		// n8n 1.x activates with update:workflow --active=true (2.x: publish:workflow).
		if (isV1()) {
			const result = await cli.run(['update:workflow', `--id=${TRIGGER.id!}`, '--active=true']);
			expect(result.stdout + result.stderr).toMatch(/Activating workflow|Changes will not take effect/i);
		} else {
			await cli.publishWorkflow(TRIGGER.id!);
		}
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env });
	});

	describeFieldMapperInRealN8n(() => ({ n8n, runtime: prepared.runtime, emulator, credential: WORKSPACE_B_CREDENTIAL }));

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
	});

	test('the server runs the expected n8n on the expected Node', async () => {
		const settings = await n8n.rest<{ versionCli: string }>('/settings');
		expect(settings.versionCli).toBe(prepared.runtime.n8nVersion);
		expect(fs.readFileSync(n8n.logFile, 'utf8')).not.toMatch(/Could not initialize the vm expression engine/);
	});

	test('upload -> wait -> values: the PDF and the receipt from disk come back processed with their values', async () => {
		const execution = await waitForExecutionData(n8n, await runWorkflowOn(prepared.runtime, n8n, DISK.id!, 'Run the example'));
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		const items = executionOutput(execution, 'Upload, wait and read values').filter((item) => item.zipUploadId === undefined);
		expect(items.find((item) => item.fileName === INVOICE_PDF_FILE_NAME)).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
		expect(items.find((item) => item.fileName === RECEIPT_FILE_NAME)).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });
	});

	test('trigger: each document uploaded after activation starts one execution with its values', async () => {
		await waitFor('the activation poll', () => (emulator.requests.some((entry) => entry.method === 'GET' && entry.path.endsWith('/files')) ? true : undefined), 60_000);
		const fileIdOf = (uploadId: string) => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId;
		const uploaded: string[] = [];
		for (const index of [1, 2]) {
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `receipt-n8n1-${index}.txt`, Buffer.from(`Document Type: Receipt\nReceipt Number: R-N1-${index}\nTotal: ${index}0.00\n`));
			uploaded.push(await waitFor(`document ${index} processed`, () => fileIdOf(uploadId), 30_000));
		}
		const emitted = async () => (await listExecutions(n8n, TRIGGER.id!)).filter((execution) => execution.stoppedAt && execution.data?.resultData.runData[TRIGGER_NODE]).flatMap((execution) => executionOutput(execution, TRIGGER_NODE));
		await waitFor('executions for both documents', async () => {
			const ids = (await emitted()).map((item) => String(item.fileId));
			return uploaded.every((fileId) => ids.includes(fileId)) ? true : undefined;
		}, 90_000, 1000);
		// One more poll with nothing new: still one emission per document.
		const polls = () => emulator.requests.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/files')).length;
		const pollsBefore = polls();
		await waitFor('one more poll', () => (polls() > pollsBefore ? true : undefined), 60_000, 1000);
		// Files the upload test made before are emitted too; each file exactly once.
		const items = await emitted();
		const ids = items.map((item) => String(item.fileId));
		expect(new Set(ids).size).toBe(ids.length);
		for (const fileId of uploaded) {
			const emittedFor = items.filter((item) => item.fileId === fileId);
			expect(emittedFor).toHaveLength(1);
			expect(emittedFor[0].values).toMatchObject({ 'Receipt Number': expect.stringMatching(/^R-N1-\d$/) });
		}
	});

	describe('credential test (POST /rest/credentials/test, as the editor\'s Test button)', () => {
		async function testCredential(id: string, name: string, apiKey: string): Promise<{ status: string; message: string }> {
			return await n8n.rest<{ status: string; message: string }>('/credentials/test', {
				body: { credentials: { id, name, type: CREDENTIAL_TYPE, data: { apiKey, instance: 'default', baseUrl: emulator.apiUrl } } },
			});
		}

		test('a good key: success', async () => {
			expect(await testCredential(EMULATOR_CREDENTIAL_ID, EMULATOR_CREDENTIAL_NAME, SEEDED_KEYS.readWrite)).toMatchObject({ status: 'OK' });
		});

		test('an unknown key: a failure in the node\'s words (its own credential test runs on 1.x too), from one request', async () => {
			const before = emulator.requests.filter((entry) => entry.path.endsWith('/subscription')).length;
			const result = await testCredential(BAD_KEY_CREDENTIAL.id, BAD_KEY_CREDENTIAL.name, UNKNOWN_KEY);
			expect(result.status).toBe('Error');
			const sent = emulator.requests.filter((entry) => entry.path.endsWith('/subscription')).slice(before);
			expect(result.message).toMatch(/^The API key was rejected \(HTTP 401\)/);
			expect(result.message).not.toContain(UNKNOWN_KEY);
			expect(sent.map((entry) => entry.status)).toEqual([401]);
		});
	});

	test('stopping an execution during a 429 wait ends it at once, and nothing is sent when the wait would have ended', async () => {
		const subscriptionRequests = () => emulator.requests.filter((entry) => entry.host === 'api' && entry.path.endsWith('/subscription'));
		// 8 s asked (within the default Max Retry Wait, so the node waits rather than fails).
		emulator.faults.failNext({ method: 'GET', path: '/subscription', status: 429, retryAfter: 8, count: 1 });
		const refused = waitForRequest(emulator, (entry) => entry.path.endsWith('/subscription') && entry.status === 429, { timeoutMs: 60_000 });
		const executionId = await runWorkflowOn(prepared.runtime, n8n, SUBSCRIPTION.id!, 'Start');
		const first = await refused;
		const refusedAt = Date.now();
		// Let the node read the answer and start its wait.
		await new Promise((resolve) => setTimeout(resolve, 1000));
		await n8n.rest(`/executions/${executionId}/stop`, { method: 'POST', body: {} });
		const execution = await waitForExecution(n8n, executionId, 20_000);
		expect(execution.status).toBe('canceled');
		// Past the moment the 8 s wait would have ended (n8n 1.x's sleep ignores the stop; the node's
		// wait clock races it against the cancel signal): the request was never sent again.
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, refusedAt + 11_000 - Date.now())));
		expect(subscriptionRequests().filter((entry) => entry.sequence > first.sequence)).toEqual([]);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(n8n.outboundAttempts()).toEqual([]);
	});
});
