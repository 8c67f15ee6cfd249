/**
 * What one call to a resume URL costs n8n's main, on an idle stack: CPU time of main's process
 * (utime + stime in /proc/<pid>/stat) and of PostgreSQL (the postmaster and its backends) before
 * and after a fixed number of calls made one at a time, less what each takes when idle over the
 * same time (measured first). Four kinds of call:
 *
 * - to a waiting Upload execution (Wait Mode "When the Service Calls Back"): the intermediate steps
 *   and the final notification the emulator sent for its document (never sent by the emulator: a
 *   `drop` callback fault; the bench sends what it recorded);
 * - to a waiting execution of n8n's Wait node (bench/queue/ceiling.ts): a step it refuses (403),
 *   then the final call that resumes it;
 * - to a waiting Upload execution with a wrong resume token (n8n 2.x's `signature`, the same
 *   length): n8n loads the execution and answers 401 before the node runs, so this row is n8n's
 *   share of a call (on n8n 1.x, which has no token, the call reaches the node);
 * - for no execution: the resume URL of an execution that does not exist;
 * - to a published webhook that answers without starting an execution (bench/queue/ceiling.ts,
 *   `hintWorkflow`): where a callback could land instead of the waiting execution.
 *
 * A final call's cost runs until its execution has finished (main enqueues the resumed run and
 * hears that it ended); the others until their answer.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

import type { Emulator } from '../../dev/emulator';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';
import { countStatus, formatStatuses, postJson, type CeilingNotifier } from './ceiling';
import { executionsSince, postAll } from './executions';

export interface CallCost {
	label: string;
	calls: number;
	/** n8n's answers, e.g. "200 x200". */
	answers: string;
	wallMsPerCall: number;
	mainCpuMsPerCall: number;
	postgresCpuMsPerCall: number;
}

export interface CallCostOptions {
	main: N8nInstance;
	postgresPid: number;
	emulator: Emulator;
	notifier: CeilingNotifier;
	upload: { workflowId: string; path: string };
	ceiling: { workflowId: string; path: string };
	/** The published webhook that starts no execution. */
	hintPath: string;
	hintWorkflowId: string;
	/** Waiting executions made of each workflow (the calls go to them in turn). */
	executions: number;
	/** Calls of each kind but the final ones (one per execution). */
	calls: number;
	log: (line: string) => void;
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of a process (ms), and its parent's pid. */
function stat(pid: number): { cpuMs: number; parent: number } | undefined {
	try {
		const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after "(comm)": state is field 3, ppid 4, utime 14, stime 15.
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS, parent: Number(fields[1]) };
	} catch {
		return undefined;
	}
}

/** CPU time of the postmaster and its children (the backends and PostgreSQL's own workers). */
function postgresCpuMs(postmaster: number): number {
	let total = stat(postmaster)?.cpuMs ?? 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const child = stat(Number(entry));
		if (child?.parent === postmaster) total += child.cpuMs;
	}
	return total;
}

/** Main's idle CPU (ms a second) below which the stack counts as settled. */
const SETTLED_MS = 20;
/** Calls of a kind made before its measure (n8n's code paths warmed). */
const WARM_UP_CALLS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tally(statuses: number[]): string {
	const counts = new Map<number, number>();
	for (const status of statuses) countStatus(counts, status);
	return formatStatuses(counts);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 180_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check().catch(() => false))) {
		if (Date.now() > deadline) throw new Error(`call costs: ${what} did not happen within ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

export async function measureCallCosts(options: CallCostOptions): Promise<CallCost[]> {
	const { main, emulator, notifier, executions: count, calls, log } = options;
	const cpu = () => ({ at: Date.now(), main: stat(main.pid)?.cpuMs ?? 0, postgres: postgresCpuMs(options.postgresPid) });
	// Idle: main keeps working for a while after its start; 5 s windows until it is below SETTLED_MS a second (at most 2 minutes).
	let idleMain = Infinity;
	let idlePostgres = 0;
	for (const deadline = Date.now() + 120_000; idleMain * 1000 > SETTLED_MS && Date.now() < deadline; ) {
		const from = cpu();
		await sleep(5_000);
		const to = cpu();
		idleMain = (to.main - from.main) / (to.at - from.at);
		idlePostgres = (to.postgres - from.postgres) / (to.at - from.at);
	}
	log(`idle: main ${(idleMain * 1000).toFixed(0)} ms of CPU a second, PostgreSQL ${(idlePostgres * 1000).toFixed(0)}`);
	const rows: CallCost[] = [];
	const measure = async (label: string, run: () => Promise<number[]>, warmUp?: () => Promise<unknown>) => {
		for (let call = 0; warmUp && call < WARM_UP_CALLS; call++) await warmUp();
		const before = cpu();
		const statuses = await run();
		const after = cpu();
		const elapsed = after.at - before.at;
		rows.push({
			label,
			calls: statuses.length,
			answers: tally(statuses),
			wallMsPerCall: elapsed / statuses.length,
			mainCpuMsPerCall: (after.main - before.main - idleMain * elapsed) / statuses.length,
			postgresCpuMsPerCall: (after.postgres - before.postgres - idlePostgres * elapsed) / statuses.length,
		});
		log(`${label}: ${rows.at(-1)!.mainCpuMsPerCall.toFixed(1)} ms of main's CPU per call`);
	};
	/** `calls` calls, to the targets in turn, one at a time. */
	const inTurn = async <T>(targets: T[], send: (target: T) => Promise<number>) => {
		const statuses: number[] = [];
		for (let index = 0; index < calls; index++) statuses.push(await send(targets[index % targets.length]));
		return statuses;
	};
	const waiting = async (workflowId: string) =>
		(await main.publicApi<{ data: unknown[] }>(`/executions?${new URLSearchParams({ workflowId, status: 'waiting', limit: '250' })}`)).data.length;
	const finished = async (workflowId: string, since: number) => (await executionsSince(main, workflowId, since)).filter((execution) => execution.status === 'success').length;

	// The Upload: the emulator records its notifications without sending them.
	const mark = emulator.state.callbacks.length;
	const uploadsSince = Date.now();
	emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
	await postAll(`${main.url}/webhook/${options.upload.path}`, count);
	const dropped = () => emulator.state.callbacks.slice(mark).filter((delivery) => delivery.fault === 'drop');
	const isFinal = (payload: Record<string, unknown>) => payload.step === 'processing_finished';
	await until(`${count} Upload executions waiting with their documents processed`, async () => dropped().filter((delivery) => isFinal(delivery.payload)).length >= count && (await waiting(options.upload.workflowId)) >= count);
	emulator.callbackFaults.clear();
	const steps = dropped().filter((delivery) => !isFinal(delivery.payload));
	const finals = dropped().filter((delivery) => isFinal(delivery.payload));
	await measure('to a waiting Upload execution: an intermediate step', () => inTurn(steps, (delivery) => postJson(delivery.url, delivery.payload)), () => postJson(steps[0].url, steps[0].payload));
	const wrongToken = (url: string) => {
		const parsed = new URL(url);
		const token = parsed.searchParams.get('signature') ?? '';
		parsed.searchParams.set('signature', token.replace(/./g, (character) => (character === 'x' ? 'y' : 'x')));
		return parsed.toString();
	};
	await measure(
		"to a waiting Upload execution with a wrong resume token (n8n answers 401 before the node runs)",
		() => inTurn(steps, (delivery) => postJson(wrongToken(delivery.url), delivery.payload)),
		() => postJson(wrongToken(steps[0].url), steps[0].payload),
	);
	await measure('to a waiting Upload execution: the final notification (until the execution ended)', async () => {
		const statuses: number[] = [];
		for (const delivery of finals) statuses.push(await postJson(delivery.url, delivery.payload));
		await until('the resumed Upload executions to finish', async () => (await finished(options.upload.workflowId, uploadsSince)) >= count);
		return statuses;
	});

	// n8n's Wait node: the notifier keeps the resume URLs and calls none.
	notifier.schedule(0, 0);
	const urlsBefore = notifier.resumeUrls.length;
	const ceilingSince = Date.now();
	await postAll(`${main.url}/webhook/${options.ceiling.path}`, count);
	await until(`${count} Wait node executions waiting`, async () => notifier.resumeUrls.length - urlsBefore >= count && (await waiting(options.ceiling.workflowId)) >= count);
	const resumeUrls = notifier.resumeUrls.slice(urlsBefore);
	await measure("to a waiting execution of n8n's Wait node: a step it refuses", () => inTurn(resumeUrls, (url) => notifier.call(url, false)), () => notifier.call(resumeUrls[0], false));
	await measure("to a waiting execution of n8n's Wait node: the final call (until the execution ended)", async () => {
		const statuses: number[] = [];
		for (const url of resumeUrls) statuses.push(await notifier.call(url, true));
		await until('the resumed Wait node executions to finish', async () => (await finished(options.ceiling.workflowId, ceilingSince)) >= count);
		return statuses;
	});

	// No execution: a resume URL whose execution id does not exist.
	const nowhere = new URL(resumeUrls[0]);
	nowhere.pathname = nowhere.pathname.replace(/\/[^/]+$/, '/999999999');
	const step = { status: 'waiting', step: 'processing_started', uploadId: 'none' };
	const toNowhere = () => postJson(nowhere.toString(), step);
	await measure('for no execution (an execution id that does not exist)', () => inTurn([0], toNowhere), toNowhere);
	const toHint = () => postJson(`${main.url}/webhook/${options.hintPath}`, step);
	await measure('to a published webhook that starts no execution (Webhook node, Only Run If false)', () => inTurn([0], toHint), toHint);
	const started = await main.publicApi<{ data: unknown[] }>(`/executions?${new URLSearchParams({ workflowId: options.hintWorkflowId, limit: '250' })}`);
	log(`the published webhook that starts no execution started ${started.data.length}`);
	return rows;
}
