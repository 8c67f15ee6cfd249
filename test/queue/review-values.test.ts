/**
 * File > Review Values in queue mode (n8n main + workers, PostgreSQL, Redis; every process with
 * main's address as its public webhook URL, as the queue stack sets it): the execution runs on a
 * worker and waits; the review page is served by main (the resume URL is main's); the submit
 * writes the changed values and resumes the execution, whose run goes to a worker again and
 * comes out with one item per file. Not in .ci/run: it runs in `npm run test:queue`.
 * N8N_E2E_VERSION picks the n8n.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { untilWaiting } from '../../dev/n8n/callback-workflows';
import type { ExecutionRecord } from '../../dev/n8n/n8n-stack';
import { executionOutput, listExecutions, waitForExecution } from '../../dev/n8n/n8n-stack';
import { REVIEW_LINK_NODE, REVIEW_NODE, reviewWorkflow } from '../../dev/n8n/review-workflows';
import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { uploadAndGetFile } from '../emulator/test-helpers';
import { e2eN8nVersion, e2eRuntime, versionEnv, waitFor } from '../e2e/helpers';

const LINK = REVIEW_LINK_NODE;
const REVIEW = REVIEW_NODE;
const WORKFLOW = { id: 'dexQueueReview01', path: 'dex-queue-review', webhookId: '2d8c3a5f-8b1d-4b68-8b7f-22c1d1b2f101' };

describe(`queue mode, n8n ${e2eN8nVersion()}: File > Review Values`, () => {
	let stack: QueueStack;
	let rootDir: string;
	const fileIds: string[] = [];

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-review-'));
		const runtime = await e2eRuntime();
		stack = await startQueueStack({
			rootDir,
			runtime,
			env: versionEnv(runtime),
			build: false,
			workflows: () => [reviewWorkflow({ id: WORKFLOW.id, name: 'queue e2e: a review of two files', webhookPath: WORKFLOW.path, webhookId: WORKFLOW.webhookId, waitHours: 72, files: 'several', options: { reportExportStatus: true } })],
			publish: [WORKFLOW.id],
			log: (line) => process.stderr.write(`[queue review] ${line}\n`),
		});
		for (const name of [INVOICE_FILE_NAME, `second-${INVOICE_FILE_NAME}`]) {
			fileIds.push(((await uploadAndGetFile(stack.emulator, name, invoiceText(), { fileType: 'text/plain' })) as { fileId: string }).fileId);
		}
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	const startedBy = (executionId: string) => Object.entries(stack.workerLogs()).flatMap(([name, text]) => (text.match(new RegExp(`Worker started execution ${executionId} \\(job`, 'g')) ?? []).map(() => name));

	/** Starts an execution for the files through main's production webhook; resolves with its id. */
	async function startReview(): Promise<string> {
		const before = new Set((await listExecutions(stack.main, WORKFLOW.id)).map((execution) => execution.id));
		await waitFor(
			'the webhook to answer',
			async () => {
				const response = await fetch(`${stack.main.url}/webhook/${WORKFLOW.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: fileIds.map((fileId) => ({ fileId })) }) });
				await response.arrayBuffer();
				return response.status === 200 ? true : undefined;
			},
			60_000,
			1000,
		);
		return await waitFor('the new execution', async () => (await listExecutions(stack.main, WORKFLOW.id)).find((execution) => !before.has(execution.id))?.id, 60_000);
	}

	test('the page served by main, the submit, the resumed run on a worker: one item per file', async () => {
		const executionId = await startReview();
		await untilWaiting(stack.main, executionId);
		const links = executionOutput(await stack.main.publicApi<ExecutionRecord>(`/executions/${executionId}?includeData=true`), LINK);
		expect(links.map((item) => item.fileId)).toEqual(fileIds);
		const url = String(links[0].reviewUrl);
		expect(url.startsWith(`${stack.main.url}/webhook-waiting/${executionId}/`)).toBe(true);

		const page = await fetch(url);
		const text = await page.text();
		expect(page.status).toBe(200);
		expect(text).toContain(INVOICE_FILE_NAME);
		expect(text).toContain(`second-${INVOICE_FILE_NAME}`);
		expect(text).toContain('Total Amount');

		const review = {
			files: [
				{ fileId: fileIds[0], decision: 'approve', note: 'Vendor corrected', changes: [{ field: 'Vendor Name', kind: 'string', value: 'Initech' }] },
				{ fileId: fileIds[1], decision: 'reject', note: 'A copy', changes: [] },
			],
		};
		const sent = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payload: JSON.stringify(review) }).toString() });
		const sentText = await sent.text();
		expect({ status: sent.status, sent: sentText.includes('the review has been sent') }).toEqual({ status: 200, sent: true });

		const ended = await waitForExecution(stack.main, executionId, 180_000);
		expect(ended.status).toBe('success');
		const output = executionOutput(ended, REVIEW);
		expect(output).toHaveLength(2);
		expect(output[0]).toMatchObject({ fileId: fileIds[0], decision: 'approved', changes: [{ field: 'Vendor Name', before: 'ACME Supplies Ltd.', after: 'Initech' }], values: { 'Vendor Name': 'Initech' }, exportStatus: { reported: true, status: 'completed' } });
		expect(output[1]).toMatchObject({ fileId: fileIds[1], decision: 'rejected', changes: [], note: 'A copy', exportStatus: { reported: true, status: 'error', messages: ['A copy'] } });
		expect(stack.emulator.requests.filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/values'))).toHaveLength(1);
		expect(fileIds.map((fileId) => stack.emulator.state.files.get(fileId)?.exportInfo?.integrationExportStatus)).toEqual(['completed', 'error']);
		// Two jobs on workers: the run up to the wait, and the run after the submit.
		const workers = await waitFor('both jobs in the worker logs', () => (startedBy(executionId).length >= 2 ? startedBy(executionId) : undefined), 30_000);
		expect(workers).toHaveLength(2);
		expect(workers.every((name) => name.startsWith('worker-'))).toBe(true);
		expect(stack.main.logs()).toMatch(new RegExp(`Enqueued execution ${executionId} \\(job`));
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.main.outboundAttempts()).toEqual([]);
		for (const worker of stack.workers) expect(worker.instance?.outboundAttempts() ?? []).toEqual([]);
	});
});
