/**
 * Queue mode in depth (`npm run test:queue`, with smoke.test.ts): one n8n main, two workers,
 * PostgreSQL 17, Redis, binary data in the database, the emulator. In order:
 * - upload + wait + values, Query, and a 150 MB multipart upload from disk run on workers with
 *   the results of regular mode (test/e2e);
 * - the trigger, activated on main, while both workers run its executions: 300 documents arrive
 *   over several polls and main is restarted half way; every document is emitted once, reported
 *   once, and every execution was enqueued by main and run by a worker;
 * - the Callback Trigger on main (the emulator calls main's URL), executions on the workers: 20
 *   documents, main restarted while their callbacks arrive (the emulator retries what main could not
 *   answer), each document emitted and reported exactly once, also with duplicate deliveries;
 * - main stopped while it reads the values of a callback it has checked: no 200 went out, the
 *   service calls again, the restarted main emits the document once;
 * - a worker SIGKILLed in the middle of a multipart upload: the other worker runs the next
 *   execution, n8n marks the interrupted one failed; n8n's retry of it runs nothing (n8n kept no
 *   run data) and a new run creates exactly one document.
 * Which process ran what comes from n8n's own logs (main: "Enqueued execution <id>", workers:
 * "Worker started execution <id>"), never from timing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS, waitForRequest } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME } from '../../dev/documents';
import {
	CALLBACK_EXAMPLE,
	exampleCallbackUrl,
	executionOutput,
	findNode,
	listExecutions,
	readExample,
	runWorkflow,
	waitForExecution,
	type ExecutionRecord,
} from '../../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { uploadToEmulator, waitFor } from '../e2e/helpers';
import { diskUploadWorkflow, mainEnqueued, workerThatRan, writeLargeInvoiceFile } from '../../dev/n8n/queue/workflows';

const DISK = readExample('extract-documents-from-disk.json');
const QUERY = readExample('query-invoice-totals.json');
const TRIGGER = readExample('trigger-on-processed-files.json');
const TRIGGER_NODE = 'When a document is processed';
// n8n polls at most once a minute per Poll Times entry: six entries poll every 10 seconds.
findNode(TRIGGER, TRIGGER_NODE).parameters.pollTimes = {
	item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
};

const LARGE_BYTES = 150 * 1024 * 1024;
const CRASH_BYTES = 60 * 1024 * 1024;
const TRIGGER_DOCUMENTS = 300;
const CALLBACK = readExample(CALLBACK_EXAMPLE);
const CALLBACK_NODE = 'When the service calls back';
const CALLBACK_DOCUMENTS = 20;

describe('queue mode: main + 2 workers, PostgreSQL 17, Redis, binary data in the database', () => {
	let stack: QueueStack;
	let rootDir: string;
	let filesDir: string;
	let largeFile: string;
	let crashFile: string;
	let large: ReturnType<typeof diskUploadWorkflow>;
	let crash: ReturnType<typeof diskUploadWorkflow>;

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-e2e-'));
		filesDir = path.join(rootDir, 'files');
		fs.mkdirSync(filesDir);
		largeFile = path.join(filesDir, 'large-invoice.txt');
		crashFile = path.join(filesDir, 'crash-invoice.txt');
		writeLargeInvoiceFile(largeFile, LARGE_BYTES);
		writeLargeInvoiceFile(crashFile, CRASH_BYTES);
		large = diskUploadWorkflow('dexQueueLarge001', largeFile, {});
		// 5 MB parts one at a time (slowed down by the emulator below): a long parts phase to crash in.
		crash = diskUploadWorkflow('dexQueueCrash001', crashFile, { multipart: 'always', partSize: 5, partConcurrency: 1 });
		stack = await startQueueStack({
			rootDir,
			build: false,
			extraReadableDirs: [filesDir],
			workflows: (apiUrl) => [readExample('extract-documents-from-disk.json', apiUrl), readExample('query-invoice-totals.json', apiUrl), TRIGGER, CALLBACK, large, crash],
			// n8n's queue recovery (marks executions crashed whose job is gone) every minute instead of every 3 hours.
			env: { N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1' },
			// Callback retries 3, 6, 12, 24 and 48 s after a failure: 93 s, longer than main takes to restart here (up to a minute measured).
			emulator: { callbackRetryBaseMs: 3000 },
			log: (line) => process.stderr.write(`[queue e2e] ${line}\n`),
		});
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	const mainLog = () => fs.readFileSync(path.join(stack.mainFolder, 'n8n.log'), 'utf8');

	/**
	 * Every execution of a workflow once those that emitted `fileIds` have ended, with their data.
	 * n8n's public API leaves out the executions main still counts as running (excludeRunning), and
	 * main hears of a worker's end after the worker's last request: a report can be seen before its
	 * execution is listed (CI and a local run each found one of 20 callback documents missing 5 s
	 * after the 20th report). A document is reported only by the execution that emitted it, so
	 * waiting for the reported ones hides no loss.
	 */
	async function endedExecutions(workflowId: string, nodeName: string, fileIds: Iterable<string>): Promise<ExecutionRecord[]> {
		const expected = [...new Set(fileIds)];
		return await waitFor(
			`the executions of workflow ${workflowId} that emitted ${expected.length} documents, ended with their data`,
			async () => {
				const all = await listExecutions(stack.main, workflowId);
				const ended = all.every((execution) => {
					const result = execution.data?.resultData;
					return execution.stoppedAt && !['new', 'running', 'waiting'].includes(execution.status) && (Object.keys(result?.runData ?? {}).length > 0 || result?.error !== undefined);
				});
				if (!ended) return undefined;
				const emitted = new Set(all.flatMap((execution) => (execution.data?.resultData.runData[nodeName] ? executionOutput(execution, nodeName).map((item) => String(item.fileId)) : [])));
				return expected.every((id) => emitted.has(id)) ? all : undefined;
			},
			120_000,
			1000,
		);
	}

	/** The file ids of the export reports (PATCH) the emulator received after request `after`, in order. */
	function reportedSince(after: number): string[] {
		return stack.emulator.requests.filter((entry) => entry.sequence > after && entry.method === 'PATCH' && entry.host === 'api').map((entry) => entry.path.split('/').pop()!);
	}

	/**
	 * The callback example active on main, its URL the key's default callback URL, while `body` runs
	 * (given the URL and the last request before it); afterwards neither, and no fault left.
	 */
	async function withCallbackTrigger(body: (url: string, firstRequest: number) => Promise<void>): Promise<void> {
		const { emulator } = stack;
		await stack.main.publicApi(`/workflows/${CALLBACK.id}/activate`, { method: 'POST' });
		const url = exampleCallbackUrl(stack.main.url);
		emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, url);
		try {
			await body(url, emulator.requests.at(-1)?.sequence ?? 0);
		} finally {
			emulator.faults.clear();
			emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
			await stack.main.publicApi(`/workflows/${CALLBACK.id}/deactivate`, { method: 'POST' });
		}
	}

	async function runOnWorker(workflowId: string, trigger: string): Promise<{ execution: ExecutionRecord; worker: string | undefined }> {
		const executionId = await runWorkflow(stack.main, workflowId, trigger);
		const execution = await waitForExecution(stack.main, executionId, 600_000);
		expect(mainEnqueued(stack, executionId)).toBe(true);
		return { execution, worker: await workerThatRan(stack, executionId) };
	}

	test('upload + wait + values, then Query, each on a worker, with the results of regular mode', async () => {
		const disk = await runOnWorker(DISK.id!, 'Run the example');
		expect(disk.execution.data?.resultData.error).toBeUndefined();
		expect(disk.worker).toMatch(/^worker-[12]$/);
		const items = executionOutput(disk.execution, 'Upload, wait and read values');
		expect(items.filter((item) => item.status === 'processed')).toHaveLength(5);

		const query = await runOnWorker(QUERY.id!, 'Run the example');
		expect(query.execution.data?.resultData.error).toBeUndefined();
		expect(query.worker).toMatch(/^worker-[12]$/);
		const rows = executionOutput(query.execution, 'Invoices with their totals');
		// The same rows as the CLI suite in regular mode (test/e2e/cli.test.ts).
		expect(rows.map((row) => row.file)).toEqual([INVOICE_PDF_FILE_NAME, INVOICE_PDF_FILE_NAME, INVOICE_FILE_NAME]);
		for (const row of rows) {
			expect(row).toEqual({
				file: row.file,
				invoiceNumber: INVOICE_EXPECTED['Invoice Number'],
				vendor: INVOICE_EXPECTED['Vendor Name'],
				invoiceDate: INVOICE_EXPECTED['Invoice Date'],
				total: INVOICE_EXPECTED['Total Amount'],
				paid: false,
			});
		}
	});

	test('a 150 MB document read from disk on a worker is uploaded in 10 MB parts from database binary data; its values come back', async () => {
		const firstRequest = stack.emulator.requests.at(-1)?.sequence ?? 0;
		const { execution, worker } = await runOnWorker(large.id!, 'Start');
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(worker).toMatch(/^worker-[12]$/);
		const [item, ...rest] = executionOutput(execution, 'Upload in parts');
		expect(rest).toHaveLength(0);
		expect(item).toMatchObject({ fileName: 'large-invoice.txt', fileSize: LARGE_BYTES, status: 'processed', values: INVOICE_EXPECTED });
		const requests = stack.emulator.requests.filter((entry) => entry.sequence > firstRequest);
		const parts = requests.filter((entry) => entry.host === 'storage' && entry.method === 'PUT');
		expect(parts).toHaveLength(LARGE_BYTES / (10 * 1024 * 1024));
		expect(parts.reduce((sum, entry) => sum + entry.bodyBytes, 0)).toBe(LARGE_BYTES);
		expect(requests.filter((entry) => entry.host === 'api' && entry.method === 'POST').map((entry) => entry.path.replace(/^\/prod\/v1/, ''))).toEqual([
			'/files/upload/multipart',
			'/files/upload/multipart/complete',
		]);
	});

	test(`the trigger on main, executions on 2 workers: ${TRIGGER_DOCUMENTS} documents over several polls with a main restart in the middle, each emitted and reported exactly once`, async () => {
		const { emulator } = stack;
		const polls = () => emulator.requests.filter((entry) => entry.method === 'GET' && entry.host === 'api' && /\/files$/.test(entry.path)).length;
		const pollsBefore = polls();
		await stack.main.publicApi(`/workflows/${TRIGGER.id}/activate`, { method: 'POST' });
		await waitFor('the activation poll', () => (polls() > pollsBefore ? true : undefined), 60_000);
		const reportsBefore = emulator.requests.at(-1)?.sequence ?? 0;

		const uploadIds: string[] = [];
		const upload = async (index: number) => {
			const text = `Document Type: Receipt\nReceipt Number: R-Q-${String(index).padStart(3, '0')}\nTotal: ${index}.00\n`;
			uploadIds.push(await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `queue-receipt-${index}.txt`, Buffer.from(text)));
		};
		const batches = 6;
		const perBatch = TRIGGER_DOCUMENTS / batches;
		let restartedAtPoll = 0;
		let firstMainLogLength = 0;
		for (let batch = 0; batch < batches; batch++) {
			await Promise.all(Array.from({ length: perBatch }, (_, offset) => upload(batch * perBatch + offset + 1)));
			if (batch === 2) {
				// Half of the documents are in: restart main while the rest arrive.
				restartedAtPoll = polls();
				firstMainLogLength = mainLog().length;
				await stack.restartMain();
			} else {
				const seen = polls();
				await waitFor('the next poll', () => (polls() > seen ? true : undefined), 60_000, 500);
			}
		}
		const processedIds = await waitFor(
			`${TRIGGER_DOCUMENTS} documents processed`,
			() => {
				const files = [...emulator.state.files.values()].filter((file) => uploadIds.includes(file.uploadId) && file.status === 'processed');
				return files.length === TRIGGER_DOCUMENTS ? files.map((file) => file.fileId) : undefined;
			},
			120_000,
		);
		const reported = () => reportedSince(reportsBefore);
		await waitFor(`${TRIGGER_DOCUMENTS} export reports`, () => (new Set(reported()).size >= TRIGGER_DOCUMENTS ? true : undefined), 240_000, 1000);
		// Two more polls with nothing new: nothing more comes.
		const settled = polls();
		await waitFor('two more polls', () => (polls() >= settled + 2 ? true : undefined), 60_000, 1000);
		const executions = await endedExecutions(TRIGGER.id!, TRIGGER_NODE, reported());
		const emitted = executions.flatMap((execution) => executionOutput(execution, TRIGGER_NODE).map((item) => String(item.fileId)));

		expect(emitted).toHaveLength(TRIGGER_DOCUMENTS);
		expect([...emitted].sort()).toEqual([...processedIds].sort());
		const reports = reported();
		expect(reports).toHaveLength(TRIGGER_DOCUMENTS);
		expect([...reports].sort()).toEqual([...processedIds].sort());
		const log = mainLog();
		const ranOn = new Map<string, number>();
		for (const execution of executions) {
			expect(execution.status).toBe('success');
			expect(execution.mode).toBe('trigger');
			expect(log).toMatch(new RegExp(`Enqueued execution ${execution.id} \\(job`));
			const worker = await workerThatRan(stack, execution.id);
			expect(worker).toMatch(/^worker-[12]$/);
			ranOn.set(worker!, (ranOn.get(worker!) ?? 0) + 1);
		}
		expect(restartedAtPoll).toBeGreaterThan(pollsBefore);
		// Both main processes delivered documents: the one before the restart and the one after.
		const enqueuedBy = (text: string) => executions.filter((execution) => new RegExp(`Enqueued execution ${execution.id} \\(job`).test(text)).length;
		const beforeRestart = enqueuedBy(log.slice(0, firstMainLogLength));
		const afterRestart = enqueuedBy(log.slice(firstMainLogLength));
		expect(beforeRestart).toBeGreaterThan(0);
		expect(afterRestart).toBeGreaterThan(0);
		expect(beforeRestart + afterRestart).toBe(executions.length);
		console.log(
			`trigger: ${TRIGGER_DOCUMENTS} documents in ${executions.length} executions (one per poll that found documents), ${polls() - pollsBefore} polls, main restarted once (${beforeRestart} executions enqueued before, ${afterRestart} after); ` +
				`executions per worker: ${[...ranOn].map(([name, count]) => `${name} ${count}`).join(', ')}`,
		);
		await stack.main.publicApi(`/workflows/${TRIGGER.id}/deactivate`, { method: 'POST' });
	});

	test(`the Callback Trigger on main, executions on the workers: ${CALLBACK_DOCUMENTS} documents, main restarted while they call back, duplicates delivered too; each emitted and reported exactly once`, async () => {
		const { emulator } = stack;
		await withCallbackTrigger(async (url, firstRequest) => {
			const uploadIds: string[] = [];
			const upload = async (index: number) => {
				const text = `Document Type: Receipt\nReceipt Number: R-CB-${String(index).padStart(3, '0')}\nTotal: ${index}.00\n`;
				uploadIds.push(await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `callback-receipt-${index}.txt`, Buffer.from(text)));
			};
			await Promise.all(Array.from({ length: CALLBACK_DOCUMENTS / 2 }, (_, index) => upload(index + 1)));
			// Main is down while the second half is processed: their callbacks find nobody, the emulator retries.
			await stack.main.stop();
			await Promise.all(Array.from({ length: CALLBACK_DOCUMENTS / 2 }, (_, index) => upload(CALLBACK_DOCUMENTS / 2 + index + 1)));
			await emulator.idle();
			await stack.restartMain();
			const processedIds = await waitFor(`${CALLBACK_DOCUMENTS} documents processed`, () => {
				const files = [...emulator.state.files.values()].filter((file) => uploadIds.includes(file.uploadId) && file.status === 'processed');
				return files.length === CALLBACK_DOCUMENTS ? files.map((file) => file.fileId) : undefined;
			}, 120_000);
			const finals = () => emulator.state.callbacks.filter((delivery) => uploadIds.includes(String(delivery.payload.uploadId)) && delivery.payload.step === 'processing_finished');
			await waitFor('every final callback answered 200', () => (finals().length === CALLBACK_DOCUMENTS && finals().every((delivery) => delivery.delivered) ? true : undefined), 180_000, 1000);
			const reported = () => reportedSince(firstRequest);
			const emittedBy = (executions: ExecutionRecord[]) => executions.flatMap((execution) => executionOutput(execution, CALLBACK_NODE).map((item) => String(item.fileId)));
			// Every document emitted by the deliveries the service counts as answered, before any repeat:
			// a callback answered 200 whose execution never started would be missing here (not made up by a repeat below).
			await waitFor(`${CALLBACK_DOCUMENTS} export reports`, () => (new Set(reported()).size >= CALLBACK_DOCUMENTS ? true : undefined), 120_000, 1000);
			const beforeRepeats = await endedExecutions(CALLBACK.id!, CALLBACK_NODE, reported());
			expect([...emittedBy(beforeRepeats)].sort()).toEqual([...processedIds].sort());
			const reportsBeforeRepeats = reported().length;

			// The service delivering each final callback twice more, at once, to main: nothing more is emitted or reported.
			const answers = await Promise.all(finals().flatMap((delivery) => [1, 2].map(async () => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(delivery.payload) })).status)));
			expect(answers.every((status) => status === 200)).toBe(true);
			// Time for an execution a repeat might start (the answer goes out before n8n starts it).
			await new Promise((resolve) => setTimeout(resolve, 5000));
			const executions = await endedExecutions(CALLBACK.id!, CALLBACK_NODE, reported());
			expect(executions.map((execution) => execution.id).sort()).toEqual(beforeRepeats.map((execution) => execution.id).sort());
			expect(reported()).toHaveLength(reportsBeforeRepeats);
			expect([...emittedBy(executions)].sort()).toEqual([...processedIds].sort());
			expect([...reported()].sort()).toEqual([...processedIds].sort());
			for (const execution of executions) {
				expect(execution.status).toBe('success');
				expect(execution.mode).toBe('webhook');
				expect(await workerThatRan(stack, execution.id)).toMatch(/^worker-[12]$/);
			}
			// The emulator delivers one URL's callbacks in order: the first one main could not answer held the others until main was back.
			const retried = emulator.state.callbacks.filter((delivery) => uploadIds.includes(String(delivery.payload.uploadId)) && delivery.attempts > 1);
			expect(retried.length).toBeGreaterThan(0);
			console.log(`callback trigger: ${CALLBACK_DOCUMENTS} documents in ${executions.length} executions on the workers; while main was down the emulator retried (${retried.map((delivery) => `${String(delivery.payload.step)} x${delivery.attempts}`).join(', ')}) and held the later callbacks behind it`);
		});
	});

	test('main stopped while a callback it has checked waits for its values: that call is not answered 200 without a run; the service calls again and the restarted main emits the document once', async () => {
		const { emulator } = stack;
		await withCallbackTrigger(async (url, firstRequest) => {
			// The example reads the values (Include Extracted Values): they answer after 8 s, main is stopped meanwhile.
			emulator.faults.delayNext({ host: 'api', method: 'GET', path: /\/values/, delayMs: 8000, count: 1 });
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, 'stopped-main-receipt.txt', Buffer.from('Document Type: Receipt\nReceipt Number: R-STOP-001\nTotal: 1.00\n'));
			await waitForRequest(emulator, (entry) => entry.sequence > firstRequest && entry.host === 'api' && entry.method === 'GET' && /\/values/.test(entry.path), { timeoutMs: 120_000 });
			await stack.main.stop();
			await stack.restartMain();
			const fileId = await waitFor('the document processed', () => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId, 60_000);
			const final = () => emulator.state.callbacks.find((delivery) => delivery.payload.uploadId === uploadId && delivery.payload.step === 'processing_finished');
			const reported = () => reportedSince(firstRequest);
			// Before n8n answered calls that emit, the 200 went out ahead of the values: the service stopped calling and no run came.
			await waitFor('the document reported by a run of the restarted main', () => (reported().includes(fileId) ? true : undefined), 180_000, 1000);
			const executions = await endedExecutions(CALLBACK.id!, CALLBACK_NODE, [fileId]);
			const emitted = executions.flatMap((execution) => executionOutput(execution, CALLBACK_NODE).map((item) => String(item.fileId)));
			expect(emitted.filter((id) => id === fileId)).toHaveLength(1);
			expect(reported().filter((id) => id === fileId)).toHaveLength(1);
			// The call main was reading values for got no 200: the service called again.
			expect(final()?.statuses.at(-1)).toBe(200);
			expect(final()!.statuses.slice(0, -1).length).toBeGreaterThan(0);
			expect(final()!.statuses.slice(0, -1).every((status) => status !== 200)).toBe(true);
			console.log(`stopped main: the final callback answered ${final()!.statuses.join(', ')} (0: no answer); one execution emitted the document`);
		});
	});

	test('a worker SIGKILLed during a multipart upload: the other worker keeps running executions, n8n marks the execution failed, its retry sends nothing, a new run makes one document', async () => {
		const { emulator } = stack;
		// Each 5 MB part answers after 1.5 s: 12 parts take about 18 s.
		emulator.faults.delayNext({ host: 'storage', method: 'PUT', delayMs: 1500, count: 1000 });
		const firstRequest = emulator.requests.at(-1)?.sequence ?? 0;
		const executionId = await runWorkflow(stack.main, crash.id!, 'Start');
		await waitForRequest(emulator, (entry) => entry.sequence > firstRequest && entry.host === 'storage' && entry.method === 'PUT' && entry.status === 200, { timeoutMs: 120_000 });
		const victim = await workerThatRan(stack, executionId);
		expect(victim).toMatch(/^worker-[12]$/);
		const victimIndex = stack.workers.findIndex((worker) => worker.name === victim);
		const partsBeforeKill = emulator.requests.filter((entry) => entry.sequence > firstRequest && entry.host === 'storage' && entry.method === 'PUT').length;
		await stack.killWorker(victimIndex);
		emulator.faults.clear();

		// The other worker keeps going: the query runs on it.
		const other = await runOnWorker(QUERY.id!, 'Run the example');
		expect(other.execution.status).toBe('success');
		expect(other.worker).toBe(stack.workers[1 - victimIndex].name);

		// n8n notices: the job's lock expires, Bull fails the stalled job (n8n sets maxStalledCount 0:
		// no other worker reruns it) and main marks the execution failed ("failed to be processed too
		// many times"); had main missed that, queue recovery would mark it crashed.
		const interrupted = await waitFor(
			'the interrupted execution to be marked',
			async () => {
				const record = await stack.main.publicApi<ExecutionRecord>(`/executions/${executionId}?includeData=true`);
				return ['crashed', 'error', 'failed'].includes(record.status) ? record : undefined;
			},
			240_000,
			2000,
		);
		// Nobody ran it again: no worker logged a second start, no further parts arrived.
		const starts = Object.values(stack.workerLogs()).join('\n').match(new RegExp(`Worker started execution ${executionId} \\(`, 'g')) ?? [];
		expect(starts).toHaveLength(1);
		const multipartsOfCrash = () => [...emulator.state.multiparts.values()].filter((record) => record.totalSize === CRASH_BYTES);
		expect(multipartsOfCrash()).toHaveLength(1);
		expect(multipartsOfCrash()[0].completed).toBe(false);
		const filesOfCrash = () => [...emulator.state.files.values()].filter((file) => file.fileName === 'crash-invoice.txt');
		expect(filesOfCrash()).toHaveLength(0);

		// The user retries it (the editor's "Retry with original workflow"). n8n 2.41 stored the
		// stalled execution with empty run data (workflow-runner: runData {} beside the error), so
		// its retry has nothing to resume and ends at once with the same error: no request, no document.
		await stack.startWorker(victimIndex);
		const beforeRetry = emulator.requests.at(-1)?.sequence ?? 0;
		await stack.main.rest(`/executions/${executionId}/retry`, { body: { loadWorkflow: false } });
		const retry = await waitFor('the retry execution', async () => {
			const all = await listExecutions(stack.main, crash.id!);
			return all.find((record) => record.id !== executionId && record.stoppedAt && record.mode === 'retry');
		}, 300_000, 1000);
		expect(retry.status).toBe('error');
		expect(Object.keys(retry.data?.resultData.runData ?? {})).toEqual([]);
		expect(emulator.requests.filter((entry) => entry.sequence > beforeRetry)).toEqual([]);
		expect(filesOfCrash()).toHaveLength(0);

		// So the user runs the workflow again: one document, since the interrupted upload never completed.
		const again = await runOnWorker(crash.id!, 'Start');
		expect(again.execution.data?.resultData.error).toBeUndefined();
		expect(again.worker).toMatch(/^worker-[12]$/);
		expect(executionOutput(again.execution, 'Upload in parts')[0]).toMatchObject({ fileName: 'crash-invoice.txt', fileSize: CRASH_BYTES, status: 'processed', values: INVOICE_EXPECTED });
		expect(filesOfCrash()).toHaveLength(1);
		expect(multipartsOfCrash()).toHaveLength(2);
		expect(multipartsOfCrash().filter((record) => record.completed)).toHaveLength(1);
		console.log(
			`crash: ${victim} killed after ${partsBeforeKill} of ${CRASH_BYTES / (5 * 1024 * 1024)} parts; execution ${executionId} became "${interrupted.status}" ` +
				`(${interrupted.data?.resultData.error?.message ?? JSON.stringify(interrupted.data?.resultData.error)}); n8n's retry ${retry.id} ended "${retry.status}" without a request; ` +
				`the run again (${again.execution.id}) on ${again.worker}; documents named crash-invoice.txt: ${filesOfCrash().length}`,
		);
	});
});
