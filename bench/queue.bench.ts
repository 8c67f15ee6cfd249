/**
 * `npm run bench:queue`: the package in n8n's queue mode against n8n's own ceilings and regular mode, in one run.
 *
 * 1. Throughput: N single-document executions (default 200) started by webhook, the emulator taking
 *    `--delay` ms (default 3000) to process each document. Wall time from the first POST to the last
 *    execution's stoppedAt (n8n's record) and documents per minute, each worker running
 *    `--concurrency` executions at once (default 10). Four modes, side by side on the same stack:
 *    - polling: Webhook (answers on receipt) -> Upload, Wait Mode "Poll the Service";
 *    - callback wait: the same with "When the Service Calls Back" (the execution waits without a
 *      worker slot until the emulator calls its resume URL);
 *    - ceiling-1 and ceiling-4: Webhook -> n8n's own Wait node, resumed by the bench's notifier with
 *      one call, or sent what the emulator sends per document (three steps the Wait node refuses,
 *      then the final call): bench/queue/ceiling.ts.
 *    Each mode again with `--long-delay` ms of processing (default 60000; 0 leaves it out): polling
 *    over `--long-poll-docs` per worker (default 30: three rounds of the slots), the others over
 *    `--long-callback-docs` (default 300), enough to show each one's steady rate. With 1 worker,
 *    then 2; then regular mode (one `n8n start`, SQLite, polling) at N8N_CONCURRENCY_PRODUCTION_LIMIT
 *    = the same concurrency and unlimited (n8n's default). While a burst runs, the executions n8n
 *    lists as running (each holds a worker slot or waits for one) and as waiting (none) are counted
 *    every second. `--quick`: 1 worker only, no regular mode, no memory. `--costs-only`: section 2
 *    only. `--expression-engine legacy|vm`: N8N_EXPRESSION_ENGINE for every n8n process (n8n
 *    2.41's default is vm: expressions run in an isolated-vm isolate, taken for each call to a
 *    waiting execution).
 * 2. CPU of n8n's main (and PostgreSQL) per call to a resume URL, on the idle stack before the
 *    bursts (bench/queue/call-cost.ts): `--cost-calls` calls of each kind (default 200; 0 leaves it
 *    out) to `--cost-executions` waiting executions (default 20).
 * 3. Memory: peak RSS (VmHWM, reset before the run) of each n8n process during a `--mib` (default
 *    1024) multipart upload read from disk, queue-mode worker against the regular-mode process.
 *    Binary data in `filesystem` mode with one shared N8N_STORAGE_PATH (n8n caps `database` mode
 *    at 1024 MiB per file, 512 by default).
 * 4. Requests the node made per document (the emulator's request log: API host and storage host).
 *    Redis and PostgreSQL round trips are n8n's own.
 *
 * Which worker ran what: the workers' "Worker started execution <id>" log lines.
 * Everything lives in a temp dir (the large file under <cache>/queue/bench-files/, reused).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { callbackUploadWorkflow } from '../dev/n8n/callback-workflows';
import { diskUploadWorkflow, WEBHOOK_UPLOAD, writeLargeInvoiceFile } from '../dev/n8n/queue/workflows';
import type { N8nInstance } from '../dev/n8n/n8n-launcher';
import { SEEDED_KEYS } from '../dev/emulator';
import { ensureN8n } from '../dev/n8n/n8n-runtime';
import { runWorkflow, startStack, waitForExecution, type Stack, type WorkflowJson } from '../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../dev/n8n/queue/queue-stack';
import { textFlag } from './args';
import { burst, type Burst, type BurstTarget, type Mode } from './queue/burst';
import { measureCallCosts, type CallCost } from './queue/call-cost';
import { CEILING_ID, CEILING_PATH, ceilingWorkflow, HINT_PATH, hintWorkflow, startCeilingNotifier, type CeilingNotifier } from './queue/ceiling';
import { leftOutOfList, posts } from './queue/executions';

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
const COST_CALLS = option('cost-calls', 200);
const COST_EXECUTIONS = option('cost-executions', 20);
const QUICK = process.argv.includes('--quick');
/** Only the CPU per call (section 2), then stop. */
const COSTS_ONLY = process.argv.includes('--costs-only');
/** n8n 2.x's expression engine for every process (N8N_EXPRESSION_ENGINE: vm, n8n's default, or legacy); unset: n8n's default. */
const EXPRESSION_ENGINE = textFlag('expression-engine') || undefined;
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

/** Where each mode's executions start. */
function target(mode: Mode, documents: number, processingMs: number): BurstTarget {
	if (mode === 'polling') return { mode, workflowId: BENCH_WEBHOOK.id!, path: BENCH_PATH, documents, processingMs };
	if (mode === 'callbacks') return { mode, workflowId: BENCH_CALLBACK.id!, path: CALLBACK_PATH, documents, processingMs };
	return { mode, workflowId: CEILING_ID, path: CEILING_PATH, documents, processingMs };
}
const MODE_NAMES: Record<Mode, string> = {
	polling: 'polling',
	callbacks: 'callback wait',
	'ceiling-1': "n8n's Wait node, 1 call (ceiling-1)",
	'ceiling-4': "n8n's Wait node, 4 calls (ceiling-4)",
};

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

/** The bursts (each mode as a ratio to n8n's ceilings of the same workers and processing time) and the call costs. */
function printTables(bursts: Burst[], costs: CallCost[]): void {
	const out = (text: string) => process.stdout.write(text);
	const peer = (row: Burst, mode: Mode) => bursts.find((other) => other.mode === mode && other.processingMs === row.processingMs && other.workers === (row.workers ?? 1));
	const ratio = (row: Burst, base: Burst | undefined) => (base ? `${(row.docsPerMinute / base.docsPerMinute).toFixed(2)}x` : '-');
	out(`\nSingle-document executions by webhook (n8n 2.41.1, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 16)}Z); each ratio against the row of that mode with the same workers and processing time (regular mode: against 1 worker)\n\n`);
	out('| mode | processing | documents | wall time | docs/min | of ceiling-1 | of ceiling-4 | vs polling | API requests/doc | of which status checks | others | storage requests/doc | peak listed running (in a slot or queued for one) | peak waiting (no slot) | failed | executions per worker | calls to resume URLs: n8n\'s answers | load average (1 min) after |\n');
	out(`|${' --- |'.repeat(18)}\n`);
	for (const row of bursts) {
		out(
			`| ${row.label} | ${(row.processingMs / 1000).toFixed(0)} s | ${row.documents} | ${(row.wallMs / 1000).toFixed(1)} s | ${row.docsPerMinute.toFixed(0)} | ${ratio(row, peer(row, 'ceiling-1'))} | ${ratio(row, peer(row, 'ceiling-4'))} | ${ratio(row, peer(row, 'polling'))} | ${row.apiRequestsPerDoc.toFixed(2)} | ${row.statusPollsPerDoc.toFixed(2)} | ${row.apiWritesPerDoc.toFixed(2)} | ${row.storageRequestsPerDoc.toFixed(2)} | ${row.peakRunning} | ${row.peakWaiting} | ${row.failed} | ${row.byWorker ?? '-'} | ${row.callAnswers ?? '-'} | ${row.loadAverage.toFixed(1)} |\n`,
		);
	}
	out('\n');
	for (const row of bursts.filter((each) => each.workers === 2)) {
		const one = bursts.find((other) => other.mode === row.mode && other.processingMs === row.processingMs && other.workers === 1);
		if (one) out(`2 workers vs 1 worker, ${row.mode} at ${(row.processingMs / 1000).toFixed(0)} s: ${ratio(row, one)}\n`);
	}
	for (const row of bursts.filter((each) => each.mode === 'callbacks')) {
		const polling = peer(row, 'polling');
		if (!polling) continue;
		out(
			`callback wait vs polling, ${row.workers} worker(s) at ${(row.processingMs / 1000).toFixed(0)} s: ${ratio(row, polling)} documents per minute (${row.docsPerMinute.toFixed(0)} against ${polling.docsPerMinute.toFixed(0)}), ${row.apiRequestsPerDoc.toFixed(2)} against ${polling.apiRequestsPerDoc.toFixed(2)} API requests per document\n`,
		);
	}
	if (costs.length) printCallCosts(costs);
}

/** Printed as soon as measured too (the bursts after them can fail), and again with the bursts. */
function printCallCosts(costs: CallCost[]): void {
	const out = (text: string) => process.stdout.write(text);
	out(`\nCPU per call to a resume URL, n8n main on the idle stack (1 worker), calls one at a time; idle CPU over the same time subtracted; load average (1 min) ${os.loadavg()[0].toFixed(1)}; expression engine ${EXPRESSION_ENGINE ?? "n8n's default"}\n\n| call | calls | n8n's answers | wall ms per call | main CPU ms per call | PostgreSQL CPU ms per call |\n|---|---|---|---|---|---|\n`);
	for (const cost of costs) out(`| ${cost.label} | ${cost.calls} | ${cost.answers} | ${cost.wallMsPerCall.toFixed(1)} | ${cost.mainCpuMsPerCall.toFixed(1)} | ${cost.postgresCpuMsPerCall.toFixed(1)} |\n`);
}

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[bench:queue] ${line}\n`);
	const runtime = await ensureN8n({ log });
	const filesDir = path.join(runtime.cacheDir, 'queue', 'bench-files');
	fs.mkdirSync(filesDir, { recursive: true });
	const largeFile = path.join(filesDir, `large-invoice-${LARGE_MIB}mib.txt`);
	if (!QUICK && !COSTS_ONLY) {
		log(`writing ${largeFile}`);
		writeLargeInvoiceFile(largeFile, LARGE_MIB * 1024 * 1024);
	}
	const large = diskUploadWorkflow('dexQueueBench1G', largeFile, {});
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-bench-'));
	const bursts: Burst[] = [];
	const memoryRows: MemoryRow[] = [];
	let callCosts: CallCost[] = [];
	let queue: QueueStack | undefined;
	let regular: Stack | undefined;
	let notifier: CeilingNotifier | undefined;
	let failed = false;
	try {
		// The Wait node wants the header of the baseline's header-auth credential (x-api-key, the read-write key).
		notifier = await startCeilingNotifier({ name: 'x-api-key', value: SEEDED_KEYS.readWrite });
		const ceiling = ceilingWorkflow(notifier.url);
		const hint = hintWorkflow();
		log(`queue mode: main + 2 workers (--concurrency=${CONCURRENCY}), filesystem binary data`);
		queue = await startQueueStack({
			rootDir: path.join(rootDir, 'queue'),
			runtime,
			workerConcurrency: CONCURRENCY,
			binaryDataMode: 'filesystem',
			emulator: { processingDelayMs: DELAY_MS },
			workflows: () => [BENCH_WEBHOOK, BENCH_CALLBACK, ceiling, hint, large],
			...(EXPRESSION_ENGINE ? { env: { N8N_EXPRESSION_ENGINE: EXPRESSION_ENGINE } } : {}),
			publish: [BENCH_WEBHOOK.id!, BENCH_CALLBACK.id!, ceiling.id!, hint.id!],
			extraReadableDirs: [filesDir],
			log,
		});
		const q = queue;
		// One worker: the second one stopped (gracefully) until the 2-worker rounds.
		await q.workers[1].instance!.stop();
		q.workers[1].instance = undefined;
		if (COST_CALLS > 0) {
			log(`CPU per call on the idle stack: ${COST_CALLS} calls of each kind, ${COST_EXECUTIONS} waiting executions of each workflow`);
			callCosts = await measureCallCosts({
				main: q.main,
				postgresPid: q.postgres.pid,
				emulator: q.emulator,
				notifier,
				upload: { workflowId: BENCH_CALLBACK.id!, path: CALLBACK_PATH },
				ceiling: { workflowId: CEILING_ID, path: CEILING_PATH },
				hintPath: HINT_PATH,
				hintWorkflowId: hint.id!,
				executions: COST_EXECUTIONS,
				calls: COST_CALLS,
				log,
			});
			printCallCosts(callCosts);
		}
		for (const workers of COSTS_ONLY ? [] : QUICK ? [1] : [1, 2]) {
			if (workers === 2) await q.startWorker(1);
			for (const processingMs of LONG_DELAY_MS > 0 ? [DELAY_MS, LONG_DELAY_MS] : [DELAY_MS]) {
				q.emulator.setProcessingDelay(processingMs);
				for (const mode of ['polling', 'callbacks', 'ceiling-1', 'ceiling-4'] as const) {
					// 60 s with polling: three rounds of the slots; the others enough to reach their steady rate.
					const documents = processingMs === DELAY_MS ? DOCUMENTS : mode === 'polling' ? LONG_POLL_DOCS * workers : LONG_CALLBACK_DOCS;
					const label = `queue, ${workers} worker${workers === 1 ? '' : 's'} x ${CONCURRENCY}, ${MODE_NAMES[mode]}`;
					log(`${label}: ${documents} documents of ${processingMs / 1000} s`);
					bursts.push(await burst(label, q.main, q.emulator, target(mode, documents, processingMs), { workers, workerLog: q.workerLogs, notifier }));
					const row = bursts.at(-1)!;
					log(`${label}: ${row.docsPerMinute.toFixed(0)} documents a minute (${(row.wallMs / 1000).toFixed(1)} s, ${row.failed} failed, load average ${row.loadAverage.toFixed(1)})`);
				}
			}
			q.emulator.setProcessingDelay(DELAY_MS);
		}
		if (!QUICK && !COSTS_ONLY) {
			log(`${LARGE_MIB} MiB upload on a worker`);
			memoryRows.push(...(await largeUpload('queue', q.main, q.workers.map((worker) => ({ name: worker.name, pid: worker.instance!.pid })), large.id!, (id) => q.workerOfExecution(id))));
		}
		await q.stop();
		queue = undefined;

		for (const limit of QUICK || COSTS_ONLY ? [] : [CONCURRENCY, -1]) {
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
			bursts.push(await burst(`regular, concurrency ${limit === -1 ? 'unlimited' : limit}, polling`, regular.n8n, regular.emulator, target('polling', DOCUMENTS, DELAY_MS)));
			if (limit === CONCURRENCY) {
				log(`${LARGE_MIB} MiB upload in regular mode`);
				memoryRows.push(...(await largeUpload('regular', regular.n8n, [{ name: 'n8n', pid: regular.n8n.pid }], large.id!)));
			}
			await regular.stop();
			regular = undefined;
		}
	} catch (error) {
		// The processes' logs (n8n.log in each user folder) say why: kept. What was measured is printed.
		failed = true;
		if (bursts.length || callCosts.length) printTables(bursts, callCosts);
		throw error;
	} finally {
		await queue?.stop();
		await regular?.stop();
		await notifier?.close();
		if (process.env.BENCH_KEEP || failed) log(`kept ${rootDir}${failed ? ' (the run failed: n8n.log of each process is in its user folder)' : ''}`);
		else fs.rmSync(rootDir, { recursive: true, force: true });
	}
	for (const [burstLabel, count] of leftOutOfList) process.stderr.write(`[bench:queue] n8n's GET /executions left out ${count} executions of "${burstLabel}" (found by id)\n`);
	if (posts.repeated) process.stderr.write(`[bench:queue] ${posts.repeated} webhook POSTs were sent again (n8n answered 404 or 503)\n`);
	printTables(bursts, callCosts);
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
