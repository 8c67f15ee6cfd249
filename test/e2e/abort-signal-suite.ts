/**
 * The request path's abortSignal pin (http.ts requestOptionsFor) in the real n8n application, for
 * the n8n that N8N_E2E_VERSION picks: test/e2e/abort-signal.test.ts (2.41.1, `npm run test:e2e`)
 * and test/e2e-n8n1/abort-signal.test.ts (1.123.81, `npm run test:e2e:n8n1`) both run it. The same
 * checks in process: test/node/request-abort-signal.test.ts.
 * - Canary: the probe package (test/fixtures/abort-signal-probe-package), installed beside ours,
 *   shows that n8n's httpRequestWithAuthentication still replaces a caller's abortSignal with the
 *   execution's stop signal. When it fails, n8n changed: revisit the pin.
 * - Behaviour: our node against an API that never answers, Request Timeout 1 s: the execution fails
 *   at the timeout with our message and n8n closed every attempt's connection; with Request Timeout
 *   600 s, the editor's Stop (POST /rest/executions/{id}/stop) cancels at once and closes it.
 */
import * as fs from 'node:fs';

import { SEEDED_KEYS, startEmulator, waitForRequest, type Emulator } from '../../dev/emulator';
import { n8nCli } from '../../dev/n8n/n8n-cli';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { installPackageInto } from '../../dev/n8n/n8n-package';
import {
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	executionOutput,
	importCredentialsAndWorkflows,
	prepareUserFolder,
	waitForExecution,
	type PreparedFolder,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import {
	PROBE_NODE_TYPE,
	PROBE_PACKAGE_DIR,
	connectionEnded,
	expectClosedAtTheirTimeout,
	expectN8nReplacesTheSignal,
	type ProbeReport,
} from '../fixtures/abort-signal-probe';
import { e2eN8nVersion, e2eRuntime, runWorkflowOn, versionEnv, waitForExecutionData } from './helpers';

const SUBSCRIPTION = /\/subscription$/;
const PROBE_NODE = 'Abort Signal Probe';
const OUR_NODE = 'Read the subscription';
const CREDENTIALS = { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } };

function startThen(id: string, name: string, node: WorkflowJson['nodes'][number]): WorkflowJson {
	return {
		id,
		name,
		nodes: [{ id: 'a1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }, node],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function probeWorkflow(apiUrl: string): WorkflowJson {
	return startThen('dexAbortProbe001', 'abortSignal canary: what httpRequestWithAuthentication does with it', {
		id: 'a2',
		name: PROBE_NODE,
		type: PROBE_NODE_TYPE,
		typeVersion: 1,
		position: [220, 0],
		parameters: { url: `${apiUrl}/prod/v1/subscription`, abortAfterMs: 1000, settleWithinMs: 3000 },
		credentials: CREDENTIALS,
	});
}

function subscriptionWorkflow(id: string, requestTimeout: number): WorkflowJson {
	return startThen(id, `abortSignal pin: read the subscription, Request Timeout ${requestTimeout} s`, {
		id: 'a2',
		name: OUR_NODE,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [220, 0],
		parameters: { resource: 'workspace', operation: 'getSubscription', options: { requestTimeout } },
		credentials: CREDENTIALS,
	});
}

const TIMEOUT_WORKFLOW_ID = 'dexAbortTimeout1';
const STOP_WORKFLOW_ID = 'dexAbortStop0001';

export function describeAbortSignalInRealN8n(): void {
	describe(`the abortSignal pin of the request path in the real n8n ${e2eN8nVersion()}`, () => {
		let prepared: PreparedFolder;
		let emulator: Emulator;
		let n8n: N8nInstance;

		beforeAll(async () => {
			const runtime = await e2eRuntime();
			prepared = await prepareUserFolder({ build: false, runtime });
			await installPackageInto(prepared.userFolder, { packageDir: PROBE_PACKAGE_DIR, build: false });
			const env = { ...prepared.env, ...versionEnv(runtime) };
			const cli = n8nCli({ userFolder: prepared.userFolder, env, runtime });
			emulator = await startEmulator({ processingDelayMs: 0 });
			await importCredentialsAndWorkflows(cli, emulator, [
				probeWorkflow(emulator.apiUrl),
				subscriptionWorkflow(TIMEOUT_WORKFLOW_ID, 1),
				subscriptionWorkflow(STOP_WORKFLOW_ID, 600),
			]);
			n8n = await startN8n({ userFolder: prepared.userFolder, runtime, env });
		});

		afterAll(async () => {
			await n8n?.stop();
			await emulator?.close();
			if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
		});

		beforeEach(() => {
			emulator.requests.length = 0;
			emulator.faults.clear();
		});

		const run = async (workflowId: string) => await runWorkflowOn(prepared.runtime, n8n, workflowId, 'Start');

		test('canary: httpRequestWithAuthentication overwrites a node\'s own abortSignal with the execution\'s stop signal', async () => {
			emulator.faults.hangNext({ method: 'GET', path: '/subscription' });

			const execution = await waitForExecutionData(n8n, await run('dexAbortProbe001'), 60_000);

			expect(execution.data?.resultData.error).toBeUndefined();
			const [report] = executionOutput(execution, PROBE_NODE) as unknown as ProbeReport[];
			const [probeRequest] = emulator.requests.filter((entry) => SUBSCRIPTION.test(entry.path));
			expect(probeRequest?.fault).toBe('hang');
			expect(probeRequest?.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
			expectN8nReplacesTheSignal(report, probeRequest, `n8n ${prepared.runtime.n8nVersion}`);
		});

		test('an API that never answers, Request Timeout 1 s: the execution fails with our message and n8n closed each attempt\'s connection', async () => {
			emulator.faults.hangNext({ method: 'GET', path: '/subscription', count: 4 });

			const execution = await waitForExecutionData(n8n, await run(TIMEOUT_WORKFLOW_ID), 120_000);

			expect(execution.status).toBe('error');
			expect(execution.data?.resultData.error?.message).toMatch(
				/Could not reach http:\/\/127\.0\.0\.1:\d+: no answer within 1 s \(the Request Timeout option\) \(4 attempts\)/,
			);
			const attempts = emulator.requests.filter((entry) => SUBSCRIPTION.test(entry.path));
			expect(attempts.map((entry) => entry.fault)).toEqual(['hang', 'hang', 'hang', 'hang']);
			await expectClosedAtTheirTimeout(emulator, attempts, 1000);
		});

		test('Request Timeout 600 s: Stop cancels a request in flight at once and n8n closes its connection', async () => {
			emulator.faults.hangNext({ method: 'GET', path: '/subscription' });
			const arrived = waitForRequest(emulator, (entry) => SUBSCRIPTION.test(entry.path), { timeoutMs: 60_000 });
			const executionId = await run(STOP_WORKFLOW_ID);
			const request = await arrived;

			await n8n.rest(`/executions/${executionId}/stop`, { method: 'POST', body: {} });

			const execution = await waitForExecution(n8n, executionId, 20_000);
			expect(execution.status).toBe('canceled');
			const ended = await connectionEnded(emulator, request, 10_000);
			expect(ended.status).toBe(0);
			expect(emulator.requests.filter((entry) => SUBSCRIPTION.test(entry.path))).toHaveLength(1);
		});

		test('no n8n process tried to reach anything but 127.0.0.1', () => {
			expect(n8n.outboundAttempts()).toEqual([]);
		});
	});
}
