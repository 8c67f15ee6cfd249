/**
 * `npm run bench:queue-429`: how many API requests a queue-mode cluster sends inside the pauses
 * the service announced with a 429, with 1 worker and with 2 workers (issue 22, item 6).
 *
 * The node's 429 gate is per API key and per n8n process (nodes/shared/transport/
 * rateGate.ts): a 429 answered to one worker holds that worker's requests only. This bench
 * measures what the other worker sends meanwhile.
 *
 * Setup: the queue stack (dev/n8n/queue: PostgreSQL, Redis, n8n main + 2 workers with the
 * package, the emulator in this process). One workflow, Webhook (answers on receipt) -> Set (a
 * list of `--items` (default 40) numbers) -> Split Out -> Document Extraction Workspace > Get Subscription,
 * one item at a time: one GET /subscription per item, every execution with the same credential.
 * The emulator takes `--delay` ms (default 150) to answer each GET /subscription, like a real API.
 * `--executions` executions (default 8) are started at once through the webhook; each worker
 * runs `--concurrency` (default 4) at a time.
 *
 * Pauses: while executions run, the bench repeats "`--gap` s (default 3) of normal service, then
 * `--pause` s (default 3) in which the service refuses every request with the key": the emulator's
 * rate limit set to 0 requests per `--pause` s window (each refused request announces
 * retryAfter = the rest of the window, rounded up to whole seconds, as the emulator's rate
 * limiter does), then removed.
 *
 * Counting, from the emulator's request log: each 429 announces a pause from the moment it was
 * answered (`time` + `durationMs`) for `retryAfter` s (as in bench/reliability/matrix.ts). An API
 * request is "inside an announced pause" when it arrived strictly inside one. Which worker sent a
 * request: its TCP client port (`remotePort` in the log), looked up in /proc/net/tcp when the
 * request arrives and matched to the socket inodes each worker process holds (/proc/<pid>/fd).
 * A request inside a pause announced to its own worker left before that worker had read the 429
 * (the table gives how many ms after the pause began it arrived); inside only another worker's
 * pause is what a per-process gate lets through.
 *
 * Runs in a temp dir; each phase is bounded (`--phase-timeout`, default 150 s).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { Emulator, RequestLogEntry } from '../dev/emulator';
import type { N8nInstance } from '../dev/n8n/n8n-launcher';
import { ensureN8n } from '../dev/n8n/n8n-runtime';
import { NODE_TYPE, type WorkflowJson } from '../dev/n8n/n8n-stack';
import { startQueueStack, type QueueStack } from '../dev/n8n/queue/queue-stack';
import { CREDENTIALS } from '../dev/n8n/queue/workflows';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	const text = index >= 0 ? process.argv[index + 1] : process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	return text === undefined ? fallback : Number(text);
}

const EXECUTIONS = option('executions', 8);
const ITEMS = option('items', 40);
const CONCURRENCY = option('concurrency', 4);
const PAUSE_S = option('pause', 3);
const GAP_S = option('gap', 3);
const DELAY_MS = option('delay', 150);
const PHASE_TIMEOUT_MS = option('phase-timeout', 150) * 1000;
const BENCH_PATH = 'dex-queue-429-bench';
const WORKFLOW_ID = 'dexQueue429Bench';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

const BENCH_WORKFLOW: WorkflowJson = {
	id: WORKFLOW_ID,
	name: `bench: ${ITEMS} x Get Subscription per execution (429 across workers)`,
	nodes: [
		{
			id: 'r1',
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '3b1f7c52-9a0e-4d8b-8f3c-6e2a1d4b5c71',
			parameters: { httpMethod: 'POST', path: BENCH_PATH, responseMode: 'onReceived', options: {} },
		},
		{
			id: 'r2',
			name: 'Make numbers',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: { mode: 'manual', assignments: { assignments: [{ id: 'a1', name: 'numbers', value: `={{ Array.from({ length: ${ITEMS} }, (_, i) => i) }}`, type: 'array' }] }, options: {} },
		},
		{ id: 'r3', name: 'One item each', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [440, 0], parameters: { fieldToSplitOut: 'numbers', options: {} } },
		{
			id: 'r4',
			name: 'Get Subscription',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [660, 0],
			parameters: { resource: 'workspace', operation: 'getSubscription', options: {} },
			credentials: CREDENTIALS,
		},
	],
	connections: {
		Start: { main: [[{ node: 'Make numbers', type: 'main', index: 0 }]] },
		'Make numbers': { main: [[{ node: 'One item each', type: 'main', index: 0 }]] },
		'One item each': { main: [[{ node: 'Get Subscription', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

/** Which worker process holds the client end of a connection to the emulator's API port. */
class SocketOwners {
	private readonly byInode = new Map<string, string>();
	private pids = new Map<string, number[]>();

	constructor(private readonly apiPort: number) {}

	/** The processes of each worker: its n8n process group (n8n and its task runner). */
	setWorkers(workers: Array<{ name: string; pid: number }>): void {
		const groups = new Map<number, string>(workers.map((worker) => [worker.pid, worker.name]));
		this.pids = new Map(workers.map((worker) => [worker.name, [] as number[]]));
		for (const entry of fs.readdirSync('/proc')) {
			if (!/^\d+$/.test(entry)) continue;
			try {
				const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
				const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				const name = groups.get(Number(fields[2]));
				if (name) this.pids.get(name)!.push(Number(entry));
			} catch {
				// gone meanwhile
			}
		}
	}

	ownerOf(clientPort: number | undefined): string | undefined {
		if (clientPort === undefined) return undefined;
		const inode = this.inodeOf(clientPort);
		if (!inode) return undefined;
		const known = this.byInode.get(inode);
		if (known) return known;
		const link = `socket:[${inode}]`;
		for (const [name, pids] of this.pids) {
			for (const pid of pids) {
				let fds: string[] = [];
				try {
					fds = fs.readdirSync(`/proc/${pid}/fd`);
				} catch {
					continue;
				}
				for (const fd of fds) {
					try {
						if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === link) {
							this.byInode.set(inode, name);
							return name;
						}
					} catch {
						// closed meanwhile
					}
				}
			}
		}
		return undefined;
	}

	/** The inode of the socket whose local end is 127.0.0.1:clientPort and remote end the API port. */
	private inodeOf(clientPort: number): string | undefined {
		const local = `:${clientPort.toString(16).toUpperCase().padStart(4, '0')}`;
		const remote = `:${this.apiPort.toString(16).toUpperCase().padStart(4, '0')}`;
		for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields.length > 9 && fields[1].endsWith(local) && fields[2].endsWith(remote)) return fields[9];
		}
		return undefined;
	}
}

interface ExecutionSummary {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

async function finishedSince(n8n: N8nInstance, sinceMs: number): Promise<ExecutionSummary[]> {
	const page = await n8n.publicApi<{ data: ExecutionSummary[] }>(`/executions?${new URLSearchParams({ workflowId: WORKFLOW_ID, limit: '250' })}`);
	return page.data.filter((execution) => Date.parse(execution.startedAt) >= sinceMs - 1000 && execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status));
}

async function postOnce(url: string): Promise<void> {
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		await response.arrayBuffer();
		if (response.ok) return;
		// A webhook answers 404 for a moment after activation.
		if (response.status !== 404 || attempt > 30) throw new Error(`webhook answered ${response.status}`);
		await sleep(1000);
	}
}

interface Pause {
	from: number;
	to: number;
	worker: string;
}

interface WorkerRow {
	worker: string;
	executions: number;
	requests: number;
	refused: number;
	/** Requests that arrived inside a pause announced to any worker. */
	inside: number;
	/** … inside a pause announced to the worker that sent it (a gate failure if not 0). */
	insideOwn: number;
	/** … inside pauses announced only to other workers (the per-process gate lets them through). */
	insideOthersOnly: number;
	/** Of the requests inside, those the service refused (429). */
	insideRefused: number;
	/** For the requests inside their own worker's pause: how long after that pause began they arrived (ms). */
	ownLateMs: number[];
	/** 429s this worker got per pause episode it took part in: mean and max. */
	refusedPerEpisode: number[];
}

interface PhaseResult {
	label: string;
	workers: number;
	episodes: number;
	wallMs: number;
	failed: number;
	requests: number;
	unattributed: number;
	rows: WorkerRow[];
}

function analyse(label: string, workerNames: string[], entries: RequestLogEntry[], ownerOf: Map<number, string>, wallMs: number, failed: number, executionsByWorker: Record<string, number>): PhaseResult {
	const api = entries.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.endsWith('/subscription'));
	const who = (entry: RequestLogEntry) => ownerOf.get(entry.sequence) ?? '?';
	const pauses: Pause[] = api
		.filter((entry) => entry.status === 429 && entry.durationMs !== undefined && typeof entry.retryAfter === 'number')
		.map((entry) => {
			const from = Date.parse(entry.time) + (entry.durationMs ?? 0);
			return { from, to: from + (entry.retryAfter ?? 0) * 1000, worker: who(entry) };
		})
		.filter((pause) => pause.to > pause.from)
		.sort((a, b) => a.from - b.from);
	// Episodes: overlapping announced pauses merged (one per pause the bench made, normally).
	const episodes: Array<{ from: number; to: number }> = [];
	for (const pause of pauses) {
		const last = episodes.at(-1);
		if (last && pause.from <= last.to) last.to = Math.max(last.to, pause.to);
		else episodes.push({ from: pause.from, to: pause.to });
	}
	const names = [...workerNames, ...(api.some((entry) => who(entry) === '?') ? ['?'] : [])];
	const rows: WorkerRow[] = names.map((worker) => {
		const mine = api.filter((entry) => who(entry) === worker);
		let inside = 0;
		let insideOwn = 0;
		let insideRefused = 0;
		const ownLateMs: number[] = [];
		for (const entry of mine) {
			const at = Date.parse(entry.time);
			const containing = pauses.filter((pause) => at > pause.from && at < pause.to);
			if (!containing.length) continue;
			inside++;
			const own = containing.filter((pause) => pause.worker === worker);
			if (own.length) {
				insideOwn++;
				ownLateMs.push(at - Math.min(...own.map((pause) => pause.from)));
			}
			if (entry.status === 429) insideRefused++;
		}
		// An episode's 429s are those answered between its start and end (the first one opens it).
		const refusedPerEpisode = episodes
			.map((episode) => mine.filter((entry) => entry.status === 429 && entry.durationMs !== undefined && Date.parse(entry.time) + entry.durationMs >= episode.from && Date.parse(entry.time) + entry.durationMs <= episode.to).length)
			.filter((count) => count > 0);
		return {
			worker,
			executions: executionsByWorker[worker] ?? 0,
			requests: mine.length,
			refused: mine.filter((entry) => entry.status === 429).length,
			inside,
			insideOwn,
			insideOthersOnly: inside - insideOwn,
			insideRefused,
			ownLateMs,
			refusedPerEpisode,
		};
	});
	return {
		label,
		workers: workerNames.length,
		episodes: episodes.length,
		wallMs,
		failed,
		requests: api.length,
		unattributed: api.filter((entry) => who(entry) === '?').length,
		rows,
	};
}

function countStarts(logs: Record<string, string>): Record<string, number> {
	return Object.fromEntries(Object.entries(logs).map(([name, text]) => [name, (text.match(/Worker started execution \d+ \(job/g) ?? []).length]));
}

async function phase(label: string, stack: QueueStack, emulator: Emulator, owners: SocketOwners): Promise<PhaseResult> {
	const running = stack.workers.filter((worker) => worker.instance);
	owners.setWorkers(running.map((worker) => ({ name: worker.name, pid: worker.instance!.pid })));
	emulator.faults.clear();
	emulator.setRateLimit(undefined);
	emulator.requests.length = 0;
	emulator.faults.delayNext({ host: 'api', method: 'GET', path: /\/subscription$/, count: 1_000_000, delayMs: DELAY_MS });
	const ownerOf = new Map<number, string>();
	const onRequest = (entry: RequestLogEntry) => {
		if (entry.host !== 'api') return;
		const owner = owners.ownerOf(entry.remotePort);
		if (owner) ownerOf.set(entry.sequence, owner);
	};
	emulator.events.on('request', onRequest);
	const startsBefore = countStarts(stack.workerLogs());
	const started = Date.now();
	try {
		await Promise.all(Array.from({ length: EXECUTIONS }, () => postOnce(`${stack.main.url}/webhook/${BENCH_PATH}`)));
		let finished: ExecutionSummary[] = [];
		let done = false;
		const watcher = (async () => {
			while (!done) {
				finished = await finishedSince(stack.main, started);
				if (finished.length >= EXECUTIONS) done = true;
				else if (Date.now() - started > PHASE_TIMEOUT_MS) {
					// Bounded: what ran so far is measured; the table says how many did not finish.
					process.stderr.write(`[bench:queue-429] ${label}: ${finished.length} of ${EXECUTIONS} executions finished after ${PHASE_TIMEOUT_MS / 1000} s\n`);
					done = true;
				} else await sleep(500);
			}
		})();
		watcher.catch(() => undefined);
		await sleep(1000);
		while (!done && Date.now() - started < PHASE_TIMEOUT_MS) {
			emulator.setRateLimit({ limit: 0, windowMs: PAUSE_S * 1000 });
			await sleep(PAUSE_S * 1000);
			emulator.setRateLimit(undefined);
			for (let waited = 0; waited < GAP_S * 1000 && !done; waited += 250) await sleep(250);
		}
		await watcher;
		const wallMs = finished.length < EXECUTIONS ? Date.now() - started : Math.max(...finished.map((execution) => Date.parse(execution.stoppedAt!))) - started;
		const after = countStarts(stack.workerLogs());
		const executionsByWorker = Object.fromEntries(Object.keys(after).map((name) => [name, after[name] - (startsBefore[name] ?? 0)]));
		return analyse(
			label,
			running.map((worker) => worker.name),
			[...emulator.requests],
			ownerOf,
			wallMs,
			finished.filter((execution) => execution.status !== 'success').length + (EXECUTIONS - finished.length),
			executionsByWorker,
		);
	} finally {
		emulator.events.off('request', onRequest);
		emulator.setRateLimit(undefined);
		emulator.faults.clear();
	}
}

function stats(values: number[]): string {
	if (!values.length) return '-';
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	return `${mean.toFixed(1)} (max ${Math.max(...values)})`;
}

function print(results: PhaseResult[]): void {
	const out = (text: string) => process.stdout.write(text);
	out(
		`\n${EXECUTIONS} executions at once by webhook, ${ITEMS} x Get Subscription each (one item at a time), worker concurrency ${CONCURRENCY}; ` +
			`the service answers each in ${DELAY_MS} ms and refuses every request for ${PAUSE_S} s after every ${GAP_S} s ` +
			`(429, retryAfter = rest of the window rounded up) (n8n 2.41.1, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)})\n\n`,
	);
	out('| setup | worker | executions | requests | 429s | 429s per pause (mean, max) | inside announced pauses | inside its own worker\'s pause (ms after it began, max) | inside only another worker\'s pause | of those inside: refused (429) |\n|---|---|---|---|---|---|---|---|---|---|\n');
	for (const result of results) {
		for (const row of result.rows) {
			out(`| ${result.label} | ${row.worker} | ${row.executions} | ${row.requests} | ${row.refused} | ${stats(row.refusedPerEpisode)} | ${row.inside} | ${row.insideOwn}${row.ownLateMs.length ? ` (${Math.round(Math.max(...row.ownLateMs))} ms)` : ''} | ${row.insideOthersOnly} | ${row.insideRefused} |\n`);
		}
		const total = (pick: (row: WorkerRow) => number) => result.rows.reduce((sum, row) => sum + pick(row), 0);
		out(
			`| ${result.label} | **all** | ${total((row) => row.executions)} | ${result.requests} | ${total((row) => row.refused)} | ${(total((row) => row.refused) / Math.max(1, result.episodes)).toFixed(1)} per pause | ${total((row) => row.inside)} | ${total((row) => row.insideOwn)} | ${total((row) => row.insideOthersOnly)} | ${total((row) => row.insideRefused)} |\n`,
		);
	}
	out('\n| setup | pauses | wall time | failed or unfinished executions | requests not attributed to a worker |\n|---|---|---|---|---|\n');
	for (const result of results) out(`| ${result.label} | ${result.episodes} | ${(result.wallMs / 1000).toFixed(1)} s | ${result.failed} | ${result.unattributed} |\n`);
}

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[bench:queue-429] ${line}\n`);
	const runtime = await ensureN8n({ log });
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-429-bench-'));
	const results: PhaseResult[] = [];
	let stack: QueueStack | undefined;
	try {
		log(`queue mode: main + 2 workers (--concurrency=${CONCURRENCY})`);
		stack = await startQueueStack({
			rootDir: path.join(rootDir, 'queue'),
			runtime,
			workerConcurrency: CONCURRENCY,
			emulator: { processingDelayMs: 0 },
			workflows: () => [BENCH_WORKFLOW],
			publish: [WORKFLOW_ID],
			log,
		});
		const emulator = stack.emulator;
		const owners = new SocketOwners(Number(new URL(emulator.apiUrl).port));
		// One worker: the second one stopped (gracefully) for this phase.
		await stack.workers[1].instance!.stop();
		stack.workers[1].instance = undefined;
		log(`${EXECUTIONS} executions, 1 worker`);
		results.push(await phase(`1 worker x ${CONCURRENCY}`, stack, emulator, owners));
		await stack.startWorker(1);
		log(`${EXECUTIONS} executions, 2 workers`);
		results.push(await phase(`2 workers x ${CONCURRENCY}`, stack, emulator, owners));
	} finally {
		await stack?.stop();
		fs.rmSync(rootDir, { recursive: true, force: true });
	}
	print(results);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
