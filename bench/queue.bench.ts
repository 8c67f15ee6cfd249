/**
 * `npm run bench:queue`: the package in n8n's queue mode against regular mode, in one run.
 *
 * 1. Throughput: N single-document executions (default 200) started by webhook (Webhook, answer
 *    on receipt -> Upload, wait for completion), the emulator taking `--delay` ms (default 3000) to
 *    process each document so that waiting for extraction dominates. Wall time from the first
 *    POST to the last execution's stoppedAt (n8n's record) and documents per minute, with 1
 *    worker and with 2 workers (each `--concurrency` executions at once, default 10), and in
 *    regular mode (one `n8n start`, SQLite) at N8N_CONCURRENCY_PRODUCTION_LIMIT = the same
 *    concurrency and unlimited (n8n's default). With 1 worker both wait modes: polling (Wait Mode
 *    "Poll the Service") and callbacks ("When the Service Calls Back": the execution waits without
 *    a worker slot until the emulator calls back); then both again with `--long-delay` ms of
 *    processing (default 60000) over `--long-poll-docs` (default 30) and `--long-callback-docs`
 *    (default 300) documents, enough to show each mode's steady rate. While a burst runs, the
 *    executions n8n lists as running (each holds a worker slot) and as waiting (none) are counted
 *    every second. `--quick` runs only the 1-worker rows (no 2 workers, regular mode or memory).
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
import { callbackUploadWorkflow } from '../dev/n8n/callback-workflows';
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
const LONG_DELAY_MS = option('long-delay', 60_000);
const LONG_POLL_DOCS = option('long-poll-docs', 30);
const LONG_CALLBACK_DOCS = option('long-callback-docs', 300);
const QUICK = process.argv.includes('--quick');
const POST_PARALLEL = 20;
const BENCH_PATH = 'dex-queue-bench';
const CALLBACK_PATH = 'dex-queue-bench-callback';

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
/** The same with Wait Mode "When the Service Calls Back" (no values). */
const BENCH_CALLBACK = callbackUploadWorkflow({
	id: 'dexQueueBenchCb1',
	name: 'bench: one document by webhook, uploaded, waiting for the callbacks',
	webhookPath: CALLBACK_PATH,
	webhookId: '9b4f9f9f-2e1e-4c8b-a4d5-5e2f3f4b6c72',
	documents: { postedFile: true },
	includeValues: false,
	after: 'none',
});

interface BurstTarget {
	workflowId: string;
	path: string;
	documents: number;
}

const POLLING = (documents: number): BurstTarget => ({ workflowId: BENCH_WEBHOOK.id!, path: BENCH_PATH, documents });
const CALLBACKS = (documents: number): BurstTarget => ({ workflowId: BENCH_CALLBACK.id!, path: CALLBACK_PATH, documents });

interface Burst {
	label: string;
	documents: number;
	processingMs: number;
	wallMs: number;
	/** Most executions n8n listed as running at once: in a worker slot, or (queue mode) created and queued for one … */
	peakRunning: number;
	/** … and as waiting (holding none). */
	peakWaiting: number;
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

/**
 * Executions of the workflow that the list left out. n8n 2.41.1 in queue mode left 6 of 200
 * finished callback executions out of `GET /executions` (measured; `GET /executions/{id}` gives
 * them, finished). A burst's executions are the only ones n8n makes meanwhile, so their ids are
 * consecutive: the ids around and between the listed ones are asked for one by one.
 */
async function executionsLeftOut(n8n: N8nInstance, workflowId: string, sinceMs: number, listed: ExecutionSummary[], expected: number, cache: Map<string, ExecutionSummary | null>): Promise<ExecutionSummary[]> {
	if (listed.length === 0) return [];
	const ids = new Set(listed.map((execution) => Number(execution.id)));
	const lowest = Math.min(...ids);
	const highest = Math.max(...ids);
	const found: ExecutionSummary[] = [];
	for (let id = Math.max(1, lowest - (expected - listed.length)); id <= highest + (expected - listed.length); id++) {
		if (ids.has(id)) continue;
		const key = String(id);
		let execution = cache.get(key);
		if (execution === undefined || execution?.stoppedAt === null) {
			execution = await n8n.publicApi<ExecutionSummary & { workflowId: string }>(`/executions/${id}`).then(
				(record) => (record.workflowId === workflowId && Date.parse(record.startedAt) >= sinceMs - 1000 ? record : null),
				() => null,
			);
			cache.set(key, execution);
		}
		if (execution) found.push(execution);
	}
	return found;
}

/** n8n's answers to a webhook POST that mean "send it again": 404 just after activation, 503 while main cannot reach its database. */
const POST_AGAIN = new Set([404, 503]);
let postsRepeated = 0;
/** Executions n8n's list left out, by workflow (found one by one instead). */
const leftOutOfList = new Map<string, number>();

async function postAll(url: string, count: number): Promise<void> {
	// One document per execution, posted as the webhook's binary.
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
				if (!POST_AGAIN.has(response.status) || attempt > 60) throw new Error(`webhook answered ${response.status}`);
				postsRepeated += 1;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		}
	};
	await Promise.all(Array.from({ length: POST_PARALLEL }, poster));
}

/** Counts, every second until stopped, the workflow's executions n8n lists as running and as waiting; returns the peaks. */
function sampleSlots(n8n: N8nInstance, workflowId: string): { stop(): Promise<{ running: number; waiting: number }> } {
	let running = 0;
	let waiting = 0;
	let stopped = false;
	const count = async (status: string) => (await n8n.publicApi<{ data: unknown[] }>(`/executions?${new URLSearchParams({ workflowId, status, limit: '250' })}`)).data.length;
	const loop = (async () => {
		while (!stopped) {
			try {
				running = Math.max(running, await count('running'));
				waiting = Math.max(waiting, await count('waiting'));
			} catch {
				// a sample lost: the next one counts
			}
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	})();
	return {
		async stop() {
			stopped = true;
			await loop;
			return { running, waiting };
		},
	};
}

async function burst(label: string, n8n: N8nInstance, emulator: Emulator, target: BurstTarget, workerLog?: () => Record<string, string>): Promise<Burst> {
	const firstSequence = emulator.requests.at(-1)?.sequence ?? 0;
	const startsBefore = workerLog ? countStarts(workerLog()) : undefined;
	const started = Date.now();
	const slots = sampleSlots(n8n, target.workflowId);
	await postAll(`${n8n.url}/webhook/${target.path}`, target.documents);
	let finished: ExecutionSummary[] = [];
	const deadline = Date.now() + 60 * 60_000;
	const leftOutCache = new Map<string, ExecutionSummary | null>();
	let sameCountSince = Date.now();
	let lastCount = -1;
	for (;;) {
		let executions: ExecutionSummary[];
		try {
			executions = await executionsSince(n8n, target.workflowId, started);
		} catch (error) {
			// n8n answers 503 "Database is not ready!" while its database check is late (a loaded machine): ask again.
			process.stderr.write(`[bench:queue] ${label}: listing executions failed (${(error as Error).message.slice(0, 80)}), asking again\n`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			continue;
		}
		if (executions.length !== lastCount) {
			lastCount = executions.length;
			sameCountSince = Date.now();
		}
		// The list stopped growing short of the burst: look for the executions it leaves out.
		if (executions.length < target.documents && Date.now() - sameCountSince > 10_000) {
			const leftOut = await executionsLeftOut(n8n, target.workflowId, started, executions, target.documents, leftOutCache);
			if (leftOut.length) leftOutOfList.set(`${label}, ${target.documents} documents`, leftOut.length);
			executions = [...executions, ...leftOut];
		}
		finished = executions.filter((execution) => execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status));
		if (finished.length >= target.documents) break;
		if (Date.now() > deadline) throw new Error(`${label}: ${finished.length} of ${target.documents} executions finished after 60 min`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	const peaks = await slots.stop();
	const wallMs = Math.max(...finished.map((execution) => Date.parse(execution.stoppedAt!))) - started;
	const requests = emulator.requests.filter((entry) => entry.sequence > firstSequence);
	let byWorker: string | undefined;
	if (workerLog && startsBefore) {
		const after = countStarts(workerLog());
		byWorker = Object.keys(after).map((name) => `${name} ${after[name] - (startsBefore[name] ?? 0)}`).join(', ');
	}
	const perDoc = (count: number) => count / target.documents;
	return {
		label,
		documents: target.documents,
		processingMs: currentDelay,
		wallMs,
		peakRunning: peaks.running,
		peakWaiting: peaks.waiting,
		docsPerMinute: (target.documents / wallMs) * 60_000,
		apiRequestsPerDoc: perDoc(requests.filter((entry) => entry.host === 'api').length),
		apiWritesPerDoc: perDoc(requests.filter((entry) => entry.host === 'api' && !isStatusPoll(entry.method, entry.path)).length),
		statusPollsPerDoc: perDoc(requests.filter((entry) => entry.host === 'api' && isStatusPoll(entry.method, entry.path)).length),
		storageRequestsPerDoc: perDoc(requests.filter((entry) => entry.host === 'storage').length),
		failed: finished.filter((execution) => execution.status !== 'success').length,
		byWorker,
	};
}

/** The emulator's processing time of the bursts run now (set with setDelay). */
let currentDelay = DELAY_MS;
function setDelay(emulator: Emulator, ms: number): void {
	currentDelay = ms;
	emulator.setProcessingDelay(ms);
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
	if (!QUICK) {
		log(`writing ${largeFile}`);
		writeLargeInvoiceFile(largeFile, LARGE_MIB * 1024 * 1024);
	}
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
			workflows: () => [BENCH_WEBHOOK, BENCH_CALLBACK, large],
			publish: [BENCH_WEBHOOK.id!, BENCH_CALLBACK.id!],
			extraReadableDirs: [filesDir],
			log,
		});
		const q = queue;
		// One worker: the second one stopped (gracefully) for these bursts.
		await q.workers[1].instance!.stop();
		q.workers[1].instance = undefined;
		log(`${DOCUMENTS} documents, 1 worker, polling`);
		bursts.push(await burst(`queue, 1 worker x ${CONCURRENCY}, polling`, q.main, q.emulator, POLLING(DOCUMENTS), q.workerLogs));
		log(`${DOCUMENTS} documents, 1 worker, callbacks`);
		bursts.push(await burst(`queue, 1 worker x ${CONCURRENCY}, callbacks`, q.main, q.emulator, CALLBACKS(DOCUMENTS), q.workerLogs));
		if (LONG_DELAY_MS > 0) {
			setDelay(q.emulator, LONG_DELAY_MS);
			log(`${LONG_POLL_DOCS} documents of ${LONG_DELAY_MS} ms, 1 worker, polling`);
			bursts.push(await burst(`queue, 1 worker x ${CONCURRENCY}, polling`, q.main, q.emulator, POLLING(LONG_POLL_DOCS), q.workerLogs));
			log(`${LONG_CALLBACK_DOCS} documents of ${LONG_DELAY_MS} ms, 1 worker, callbacks`);
			bursts.push(await burst(`queue, 1 worker x ${CONCURRENCY}, callbacks`, q.main, q.emulator, CALLBACKS(LONG_CALLBACK_DOCS), q.workerLogs));
			setDelay(q.emulator, DELAY_MS);
		}
		if (!QUICK) {
			await q.startWorker(1);
			log(`${DOCUMENTS} documents, 2 workers`);
			bursts.push(await burst(`queue, 2 workers x ${CONCURRENCY}, polling`, q.main, q.emulator, POLLING(DOCUMENTS), q.workerLogs));
			log(`${LARGE_MIB} MiB upload on a worker`);
			memoryRows.push(...(await largeUpload('queue', q.main, q.workers.map((worker) => ({ name: worker.name, pid: worker.instance!.pid })), large.id!, (id) => q.workerOfExecution(id))));
		}
		await q.stop();
		queue = undefined;

		for (const limit of QUICK ? [] : [CONCURRENCY, -1]) {
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
			bursts.push(await burst(`regular, concurrency ${limit === -1 ? 'unlimited' : limit}, polling`, regular.n8n, regular.emulator, POLLING(DOCUMENTS)));
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
		if (process.env.BENCH_KEEP) log(`kept ${rootDir}`);
		else fs.rmSync(rootDir, { recursive: true, force: true });
	}
	for (const [burstLabel, count] of leftOutOfList) process.stderr.write(`[bench:queue] n8n's GET /executions left out ${count} executions of "${burstLabel}" (found by id)\n`);
	if (postsRepeated) process.stderr.write(`[bench:queue] ${postsRepeated} webhook POSTs were sent again (n8n answered 404 or 503)\n`);

	const baselineOf = (row: Burst) => bursts.find((other) => other.processingMs === row.processingMs && other.label.startsWith('queue, 1 worker') && other.label.endsWith('polling'))!;
	process.stdout.write(`\nSingle-document executions by webhook (n8n 2.41.1, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}); "vs polling": against the 1-worker polling row of the same processing time\n\n`);
	process.stdout.write('| mode | processing | documents | wall time | docs/min | vs polling | API requests/doc | of which status checks | others | storage requests/doc | peak listed running (in a slot or queued for one) | peak waiting (no slot) | failed | executions per worker |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n');
	for (const row of bursts) {
		const baseline = baselineOf(row);
		process.stdout.write(
			`| ${row.label} | ${(row.processingMs / 1000).toFixed(0)} s | ${row.documents} | ${(row.wallMs / 1000).toFixed(1)} s | ${row.docsPerMinute.toFixed(0)} | ${baseline ? (row.docsPerMinute / baseline.docsPerMinute).toFixed(2) + 'x' : '-'} | ${row.apiRequestsPerDoc.toFixed(2)} | ${row.statusPollsPerDoc.toFixed(2)} | ${row.apiWritesPerDoc.toFixed(2)} | ${row.storageRequestsPerDoc.toFixed(2)} | ${row.peakRunning} | ${row.peakWaiting} | ${row.failed} | ${row.byWorker ?? '-'} |\n`,
		);
	}
	const twoWorkers = bursts.find((row) => row.label.startsWith('queue, 2 workers'));
	if (twoWorkers) process.stdout.write(`\n2 workers vs 1 worker (polling): ${(twoWorkers.docsPerMinute / baselineOf(twoWorkers).docsPerMinute).toFixed(2)}x (target >= 1.7x)\n`);
	for (const [callbacks, polling] of bursts.filter((row) => row.label.endsWith('callbacks')).map((row) => [row, baselineOf(row)] as const)) {
		process.stdout.write(
			`callbacks vs polling at ${(callbacks.processingMs / 1000).toFixed(0)} s: ${(callbacks.docsPerMinute / polling.docsPerMinute).toFixed(2)}x documents per minute (${callbacks.docsPerMinute.toFixed(0)} against ${polling.docsPerMinute.toFixed(0)}), ${callbacks.apiRequestsPerDoc.toFixed(2)} against ${polling.apiRequestsPerDoc.toFixed(2)} API requests per document\n`,
		);
	}
	if (memoryRows.length) {
		process.stdout.write(`\n${LARGE_MIB} MiB multipart upload read from disk (10 MiB parts, 4 at a time), filesystem binary data\n\n| process | upload s | RSS before MiB | peak RSS MiB | peak above before MiB |\n|---|---|---|---|---|\n`);
		for (const row of memoryRows) {
			process.stdout.write(`| ${row.label} | ${row.seconds.toFixed(1)} | ${mib(row.before)} | ${mib(row.peak)} | ${mib(row.peak - row.before)} |\n`);
		}
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
