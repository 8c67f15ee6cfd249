/**
 * Queue-mode smoke (`npm run test:queue:smoke`, run by CI): PostgreSQL 17, Redis, n8n main and
 * two workers with the package, binary data in the database (n8n's queue-mode default).
 * - The disk example, started from main as the editor does, runs on a worker
 *   (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS) and gives the values it gives in regular mode.
 * - A file arriving by webhook on main is uploaded and downloaded on a worker; main serves the
 *   downloaded binary to the editor.
 * Which process ran what comes from n8n's own logs: main's "Enqueued execution <id>" and a
 * worker's "Worker started execution <id>".
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME, invoiceText } from '../fixtures/documents';
import { EXAMPLE_ZIP_FILE_NAME } from '../../scripts/example-documents';
import { executionOutput, readExample, runWorkflow, waitForExecution, listExecutions } from '../../scripts/n8n-stack';
import { startQueueStack, type QueueStack } from '../../scripts/queue/queue-stack';
import { waitFor } from '../e2e/helpers';
import { WEBHOOK_PATH, WEBHOOK_UPLOAD, mainEnqueued, workerThatRan } from './workflows';

const DISK = readExample('extract-documents-from-disk.json');

describe('queue mode smoke: main + 2 workers, PostgreSQL 17, Redis, binary data in the database', () => {
	let stack: QueueStack;
	let rootDir: string;

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-smoke-'));
		stack = await startQueueStack({
			rootDir,
			build: false,
			workflows: (apiUrl) => [readExample('extract-documents-from-disk.json', apiUrl), WEBHOOK_UPLOAD],
			publish: [WEBHOOK_UPLOAD.id!],
			log: (line) => process.stderr.write(`[queue smoke] ${line}\n`),
		});
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	test('the disk example, started on main, runs on a worker with the values of regular mode', async () => {
		const executionId = await runWorkflow(stack.main, DISK.id!, 'Run the example');
		const execution = await waitForExecution(stack.main, executionId, 300_000);
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(mainEnqueued(stack, executionId)).toBe(true);
		expect(await workerThatRan(stack, executionId)).toMatch(/^worker-[12]$/);

		const items = executionOutput(execution, 'Upload, wait and read values');
		const topLevel = items.filter((item) => item.zipUploadId === undefined);
		expect(topLevel.find((item) => item.fileName === INVOICE_PDF_FILE_NAME)).toMatchObject({ status: 'processed', fileClass: 'Invoice', values: INVOICE_EXPECTED });
		expect(topLevel.find((item) => item.fileName === RECEIPT_FILE_NAME)).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });
		const members = items.filter((item) => item.zipUploadId !== undefined);
		expect(members.map((item) => item.zipMemberName).sort()).toEqual(['broken.pdf', 'empty.txt', 'invoice-INV-2024-0042.pdf', 'invoice-INV-2024-0042.txt', RECEIPT_FILE_NAME].sort());
		// One upload per document on disk, as in regular mode.
		const topLevelUploads = [...stack.emulator.state.uploads.values()].filter((upload) => !upload.parentUploadId);
		expect(topLevelUploads.map((upload) => upload.params.fileName).sort()).toEqual([INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, EXAMPLE_ZIP_FILE_NAME].sort());
	});

	test('a file posted to a webhook on main is uploaded and downloaded on a worker; main serves the downloaded file', async () => {
		const text = invoiceText();
		// n8n answers 404 for a moment after activation: retry until the webhook is registered.
		const answer = await waitFor(
			'the webhook to answer',
			async () => {
				const response = await fetch(`${stack.main.url}/webhook/${WEBHOOK_PATH}`, {
					method: 'POST',
					headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="webhook-invoice.txt"' },
					body: text,
				});
				if (response.status === 404) return undefined;
				return { status: response.status, body: await response.text() };
			},
			60_000,
			1000,
		);
		expect(answer.status).toBe(200);
		const answered = JSON.parse(answer.body) as Record<string, unknown>;
		expect(answered).toMatchObject({ fileName: 'webhook-invoice.txt', status: 'processed' });

		const [execution] = await waitFor('the webhook execution', async () => {
			const done = (await listExecutions(stack.main, WEBHOOK_UPLOAD.id!)).filter((record) => record.stoppedAt);
			return done.length ? done : undefined;
		}, 60_000);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		expect(mainEnqueued(stack, execution.id)).toBe(true);
		expect(await workerThatRan(stack, execution.id)).toMatch(/^worker-[12]$/);

		const [uploaded] = executionOutput(execution, 'Upload and wait');
		expect(uploaded).toMatchObject({ fileName: 'webhook-invoice.txt', status: 'processed', values: INVOICE_EXPECTED });
		// The emulator received exactly the bytes posted to main.
		const stored = stack.emulator.state.files.get(String(uploaded.fileId));
		expect(stored?.fileSize).toBe(Buffer.byteLength(text));

		// The Download's binary, written by the worker into the database, as the editor fetches it from main.
		const runs = (execution.data?.resultData.runData['Download it'] ?? []) as Array<{ data?: { main?: Array<Array<{ binary?: Record<string, { id?: string; fileName?: string }> }>> } }>;
		const binary = runs[0]?.data?.main?.[0]?.[0]?.binary?.data;
		expect(binary?.id).toMatch(/^database:/);
		const view = await stack.main.request(`/rest/binary-data?id=${encodeURIComponent(binary!.id!)}&action=view`);
		expect(view.status).toBe(200);
		expect(await view.text()).toBe(text);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.main.outboundAttempts()).toEqual([]);
		for (const worker of stack.workers) expect(worker.instance!.outboundAttempts()).toEqual([]);
	});
});
