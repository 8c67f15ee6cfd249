/**
 * `npm start`'s emulator and the Callback Trigger example in the real n8n (dev/n8n/callback-example.ts,
 * as dev/start.ts wires it): while the example is not published the emulator calls no URL after an
 * upload, so n8n's log has no "Received request for unknown webhook" line (a plain `npm start` once
 * printed 192 of them: every step of every example upload, each retried 5 times); published, the
 * emulator calls it and it runs once per upload; unpublished again, the calls stop.
 */
import * as fs from 'node:fs';

import { startEmulator, type Emulator } from '../../dev/emulator';
import { followCallbackExample, type CallbackExampleFollower } from '../../dev/n8n/callback-example';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { CALLBACK_EXAMPLE, importCredentialsAndWorkflows, listExecutions, prepareUserFolder, readExample, type PreparedFolder } from '../../dev/n8n/n8n-stack';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { e2eRuntime, uploadToEmulator, versionEnv, waitFor } from './helpers';

const EXAMPLE_ID = readExample(CALLBACK_EXAMPLE).id!;

describe("npm start's emulator calls the Callback Trigger example only while it is published", () => {
	let prepared: PreparedFolder;
	let emulator: Emulator;
	let n8n: N8nInstance;
	let follower: CallbackExampleFollower;

	/** n8n's "unknown webhook" log lines so far. */
	function unknownWebhookLines(): string[] {
		return n8n.logs().split('\n').filter((line) => line.includes('Received request for unknown webhook'));
	}

	/** Uploads a document with the key npm start's examples use and waits until the emulator has made every callback of it. */
	async function upload(name: string): Promise<string> {
		const uploadId = await uploadToEmulator(emulator, emulator.keys.readWrite, name, Buffer.from(`${invoiceText()}Note: ${name}\n`));
		await emulator.idle();
		return uploadId;
	}

	const deliveriesOf = (uploadId: string) => emulator.state.callbacks.filter((delivery) => delivery.payload.uploadId === uploadId);

	beforeAll(async () => {
		prepared = await prepareUserFolder({ build: false, runtime: await e2eRuntime() });
		const env = { ...prepared.env, ...versionEnv(prepared.runtime) };
		// As npm start's: the service's 5 retries, sooner.
		emulator = await startEmulator({ processingDelayMs: 300, callbackRetries: 5, callbackRetryBaseMs: 100 });
		await importCredentialsAndWorkflows(prepared.cli, emulator, [readExample(CALLBACK_EXAMPLE, emulator.apiUrl)]);
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env });
		follower = followCallbackExample({ n8n, emulator, intervalMs: 200 });
	});

	afterAll(async () => {
		follower?.stop();
		await n8n?.stop();
		await emulator?.close();
		if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
	});

	test('not published (as imported): two uploads call no URL, and n8n logs no unknown webhook', async () => {
		expect(await follower.check()).toBe(false);

		const uploads = [await upload(`a-${INVOICE_FILE_NAME}`), await upload(`b-${INVOICE_FILE_NAME}`)];

		expect(unknownWebhookLines()).toEqual([]);
		expect(uploads.map(deliveriesOf)).toEqual([[], []]);
	});

	test('published: the emulator calls the example at every step, each at its first attempt, it runs once for the upload, and n8n logs no unknown webhook', async () => {
		const workflow = await n8n.rest<{ versionId: string }>(`/workflows/${EXAMPLE_ID}`);
		await n8n.rest(`/workflows/${EXAMPLE_ID}/activate`, { method: 'POST', body: { versionId: workflow.versionId } });
		// n8n registers the webhook a moment after the publish request returns (before that its URL answers 404): the follower waits for it.
		expect(await waitFor("n8n to listen at the example's URL", async () => ((await follower.check()) ? true : undefined), 30_000, 200)).toBe(true);

		const uploadId = await upload(`published-${INVOICE_FILE_NAME}`);

		const executions = await waitFor('the example to run', async () => {
			const ended = (await listExecutions(n8n, EXAMPLE_ID)).filter((execution) => execution.stoppedAt);
			return ended.length > 0 ? ended : undefined;
		}, 60_000, 500);
		expect(executions).toHaveLength(1);
		// Each step delivered at its first attempt: n8n listened before the emulator had the URL.
		expect(deliveriesOf(uploadId).map((delivery) => [delivery.payload.step, delivery.statuses])).toEqual([
			['file_uploaded', [200]],
			['processing_started', [200]],
			['fraud_detection', [200]],
			['processing_finished', [200]],
		]);
		expect(unknownWebhookLines()).toEqual([]);
	});
});
