/**
 * A callback that reaches n8n before the execution is parked (the service calls as soon as a
 * document's first step is done, while the Upload node is still running), in the real n8n 2.41.1,
 * a run started as the editor's "Execute workflow" starts it (a manual execution), as a new user
 * runs examples/upload-and-wait-for-callback.json under `npm start`.
 *
 * Whose is the crash line `Cannot read properties of undefined (reading 'resumeToken')`? n8n's:
 * its WaitingWebhooks reads `execution.data.resumeToken` before it looks at the status, and a
 * manual execution has no data stored until it is first saved (n8n stores it created without
 * data: `"[]"` reads back as undefined). The call never reaches the node's webhook(); n8n answers
 * 500 and logs the crash, the service sends it again, and it is handled once the execution waits.
 * A production execution (started by a webhook or a trigger) is stored with its data and is
 * answered 409 "is running already" instead; n8n 1.123.81 looks at the status first (409).
 *
 * With the workflow setting "Save execution progress" n8n stores the execution after each node, so
 * a call while the Upload runs finds its data and is answered 409, a plain refusal the service
 * retries: the example ships with it. Measured here: the same workflow without the setting (n8n's
 * crash lines counted in its log), then as shipped (none).
 */
import * as fs from 'node:fs';

import { startEmulator, type Emulator } from '../../dev/emulator';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { executionOutput, importCredentialsAndWorkflows, prepareUserFolder, readExample, type PreparedFolder, type WorkflowJson } from '../../dev/n8n/n8n-stack';
import { e2eRuntime, runWorkflowOn, versionEnv, waitForExecutionData } from './helpers';

const EXAMPLE = 'upload-and-wait-for-callback.json';
const TRIGGER = "When clicking 'Execute workflow'";
const UPLOAD = 'Upload and wait for the service';
const CRASH = "Cannot read properties of undefined (reading 'resumeToken')";

function crashLines(log: string): number {
	return log.split('\n').filter((line) => line.includes(CRASH)).length;
}

describe('callbacks that reach n8n before the execution waits (n8n 2.41.1, manual executions)', () => {
	let prepared: PreparedFolder;
	let emulator: Emulator;
	let n8n: N8nInstance;
	const asShipped = readExample(EXAMPLE);
	const withoutProgress: WorkflowJson = { ...readExample(EXAMPLE), id: 'dexExCallbackNoP', name: 'the callback example without Save execution progress' };

	beforeAll(async () => {
		const runtime = await e2eRuntime();
		prepared = await prepareUserFolder({ build: false, runtime });
		// Processing ends quickly: each document's first callbacks come while the Upload node still runs.
		emulator = await startEmulator({ processingDelayMs: 200 });
		const settings: Record<string, unknown> = { ...(asShipped.settings as Record<string, unknown>) };
		delete settings.saveExecutionProgress;
		withoutProgress.settings = settings as WorkflowJson['settings'];
		const workflows = [asShipped, withoutProgress].map((workflow) => JSON.parse(JSON.stringify(workflow).split('http://127.0.0.1:8787').join(emulator.apiUrl)) as WorkflowJson);
		await importCredentialsAndWorkflows(prepared.cli, emulator, workflows);
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env: { ...prepared.env, ...versionEnv(runtime) } });
	});

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
	});

	async function run(workflow: WorkflowJson): Promise<{ crashes: number; refusedBeforeWait: number[] }> {
		const before = crashLines(n8n.logs());
		const deliveriesBefore = emulator.state.callbacks.length;
		const executionId = await runWorkflowOn(prepared.runtime, n8n, String(workflow.id), TRIGGER);
		const execution = await waitForExecutionData(n8n, executionId, 180_000);
		expect(execution.status).toBe('success');
		expect(executionOutput(execution, UPLOAD).map((item) => item.status)).toEqual(['processed', 'processed']);
		await emulator.idle();
		const deliveries = emulator.state.callbacks.slice(deliveriesBefore).filter((delivery) => delivery.url.includes(`/webhook-waiting/${executionId}/`));
		const refusedBeforeWait = deliveries.flatMap((delivery) => delivery.statuses.filter((status) => status >= 400 && status !== 401));
		return { crashes: crashLines(n8n.logs()) - before, refusedBeforeWait };
	}

	test('without "Save execution progress", n8n answers the early callbacks 500 and logs the crash; as the example ships, 409 and no crash line', async () => {
		const plain = await run(withoutProgress);
		const shipped = await run(asShipped);
		process.stderr.write(
			`[callback e2e] n8n ${prepared.runtime.n8nVersion}, manual executions, callbacks before the wait: without Save execution progress ${plain.crashes} crash line(s), answers ${plain.refusedBeforeWait.join(',') || 'none'}; as shipped ${shipped.crashes} crash line(s), answers ${shipped.refusedBeforeWait.join(',') || 'none'}\n`,
		);

		expect(plain.crashes).toBeGreaterThan(0);
		expect(plain.refusedBeforeWait).toContain(500);
		expect(shipped.crashes).toBe(0);
		expect(shipped.refusedBeforeWait.every((status) => status === 409)).toBe(true);
		expect(shipped.refusedBeforeWait.length).toBeGreaterThan(0);
	});
});
