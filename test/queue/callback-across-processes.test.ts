/**
 * The Callback Trigger with Claim Across Processes in queue mode: n8n main, one worker and two
 * `n8n webhook` processes behind a round-robin proxy (dev/n8n/queue/round-robin.ts), PostgreSQL
 * and Redis; the emulator's callbacks for every upload go through the proxy (each step to the next
 * webhook process), and each final callback is also delivered by this test at once to both webhook
 * processes, then one after another to each, interleaved with the other uploads' callbacks. Every
 * document is emitted exactly once: 0 duplicates, 0 lost (issue 39 section 2). n8n 2.41.1, or
 * N8N_E2E_VERSION=1.123.81.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS } from '../../dev/emulator';
import { CALLBACK_EXAMPLE, exampleCallbackUrl, executionOutput, findNode, listExecutions, readExample, type ExecutionRecord } from '../../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { e2eN8nVersion, e2eRuntime, uploadToEmulator, versionEnv, waitFor } from '../e2e/helpers';

const CALLBACK = readExample(CALLBACK_EXAMPLE);
const CALLBACK_NODE = 'When the service calls back';
findNode(CALLBACK, CALLBACK_NODE).parameters = { events: ['fileProcessed'], options: { claimAcrossProcesses: true } };
const DOCUMENTS = 12;
/** The service's retries of a delivery answered 503 (it retries 5 times). */
const RETRIES = 5;

describe(`n8n ${e2eN8nVersion()} queue mode, main + 1 worker + 2 webhook processes behind a round-robin proxy: the Callback Trigger with Claim Across Processes`, () => {
	let stack: QueueStack;
	let rootDir: string;

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-claim-'));
		const runtime = await e2eRuntime();
		stack = await startQueueStack({
			rootDir,
			build: false,
			runtime,
			env: versionEnv(runtime),
			workers: 1,
			webhookProcesses: 2,
			workflows: () => [CALLBACK],
			publish: [CALLBACK.id!],
			emulator: { callbackRetryBaseMs: 1000 },
			log: (line) => process.stderr.write(`[queue claim] ${line}\n`),
		});
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	/** A final callback delivered as the service does: sent again while answered 503, to the next URL in turn. */
	async function deliver(urls: string[], payload: Record<string, unknown>): Promise<number[]> {
		const statuses: number[] = [];
		for (let attempt = 0; attempt <= RETRIES; attempt++) {
			const answer = await fetch(urls[attempt % urls.length], { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
			statuses.push(answer.status);
			if (answer.status !== 503) break;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		return statuses;
	}

	test(`${DOCUMENTS} documents, each final callback delivered at once to both webhook processes and one after another to each, through the proxy too: each emitted exactly once`, async () => {
		const { emulator } = stack;
		const proxy = stack.webhookProxy!;
		const proxied = exampleCallbackUrl(proxy.url);
		const direct = stack.webhookProcesses.map((process) => exampleCallbackUrl(process.instance!.url));
		// Wait until both webhook processes find the published trigger (they read it from the database).
		await waitFor('the trigger served by both webhook processes', async () => {
			const answers = await Promise.all(direct.map(async (url) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status));
			return answers.every((status) => status === 400) ? true : undefined;
		}, 120_000, 1000);
		emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, proxied);

		const uploadIds: string[] = [];
		const manual: Array<Promise<number[]>> = [];
		const processedFile = (uploadId: string) => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed');
		await Promise.all(
			Array.from({ length: DOCUMENTS }, async (_, index) => {
				const text = `Document Type: Receipt\nReceipt Number: R-CLAIM-${String(index).padStart(3, '0')}\nTotal: ${index}.00\n`;
				const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `claim-receipt-${index}.txt`, Buffer.from(text));
				uploadIds.push(uploadId);
				await waitFor(`upload ${uploadId} processed`, () => (processedFile(uploadId) ? true : undefined), 120_000, 100);
				const payload = { status: 'completed', step: 'processing_finished', uploadId, timestamp: new Date().toISOString() };
				// At once to both webhook processes, while the emulator's own final callback goes through the proxy.
				manual.push(...direct.map(async (url, at) => await deliver([url, ...direct.filter((_, other) => other !== at)], payload)));
				// Then one after another, to each webhook process in turn.
				for (const url of direct) manual.push(deliver([url], payload));
			}),
		);
		const answered = await Promise.all(manual);
		const finals = () => emulator.state.callbacks.filter((delivery) => uploadIds.includes(String(delivery.payload.uploadId)) && delivery.payload.step === 'processing_finished');
		await waitFor('every final callback of the emulator answered 200', () => (finals().length === DOCUMENTS && finals().every((delivery) => delivery.delivered) ? true : undefined), 180_000, 1000);
		expect(answered.map((statuses) => statuses.at(-1))).toEqual(answered.map(() => 200));

		const processedIds = uploadIds.map((uploadId) => String(processedFile(uploadId)!.fileId));
		const emittedBy = (executions: ExecutionRecord[]) => executions.flatMap((execution) => executionOutput(execution, CALLBACK_NODE).map((item) => String(item.fileId)));
		const executions = await waitFor(`executions that emitted the ${DOCUMENTS} documents, ended`, async () => {
			const all = await listExecutions(stack.main, CALLBACK.id!);
			const ended = all.every((execution) => execution.stoppedAt && !['new', 'running', 'waiting'].includes(execution.status));
			if (!ended) return undefined;
			const emitted = new Set(all.flatMap((execution) => (execution.data?.resultData.runData[CALLBACK_NODE] ? emittedBy([execution]) : [])));
			return processedIds.every((id) => emitted.has(id)) ? all : undefined;
		}, 180_000, 1000);
		// Time for an execution a late duplicate might start, then the list again.
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const final = await listExecutions(stack.main, CALLBACK.id!);
		expect(final.length).toBe(executions.length);
		const emitted = emittedBy(final);
		expect([...emitted].sort()).toEqual([...processedIds].sort());

		const claims = emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'PATCH' && /\/files\//.test(entry.path) && entry.headers?.['idempotency-key'] !== undefined);
		const deliveries = answered.length + finals().reduce((sum, delivery) => sum + delivery.attempts, 0);
		console.log(
			`n8n ${e2eN8nVersion()}: ${DOCUMENTS} documents, ${deliveries} final deliveries (${answered.length} by the test at once and in turn, the emulator's through the proxy: ${proxy.sent.join(' + ')} requests to the 2 webhook processes), ${final.length} executions, ${emitted.length} documents emitted, ${claims.length} PATCH /files requests (claims and the example's reports)`,
		);
	});
});
