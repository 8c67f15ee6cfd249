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

import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME } from '../../dev/documents';
import { EXAMPLE_ZIP_FILE_NAME } from '../../dev/example-documents';
import { executionOutput, readExample, runWorkflow, waitForExecution } from '../../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { webhookFileThroughWorker } from './webhook-check';
import { WEBHOOK_UPLOAD, mainEnqueued, workerThatRan } from '../../dev/n8n/queue/workflows';

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
		const binaryId = await webhookFileThroughWorker(stack);
		expect(binaryId).toMatch(/^database:/);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.main.outboundAttempts()).toEqual([]);
		for (const worker of stack.workers) expect(worker.instance!.outboundAttempts()).toEqual([]);
	});
});
