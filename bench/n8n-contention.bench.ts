/**
 * Contention in the real n8n: how much a large upload by the Document Extraction node slows down
 * the other work of the same n8n process.
 *
 *   npm run bench:contention [-- --mib 1024 --runs 20 --items 300 --small set|subscription
 *                                --max-uploads 6 --n8n-cpus 0 --no-build]
 *
 * The real n8n (`n8n start`, n8n 2.41.1 on Node 24 as `npm start` runs it, this package installed as
 * a community package; dev/n8n/n8n-stack.ts), filesystem binary data, against the emulator in its
 * own process in storage sink mode (so that storage costs the machine little). Two workflows:
 * - the upload: Manual Trigger -> Read/Write Files (a --mib MiB file of random bytes from disk) ->
 *   Document Extraction File > Upload (Multipart Upload Auto: 10 MB parts, 4 at a time; Wait for
 *   Completion off);
 * - the small workflow, started again and again from the editor's REST endpoint
 *   (POST /rest/workflows/:id/run, as runWorkflow does): by default ("set") n8n's own nodes over
 *   --items items, Manual Trigger -> Edit Fields (an array of --items numbers) -> Split Out ->
 *   Edit Fields (three expressions per item) -> Summarize; with --small subscription, Manual
 *   Trigger -> Document Extraction Workspace > Get Subscription against the emulator.
 * Measured: the small workflow's execution time as n8n records it (stoppedAt - startedAt) over
 * --runs runs without an upload (before the uploads and again after them), and over the runs that
 * started and ended inside an upload's parts phase (first part PUT arriving at the emulator to the
 * last part answered); uploads are repeated (at most --max-uploads) until --runs such runs are
 * collected. One upload first runs alone: its parts-phase throughput and the n8n process's CPU
 * time per GiB (/proc) during it. Every upload's part ETags are checked against the source.
 * --n8n-cpus pins the n8n process (all its threads, `taskset -a`) to those CPUs and the emulator
 * and this process to the others: an approximation of a small n8n box with storage elsewhere.
 * Prints tables; never asserted. Loopback only; every loop is bounded.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startN8n, type N8nInstance } from '../dev/n8n/n8n-launcher';
import { NODE_TYPE, EMULATOR_CREDENTIAL_ID, EMULATOR_CREDENTIAL_NAME, importCredentialsAndWorkflows, prepareUserFolder, runWorkflow, type WorkflowJson } from '../dev/n8n/n8n-stack';
import { verifyParts, writeRandomFile } from './large-file';
import { printTable } from './table';
import { numberFlag, textFlag } from './args';

const MIB = 1024 * 1024;
const ROOT = path.join(__dirname, '..');

const SIZE_MIB = numberFlag('mib', 1024);
const SIZE_BYTES = Math.round(SIZE_MIB * MIB);
const GIB = SIZE_BYTES / (1024 * MIB);
const RUNS = numberFlag('runs', 20);
const ITEMS = numberFlag('items', 300);
const MAX_UPLOADS = numberFlag('max-uploads', 6);
const SMALL = textFlag('small', 'set');
const N8N_CPUS = textFlag('n8n-cpus');
const BUILD = !process.argv.includes('--no-build');
/** The node's default Part Size (10 MB, read as MiB). */
const PART_BYTES = 10 * MIB;
/** Bounds: one execution, the wait for an upload's first part, the whole benchmark. */
const EXECUTION_TIMEOUT_MS = 600_000;
const FIRST_PART_TIMEOUT_MS = 300_000;
const SMALL_RUNS_LIMIT = 1000;

if (!['set', 'subscription'].includes(SMALL)) throw new Error(`--small takes set or subscription, not ${SMALL}`);

const CREDENTIAL = { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } };

function uploadWorkflow(filePath: string): WorkflowJson {
	return {
		id: 'dexBenchContUpld',
		name: `bench: upload ${SIZE_MIB} MiB from disk`,
		nodes: [
			{ id: 'u1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'u2', name: 'Read the large file', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1.1, position: [220, 0], parameters: { operation: 'read', fileSelector: filePath, options: {} } },
			{
				id: 'u3',
				name: 'Upload in parts',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				// Multipart Upload Auto (100 MB threshold), 10 MB parts, 4 at a time: the defaults.
				parameters: { resource: 'file', operation: 'upload', binaryPropertyName: 'data', waitForCompletion: false, options: {} },
				credentials: CREDENTIAL,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Read the large file', type: 'main', index: 0 }]] },
			'Read the large file': { main: [[{ node: 'Upload in parts', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's own nodes over ITEMS items: expressions in Edit Fields, Split Out, Summarize. */
function setWorkflow(): WorkflowJson {
	const assignment = (id: string, name: string, value: string, type: string) => ({ id, name, value, type });
	return {
		id: 'dexBenchContSmal',
		name: `bench: n8n's own nodes over ${ITEMS} items`,
		nodes: [
			{ id: 's1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 's2',
				name: 'Make numbers',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: { mode: 'manual', assignments: { assignments: [assignment('a1', 'numbers', `={{ Array.from({ length: ${ITEMS} }, (_, i) => i) }}`, 'array')] }, options: {} },
			},
			{ id: 's3', name: 'One item each', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [440, 0], parameters: { fieldToSplitOut: 'numbers', options: {} } },
			{
				id: 's4',
				name: 'Compute fields',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [660, 0],
				parameters: {
					mode: 'manual',
					assignments: {
						assignments: [
							assignment('b1', 'double', '={{ $json.numbers * 2 }}', 'number'),
							assignment('b2', 'label', "={{ 'item-' + $json.numbers }}", 'string'),
							assignment('b3', 'even', '={{ $json.numbers % 2 === 0 }}', 'boolean'),
						],
					},
					options: {},
				},
			},
			{
				id: 's5',
				name: 'Summarize',
				type: 'n8n-nodes-base.summarize',
				typeVersion: 1.1,
				position: [880, 0],
				parameters: { fieldsToSummarize: { values: [{ aggregation: 'sum', field: 'double' }, { aggregation: 'count', field: 'label' }] }, options: {} },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Make numbers', type: 'main', index: 0 }]] },
			'Make numbers': { main: [[{ node: 'One item each', type: 'main', index: 0 }]] },
			'One item each': { main: [[{ node: 'Compute fields', type: 'main', index: 0 }]] },
			'Compute fields': { main: [[{ node: 'Summarize', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

function subscriptionWorkflow(): WorkflowJson {
	return {
		id: 'dexBenchContSmal',
		name: 'bench: read the subscription',
		nodes: [
			{ id: 's1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 's2', name: 'Read the subscription', type: NODE_TYPE, typeVersion: 1, position: [220, 0], parameters: { resource: 'workspace', operation: 'getSubscription' }, credentials: CREDENTIAL },
		],
		connections: { Start: { main: [[{ node: 'Read the subscription', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const SMALL_DESCRIPTION =
	SMALL === 'set'
		? `Manual Trigger -> Edit Fields (${ITEMS} numbers) -> Split Out -> Edit Fields (3 expressions per item) -> Summarize`
		: 'Manual Trigger -> Document Extraction Workspace > Get Subscription (against the emulator)';

// ---------------------------------------------------------------------------------------------

interface Emulator {
	api: string;
	key: string;
	pid: number;
	stop: () => void;
}

function startEmulator(): Promise<Emulator> {
	const child = spawn(process.execPath, ['--import', 'tsx', 'dev/emulator/cli.ts', '--port', '0', '--delay', '0', '--storage-sink'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	return new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const api = /API URL:\s+(\S+)/.exec(output)?.[1];
			const key = /API key:\s+(\S+)/.exec(output)?.[1];
			if (api && key && /Ctrl-C/.test(output)) resolve({ api, key, pid: child.pid!, stop: () => child.kill('SIGINT') });
		});
		child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${output}`)));
	});
}

async function emulatorControl<T>(emulator: Emulator, method: string, controlPath: string): Promise<T> {
	const response = await fetch(`${emulator.api}/__emulator${controlPath}`, { method });
	return (await response.json()) as T;
}

interface LogEntry {
	time: string;
	durationMs?: number;
	status: number;
}

async function partPuts(emulator: Emulator): Promise<LogEntry[]> {
	const { requests } = await emulatorControl<{ requests: LogEntry[] }>(emulator, 'GET', '/requests?host=storage&method=PUT');
	return requests;
}

/** User + system CPU seconds of a process so far (Linux /proc, 10 ms ticks). */
function cpuSeconds(pid: number): number {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Execution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

/** Polls n8n's public API (without the execution data) every `intervalMs` until the execution has ended. */
async function ended(n8n: N8nInstance, executionId: string, intervalMs: number): Promise<Execution> {
	const deadline = Date.now() + EXECUTION_TIMEOUT_MS;
	for (;;) {
		const execution = await n8n.publicApi<Execution>(`/executions/${executionId}`);
		if (execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status)) return execution;
		if (Date.now() > deadline) throw new Error(`execution ${executionId} still ${execution.status} after ${EXECUTION_TIMEOUT_MS / 1000} s`);
		await sleep(intervalMs);
	}
}

interface SmallRun {
	ms: number;
	startMs: number;
	stopMs: number;
}

async function runSmall(n8n: N8nInstance): Promise<SmallRun> {
	// Polled often, to start the next run soon; the same polling with and without an upload.
	const execution = await ended(n8n, await runWorkflow(n8n, 'dexBenchContSmal', 'Start'), 25);
	if (execution.status !== 'success') {
		const full = await n8n.publicApi<{ data?: { resultData?: { error?: { message?: string } } } }>(`/executions/${execution.id}?includeData=true`);
		throw new Error(`the small workflow ended ${execution.status}: ${full.data?.resultData?.error?.message ?? 'no error recorded'}`);
	}
	const startMs = Date.parse(execution.startedAt);
	const stopMs = Date.parse(execution.stoppedAt!);
	return { ms: stopMs - startMs, startMs, stopMs };
}

async function smallRuns(n8n: N8nInstance, count: number): Promise<SmallRun[]> {
	const runs: SmallRun[] = [];
	for (let index = 0; index < count; index++) runs.push(await runSmall(n8n));
	return runs;
}

interface UploadResult {
	executionMs: number;
	partsStartMs: number;
	partsEndMs: number;
	n8nCpuSeconds: number;
	during: SmallRun[];
}

/**
 * Runs the upload workflow; once its first part arrives at the emulator, measures the n8n process's
 * CPU until the execution ends and (withSmall) runs the small workflow again and again meanwhile.
 */
async function upload(n8n: N8nInstance, emulator: Emulator, md5s: string[], withSmall: boolean): Promise<UploadResult> {
	await emulatorControl(emulator, 'DELETE', '/requests');
	const executionId = await runWorkflow(n8n, 'dexBenchContUpld', 'Start');
	const firstPartDeadline = Date.now() + FIRST_PART_TIMEOUT_MS;
	while ((await partPuts(emulator)).length === 0) {
		if (Date.now() > firstPartDeadline) throw new Error(`no part arrived within ${FIRST_PART_TIMEOUT_MS / 1000} s of starting the upload`);
		await sleep(20);
	}
	const cpuBefore = cpuSeconds(n8n.pid);
	let finished: Execution | undefined;
	// Polled rarely, so as not to add load of our own while the small workflow is measured.
	const done = ended(n8n, executionId, 500).then((execution) => (finished = execution));
	const tried: SmallRun[] = [];
	while (withSmall && !finished && tried.length < SMALL_RUNS_LIMIT) tried.push(await runSmall(n8n));
	const execution = await done;
	const n8nCpuSeconds = cpuSeconds(n8n.pid) - cpuBefore;
	if (execution.status !== 'success') throw new Error(`the upload execution ${executionId} ended ${execution.status}`);
	await emulatorControl(emulator, 'GET', '/idle');
	const full = await n8n.publicApi<{ data: { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ json: { uploadId?: string } }>> } }>> } } }>(`/executions/${executionId}?includeData=true`);
	const uploadId = full.data.resultData.runData['Upload in parts']?.[0]?.data.main[0]?.[0]?.json.uploadId ?? '';
	await verifyParts(emulator.api, uploadId, SIZE_BYTES, PART_BYTES, md5s);
	const puts = (await partPuts(emulator)).filter((entry) => entry.status === 200);
	const partsStartMs = Math.min(...puts.map((entry) => Date.parse(entry.time)));
	const partsEndMs = Math.max(...puts.map((entry) => Date.parse(entry.time) + (entry.durationMs ?? 0)));
	const during = tried.filter((run) => run.startMs >= partsStartMs && run.stopMs <= partsEndMs);
	return { executionMs: Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt), partsStartMs, partsEndMs, n8nCpuSeconds, during };
}

// ---------------------------------------------------------------------------------------------

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((left, right) => left - right);
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const table = (title: string, header: string[], rows: Array<Array<string | number>>) =>
	printTable(title, header, rows, { format: (cell) => (Number.isInteger(cell) || Math.abs(cell) >= 100 ? cell.toFixed(0) : cell.toFixed(2)), blankLineAfterTitle: true });

/** The CPUs not in `list` (taskset syntax: "0", "0-1", "0,2"), of this machine's. */
function otherCpus(list: string): string {
	const chosen = new Set(
		list.split(',').flatMap((part) => {
			const [from, to] = part.split('-').map(Number);
			return Array.from({ length: (to ?? from) - from + 1 }, (_, index) => from + index);
		}),
	);
	return Array.from({ length: os.cpus().length }, (_, cpu) => cpu)
		.filter((cpu) => !chosen.has(cpu))
		.join(',');
}

function pin(pid: number, cpus: string, allThreads: boolean): void {
	execFileSync('taskset', [...(allThreads ? ['-a'] : []), '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

async function main(): Promise<void> {
	const load = os.loadavg().map((value) => value.toFixed(2)).join(', ');
	console.log(
		`n8n contention benchmark: ${SIZE_MIB} MiB upload, small workflow "${SMALL}" (${SMALL_DESCRIPTION}), ${RUNS} runs each; ${os.cpus().length} CPUs, load average ${load}` +
			(N8N_CPUS ? `; n8n pinned to CPU ${N8N_CPUS}` : ''),
	);
	const largeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-contention-'));
	const largeFile = path.join(largeDir, 'large.bin');
	const md5s = await writeRandomFile(largeFile, SIZE_BYTES, PART_BYTES);
	const emulator = await startEmulator();
	let n8n: N8nInstance | undefined;
	let userFolder: string | undefined;
	try {
		const prepared = await prepareUserFolder({ build: BUILD, extraReadableDirs: [largeDir], log: (line) => console.error(`[prepare] ${line}`) });
		userFolder = prepared.userFolder;
		await importCredentialsAndWorkflows(prepared.cli, { apiUrl: emulator.api }, [uploadWorkflow(largeFile), SMALL === 'set' ? setWorkflow() : subscriptionWorkflow()]);
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env: prepared.env });
		if (N8N_CPUS) {
			const others = otherCpus(N8N_CPUS);
			pin(n8n.pid, N8N_CPUS, true);
			if (others) {
				pin(emulator.pid, others, true);
				pin(process.pid, others, true);
			}
			console.log(`n8n (pid ${n8n.pid}, all threads) on CPU ${N8N_CPUS}; the emulator and this process on CPU ${others || N8N_CPUS}`);
		}

		// Warm-up, not counted: a freshly started n8n runs the workflow slower for a while (on one
		// CPU for a minute or more), so batches of 5 until a batch's median is within 10 % of the
		// previous one's (at most 12 batches).
		let previous = Number.POSITIVE_INFINITY;
		for (let batch = 0; batch < 12; batch++) {
			const current = percentile((await smallRuns(n8n, 5)).map((run) => run.ms), 50);
			if (Math.abs(current - previous) <= 0.1 * previous) break;
			previous = current;
		}
		const before = await smallRuns(n8n, RUNS);
		console.log(`small workflow without an upload: ${before.map((run) => run.ms).join(', ')} ms`);

		const alone = await upload(n8n, emulator, md5s, false);
		const aloneParts = (alone.partsEndMs - alone.partsStartMs) / 1000;
		console.log(`upload alone: execution ${(alone.executionMs / 1000).toFixed(1)} s, parts phase ${aloneParts.toFixed(2)} s = ${(SIZE_MIB / aloneParts).toFixed(0)} MiB/s, n8n CPU ${(alone.n8nCpuSeconds / GIB).toFixed(2)} s/GiB; part ETags match the source`);

		const during: SmallRun[] = [];
		const uploads: UploadResult[] = [];
		while (during.length < RUNS && uploads.length < MAX_UPLOADS) {
			const result = await upload(n8n, emulator, md5s, true);
			uploads.push(result);
			during.push(...result.during);
			const parts = (result.partsEndMs - result.partsStartMs) / 1000;
			console.log(`upload ${uploads.length} with the small workflow alongside: parts phase ${parts.toFixed(2)} s = ${(SIZE_MIB / parts).toFixed(0)} MiB/s; ${result.during.length} small runs inside it: ${result.during.map((run) => run.ms).join(', ')} ms`);
		}
		const after = await smallRuns(n8n, RUNS);
		console.log(`small workflow without an upload, after: ${after.map((run) => run.ms).join(', ')} ms`);

		const without = [...before, ...after].map((run) => run.ms);
		const duringMs = during.map((run) => run.ms);
		const row = (label: string, values: number[]) => [label, values.length, percentile(values, 50), percentile(values, 90), Math.max(...values)];
		table(
			`Small workflow (${SMALL_DESCRIPTION}), execution time in n8n (stoppedAt - startedAt), ms`,
			['when', 'runs', 'median', 'p90', 'max'],
			[
				row('without an upload, before the uploads', before.map((run) => run.ms)),
				row('without an upload, after the uploads', after.map((run) => run.ms)),
				row(`during a ${SIZE_MIB} MiB upload (inside its parts phase)`, duringMs),
			],
		);
		table('During / without (before and after pooled)', ['statistic', 'without ms', 'during ms', 'ratio'], [
			['median', percentile(without, 50), percentile(duringMs, 50), percentile(duringMs, 50) / percentile(without, 50)],
			['p90', percentile(without, 90), percentile(duringMs, 90), percentile(duringMs, 90) / percentile(without, 90)],
			['max', Math.max(...without), Math.max(...duringMs), Math.max(...duringMs) / Math.max(...without)],
		]);
		const uploadRow = (label: string, result: UploadResult) => {
			const parts = (result.partsEndMs - result.partsStartMs) / 1000;
			return [label, result.executionMs / 1000, SIZE_MIB / parts, result.n8nCpuSeconds / GIB];
		};
		table(`The ${SIZE_MIB} MiB uploads (Read/Write Files -> Upload, 10 MB parts, 4 at a time)`, ['upload', 'execution s', 'MiB/s parts phase', 'n8n process CPU s/GiB during the parts phase (alongside: with the small runs)'], [
			uploadRow('alone', alone),
			...uploads.map((result, index) => uploadRow(`${index + 1}, small workflow alongside`, result)),
		]);
		if (during.length < RUNS) console.log(`\nOnly ${during.length} of ${RUNS} small runs fell inside the ${uploads.length} uploads' parts phases (--max-uploads ${MAX_UPLOADS}).`);
		console.log(`\nLoad average at the end: ${os.loadavg().map((value) => value.toFixed(2)).join(', ')}`);
	} finally {
		await n8n?.stop();
		emulator.stop();
		fs.rmSync(largeDir, { recursive: true, force: true });
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
