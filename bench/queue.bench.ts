/**
 * `npm run bench:queue`: the package in n8n's queue mode against regular mode, in one run.
 *
 * 1. Throughput: N single-document executions (default 200) started by webhook (Webhook, answer
 *    on receipt -> Upload, wait for completion), the emulator taking `--delay` ms (default 3000) to
 *    process each document so that waiting for extraction dominates. Wall time from the first
 *    POST to the last execution's stoppedAt (n8n's record) and documents per minute, with 1
 *    worker and with 2 workers (each `--concurrency` executions at once, default 10), and in
 *    regular mode (one `n8n start`, SQLite) at N8N_CONCURRENCY_PRODUCTION_LIMIT = the same
 *    concurrency and unlimited (n8n's default).
 * 2. Memory: peak RSS (VmHWM, reset before the run) of each n8n process during a `--mib` (default
 *    1024) multipart upload read from disk, queue-mode worker against the regular-mode process.
 *    Binary data in `filesystem` mode with one shared N8N_STORAGE_PATH (n8n caps `database` mode
 *    at 1024 MiB per file, 512 by default).
 * 3. Requests the node made per document (the emulator's request log: API host and storage host),
 *    queue mode against regular mode. Redis and PostgreSQL round trips are n8n's own.
 *
 * Which worker ran what: the workers' "Worker started execution <id>" log lines.
 * Everything lives in a temp dir (the large file under <cache>/queue/bench-files/, reused).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { invoiceText } from '../dev/documents';
import { diskUploadWorkflow, WEBHOOK_UPLOAD, writeLargeInvoiceFile } from '../dev/n8n/queue/workflows';
import type { N8nInstance } from '../dev/n8n/n8n-launcher';
import { ensureN8n } from '../dev/n8n/n8n-runtime';
import { runWorkflow, startStack, waitForExecution, type Stack, type WorkflowJson } from '../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../dev/n8n/queue/queue-stack';
import type { Emulator } from '../dev/emulator';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	const text = index >= 0 ? process.argv[index + 1] : process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	return text === undefined ? fallback : Number(text);
}

const DOCUMENTS = option('docs', 200);
const DELAY_MS = option('delay', 3000);
const CONCURRENCY = option('concurrency', 10);
const LARGE_MIB = option('mib', 1024);
const POST_PARALLEL = 20;
const BENCH_PATH = 'dex-queue-bench';

const webhookNode = WEBHOOK_UPLOAD.nodes[0];
const uploadNode = WEBHOOK_UPLOAD.nodes[1];
/** Webhook (answers on receipt) -> Upload, wait for completion (no values: the run measures the waiting). */
const BENCH_WEBHOOK: WorkflowJson = {
	id: 'dexQueueBenchHk1',
	name: 'bench: one document by webhook, uploaded and waited for',
	nodes: [
		{ ...webhookNode, webhookId: '8a3e8f8e-1f0d-4b7a-93c4-4d1f2e3a5b61', parameters: { httpMethod: 'POST', path: BENCH_PATH, responseMode: 'onReceived', options: { binaryPropertyName: 'data' } } },
		{ ...uploadNode, parameters: { ...uploadNode.parameters, includeExtractedValues: false } },
	],
	connections: { [webhookNode.name]: { main: [[{ node: uploadNode.name, type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

interface Burst {
	label: string;
	wallMs: number;
	docsPerMinute: number;
	apiRequestsPerDoc: number;
	/** Requests other than status polls (upload initiation, ...): the same in every mode. */
	apiWritesPerDoc: number;
	/** GET /uploads/{id} of Wait for Completion: depends on when each poll falls, so on timing. */
	statusPollsPerDoc: number;
	storageRequestsPerDoc: number;
	failed: number;
	byWorker?: string;
}

interface ExecutionSummary {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

async function executionsSince(n8n: N8nInstance, workflowId: string, sinceMs: number): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ workflowId, limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await n8n.publicApi<{ data: ExecutionSummary[]; nextCursor?: string | null }>(`/executions?${query}`);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
		if (page.data.length && Date.parse(page.data[page.data.length - 1].startedAt) < sinceMs) break;
	} while (cursor);
	return all.filter((execution) => Date.parse(execution.startedAt) >= sinceMs - 1000);
}

async function postAll(url: string, count: number): Promise<void> {
	let next = 0;
	const body = invoiceText();
	const poster = async () => {
		while (next < count) {
			const index = next++;
			for (let attempt = 0; ; attempt++) {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="bench-${index}.txt"` },
					body,
				});
				await response.arrayBuffer();
				if (response.ok) break;
				// A webhook answers 404 for a moment after activation.
				if (response.status !== 404 || attempt > 30) throw new Error(`webhook answered ${response.status}`);
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		}
	};
	await Promise.all(Array.from({ length: POST_PARALLEL }, poster));
}

async function burst(label: string, n8n: N8nInstance, emulator: Emulator, workerLog?: () => Record<string, string>): Promise<Burst> {
	const firstSequence = emulator.requests.at(-1)?.sequence ?? 0;
	const startsBefore = workerLog ? countStarts(workerLog()) : undefined;
	const started = Date.now();
	await postAll(`${n8n.url}/webhook/${BENCH_PATH}`, DOCUMENTS);
	let finished: ExecutionSummary[] = [];
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		const executions = await executionsSince(n8n, BENCH_WEBHOOK.id!, started);
		finished = executions.filter((execution) => execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status));
		if (finished.length >= DOCUMENTS) break;
		if (Date.now() > deadline) throw new Error(`${label}: ${finished.length} of ${DOCUMENTS} executions finished after 30 min`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	const wallMs = Math.max(...finished.map((execution) => Date.parse(execution.stoppedAt!))) - started;
	const requests = emulator.requests.filter((entry) => entry.sequence > firstSequence);
	let byWorker: string | undefined;
	if (workerLog && startsBefore) {
		const after = countStarts(workerLog());
		byWorker = Object.keys(after).map((name) => `${name} ${after[name] - (startsBefore[name] ?? 0)}`).join(', ');
	}
	return {
		label,
		wallMs,
		docsPerMinute: (DOCUMENTS / wallMs) * 60_000,
		apiRequestsPerDoc: requests.filter((entry) => entry.host === 'api').length / DOCUMENTS,
		apiWritesPerDoc: requests.filter((entry) => entry.host === 'api' && !isStatusPoll(entry.method, entry.path)).length / DOCUMENTS,
		statusPollsPerDoc: requests.filter((entry) => entry.host === 'api' && isStatusPoll(entry.method, entry.path)).length / DOCUMENTS,
		storageRequestsPerDoc: requests.filter((entry) => entry.host === 'storage').length / DOCUMENTS,
		failed: finished.filter((execution) => execution.status !== 'success').length,
		byWorker,
	};
}

function isStatusPoll(method: string, requestPath: string): boolean {
	return method === 'GET' && /\/uploads\/[^/]+$/.test(requestPath);
}

function countStarts(logs: Record<string, string>): Record<string, number> {
	return Object.fromEntries(Object.entries(logs).map(([name, text]) => [name, (text.match(/Worker started execution \d+ \(job/g) ?? []).length]));
}

function resetPeak(pid: number): void {
	fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

function memory(pid: number): { rss: number; peak: number } {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
	return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

interface MemoryRow {
	label: string;
	seconds: number;
	before: number;
	peak: number;
}

/** Runs the large upload and reports the peak RSS of each given process above its RSS just before. */
async function largeUpload(label: string, n8n: N8nInstance, processes: Array<{ name: string; pid: number }>, workflowId: string, ranOn?: (executionId: string) => string | undefined): Promise<MemoryRow[]> {
	const before = new Map(processes.map((proc) => {
		resetPeak(proc.pid);
		return [proc.name, memory(proc.pid).rss];
	}));
	const executionId = await runWorkflow(n8n, workflowId, 'Start');
	const execution = await waitForExecution(n8n, executionId, 30 * 60_000);
	if (execution.status !== 'success') throw new Error(`${label}: the ${LARGE_MIB} MiB upload ended ${execution.status}: ${JSON.stringify(execution.data?.resultData.error)}`);
	const seconds = (Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt)) / 1000;
	const worker = ranOn?.(executionId);
	return processes.map((proc) => ({
		label: `${label}: ${proc.name}${worker === proc.name ? ' (ran the upload)' : worker ? ' (idle)' : ''}`,
		seconds,
		before: before.get(proc.name)!,
		peak: memory(proc.pid).peak,
	}));
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[bench:queue] ${line}\n`);
	const runtime = await ensureN8n({ log });
	const filesDir = path.join(runtime.cacheDir, 'queue', 'bench-files');
	fs.mkdirSync(filesDir, { recursive: true });
	const largeFile = path.join(filesDir, `large-invoice-${LARGE_MIB}mib.txt`);
	log(`writing ${largeFile}`);
	writeLargeInvoiceFile(largeFile, LARGE_MIB * 1024 * 1024);
	const large = diskUploadWorkflow('dexQueueBench1G', largeFile, {});
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-bench-'));
	const bursts: Burst[] = [];
	const memoryRows: MemoryRow[] = [];
	let queue: QueueStack | undefined;
	let regular: Stack | undefined;
	try {
		log(`queue mode: main + 2 workers (--concurrency=${CONCURRENCY}), filesystem binary data`);
		queue = await startQueueStack({
			rootDir: path.join(rootDir, 'queue'),
			runtime,
			workerConcurrency: CONCURRENCY,
			binaryDataMode: 'filesystem',
			emulator: { processingDelayMs: DELAY_MS },
			workflows: () => [BENCH_WEBHOOK, large],
			publish: [BENCH_WEBHOOK.id!],
			extraReadableDirs: [filesDir],
			log,
		});
		const q = queue;
		// One worker: the second one stopped (gracefully) for this burst.
		await q.workers[1].instance!.stop();
		q.workers[1].instance = undefined;
		log(`${DOCUMENTS} documents, 1 worker`);
		bursts.push(await burst(`queue, 1 worker x ${CONCURRENCY}`, q.main, q.emulator, q.workerLogs));
		await q.startWorker(1);
		log(`${DOCUMENTS} documents, 2 workers`);
		bursts.push(await burst(`queue, 2 workers x ${CONCURRENCY}`, q.main, q.emulator, q.workerLogs));
		log(`${LARGE_MIB} MiB upload on a worker`);
		memoryRows.push(...(await largeUpload('queue', q.main, q.workers.map((worker) => ({ name: worker.name, pid: worker.instance!.pid })), large.id!, (id) => q.workerOfExecution(id))));
		await q.stop();
		queue = undefined;

		for (const limit of [CONCURRENCY, -1]) {
			log(`regular mode, N8N_CONCURRENCY_PRODUCTION_LIMIT=${limit}`);
			regular = await startStack({
				userFolder: path.join(rootDir, `regular-${limit}`),
				runtime,
				build: false,
				emulator: { processingDelayMs: DELAY_MS },
				workflows: [BENCH_WEBHOOK, large],
				publish: [BENCH_WEBHOOK.id!],
				extraReadableDirs: [filesDir],
				n8n: { env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(limit) } },
			});
			bursts.push(await burst(`regular, concurrency ${limit === -1 ? 'unlimited' : limit}`, regular.n8n, regular.emulator));
			if (limit === CONCURRENCY) {
				log(`${LARGE_MIB} MiB upload in regular mode`);
				memoryRows.push(...(await largeUpload('regular', regular.n8n, [{ name: 'n8n', pid: regular.n8n.pid }], large.id!)));
			}
			await regular.stop();
			regular = undefined;
		}
	} finally {
		await queue?.stop();
		await regular?.stop();
		fs.rmSync(rootDir, { recursive: true, force: true });
	}

	const oneWorker = bursts[0];
	const twoWorkers = bursts[1];
	process.stdout.write(`\n${DOCUMENTS} single-document executions by webhook, emulator processing ${DELAY_MS} ms per document (n8n 2.41.1, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)})\n\n`);
	process.stdout.write('| mode | wall time | docs/min | vs 1 worker | API requests/doc | of which status polls | others | storage requests/doc | failed | executions per worker |\n|---|---|---|---|---|---|---|---|---|---|\n');
	for (const row of bursts) {
		process.stdout.write(
			`| ${row.label} | ${(row.wallMs / 1000).toFixed(1)} s | ${row.docsPerMinute.toFixed(0)} | ${(oneWorker.wallMs / row.wallMs).toFixed(2)}x | ${row.apiRequestsPerDoc.toFixed(2)} | ${row.statusPollsPerDoc.toFixed(2)} | ${row.apiWritesPerDoc.toFixed(2)} | ${row.storageRequestsPerDoc.toFixed(2)} | ${row.failed} | ${row.byWorker ?? '-'} |\n`,
		);
	}
	process.stdout.write(`\n2 workers vs 1 worker: ${(oneWorker.wallMs / twoWorkers.wallMs).toFixed(2)}x (target >= 1.7x)\n`);
	process.stdout.write(`\n${LARGE_MIB} MiB multipart upload read from disk (10 MiB parts, 4 at a time), filesystem binary data\n\n| process | upload s | RSS before MiB | peak RSS MiB | peak above before MiB |\n|---|---|---|---|---|\n`);
	for (const row of memoryRows) {
		process.stdout.write(`| ${row.label} | ${row.seconds.toFixed(1)} | ${mib(row.before)} | ${mib(row.peak)} | ${mib(row.peak - row.before)} |\n`);
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
