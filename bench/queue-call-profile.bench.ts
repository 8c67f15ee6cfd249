/**
 * `npm run bench:call-profile`: where n8n's main spends its CPU on a call to a waiting Upload
 * execution (issue 41: what a callback costs n8n, and how much of it is the node's webhook()).
 *
 * One `n8n start` (SQLite, n8n 2.41.1 unless N8N_E2E_VERSION says otherwise) runs with V8's CPU
 * profiler (`--cpu-prof`, 1 ms samples, written when n8n stops). `--executions` (default 20)
 * executions of Webhook -> Upload (Wait Mode "When the Service Calls Back") wait with their
 * documents processed (the emulator records its callbacks and sends none); then `--calls` (default
 * 600) of the intermediate steps it recorded are sent to their resume URLs, one at a time. The
 * samples taken while the calls ran (V8 stamps them with the system's monotonic clock, which the
 * bench reads too) are attributed by self time: to the package's code (the installed package's
 * files), n8n's, the libraries n8n uses, Node's, V8's. Prints ms per call of each and the top
 * frames. V8's sampler sees the main thread only (n8n's work for a call is on it).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { callbackUploadWorkflow } from '../dev/n8n/callback-workflows';
import { numberFlag } from './args';
import { headlessEnv } from '../dev/n8n/n8n-env';
import { startStack, type Stack } from '../dev/n8n/n8n-stack';
import { postJson } from './queue/ceiling';
import { postAll } from './queue/executions';

const EXECUTIONS = numberFlag('executions', 20);
const CALLS = numberFlag('calls', 600);
const PATH = 'dex-call-profile';
const PACKAGE = 'n8n-nodes-document-extraction';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
interface CpuProfile {
	/** µs of the system's monotonic clock. */
	startTime: number;
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 180_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

const INSTALLED_PACKAGE = `/node_modules/${PACKAGE}/`;

/** Where a frame's code lives: the package, n8n (and its libraries), Node itself, or V8. */
function groupOf(url: string, functionName: string): string {
	if (url.includes(INSTALLED_PACKAGE)) return "the package's code (webhook() and what it calls)";
	if (functionName === '(garbage collector)') return 'V8: garbage collector';
	if (functionName === '(program)') return 'V8 and native code (no JavaScript frame)';
	if (url.startsWith('node:')) return "Node's own JavaScript (http, streams, timers)";
	if (/\/node_modules\/(n8n|n8n-core|n8n-workflow|@n8n)\//.test(url)) return "n8n's code (n8n, n8n-core, n8n-workflow, @n8n/*)";
	if (url.includes('/node_modules/')) return "libraries n8n uses (TypeORM, pg, Express, …)";
	return 'other';
}

/**
 * The samples inside [start, end] (µs of the monotonic clock), by where their own frame's code
 * lives (self time), and by the stack's n8n waiting-webhook handler (the synchronous part of it:
 * work after an `await` has no caller frames in V8's samples).
 */
function attribute(profile: CpuProfile, start: number, end: number): { ms: Record<string, number>; topSelf: Array<[string, number]>; groups: Array<[string, number]> } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const underHandler = new Map<number, boolean>();
	const handlerOf = (id: number) => {
		let known = underHandler.get(id);
		if (known !== undefined) return known;
		known = false;
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const frame = byId.get(at)!.callFrame;
			if (frame.url.includes('waiting-webhooks') && frame.functionName === 'executeWebhook') known = true;
		}
		underHandler.set(id, known);
		return known;
	};
	const ms: Record<string, number> = { busy: 0, idle: 0, handler: 0 };
	const self = new Map<string, number>();
	const groups = new Map<string, number>();
	let at = profile.startTime;
	profile.samples.forEach((id, index) => {
		at += profile.timeDeltas[index] ?? 0;
		if (at < start || at > end) return;
		const delta = (profile.timeDeltas[index + 1] ?? profile.timeDeltas[index] ?? 0) / 1000;
		const frame = byId.get(id)!.callFrame;
		if (frame.functionName === '(idle)') {
			ms.idle += delta;
			return;
		}
		ms.busy += delta;
		if (handlerOf(id)) ms.handler += delta;
		const group = groupOf(frame.url, frame.functionName);
		groups.set(group, (groups.get(group) ?? 0) + delta);
		const name = `${frame.functionName || '(anonymous)'} ${frame.url ? path.basename(frame.url) : ''}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
		self.set(name, (self.get(name) ?? 0) + delta);
	});
	return { ms, topSelf: [...self].sort((a, b) => b[1] - a[1]).slice(0, 25), groups: [...groups].sort((a, b) => b[1] - a[1]) };
}

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[bench:call-profile] ${line}\n`);
	const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-call-profile-'));
	const profileDir = path.join(rootDir, 'profile');
	fs.mkdirSync(profileDir);
	const workflow = callbackUploadWorkflow({
		id: 'dexCallProfile01',
		name: 'bench: one document, waiting for the callbacks',
		webhookPath: PATH,
		webhookId: '0c5e1a2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d',
		documents: { postedFile: true },
		includeValues: false,
		after: 'none',
	});
	let stack: Stack | undefined;
	try {
		stack = await startStack({
			userFolder: path.join(rootDir, 'n8n'),
			build: true,
			emulator: { processingDelayMs: 500 },
			workflows: [workflow],
			publish: [workflow.id!],
			n8n: { env: { NODE_OPTIONS: `${headlessEnv(rootDir).NODE_OPTIONS} --cpu-prof --cpu-prof-dir=${profileDir}` } },
		});
		const { n8n, emulator } = stack;
		emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
		await postAll(`${n8n.url}/webhook/${PATH}`, EXECUTIONS);
		const dropped = () => emulator.state.callbacks.filter((delivery) => delivery.fault === 'drop');
		await until(`${EXECUTIONS} executions waiting with their documents processed`, async () => {
			const waiting = await n8n.publicApi<{ data: unknown[] }>(`/executions?${new URLSearchParams({ workflowId: workflow.id!, status: 'waiting', limit: '250' })}`);
			return dropped().filter((delivery) => delivery.payload.step === 'processing_finished').length >= EXECUTIONS && waiting.data.length >= EXECUTIONS;
		});
		const steps = dropped().filter((delivery) => delivery.payload.step !== 'processing_finished');
		const statuses = new Map<number, number>();
		// V8 stamps samples with the system's monotonic clock (CLOCK_MONOTONIC, as process.hrtime here).
		const windowStart = Number(process.hrtime.bigint() / 1000n);
		for (let call = 0; call < CALLS; call++) {
			const delivery = steps[call % steps.length];
			const status = await postJson(delivery.url, delivery.payload);
			statuses.set(status, (statuses.get(status) ?? 0) + 1);
		}
		const windowEnd = Number(process.hrtime.bigint() / 1000n);
		log(`${CALLS} intermediate steps sent, n8n's answers ${JSON.stringify(Object.fromEntries(statuses))}`);
		await stack.stop();
		stack = undefined;
		const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
		if (!file) throw new Error(`no .cpuprofile in ${profileDir}: n8n did not exit cleanly`);
		const { ms, topSelf, groups } = attribute(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile, windowStart, windowEnd);
		const perCall = (value: number) => (value / CALLS).toFixed(1);
		const out = (text: string) => process.stdout.write(text);
		out(`\nn8n main's CPU profile (V8 sampler, wall time on CPU, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}): ${CALLS} intermediate steps, one at a time, to ${EXECUTIONS} waiting Upload executions\n\n`);
		out(`Main thread, the ${((windowEnd - windowStart) / 1e6).toFixed(1)} s of the calls: busy ${ms.busy.toFixed(0)} ms (${perCall(ms.busy)} ms per call), idle ${ms.idle.toFixed(0)} ms; in the waiting-webhook handler's synchronous part ${perCall(ms.handler)} ms per call\n\n`);
		out('| self time in | ms per call | share of busy |\n|---|---|---|\n');
		for (const [group, value] of groups) out(`| ${group} | ${perCall(value)} | ${((100 * value) / ms.busy).toFixed(1)} % |\n`);
		out('\nTop frames by self time:\n\n| frame | ms per call | share of busy |\n|---|---|---|\n');
		for (const [name, value] of topSelf) out(`| ${name} | ${perCall(value)} | ${((100 * value) / ms.busy).toFixed(1)} % |\n`);
	} finally {
		await stack?.stop();
		if (process.env.BENCH_KEEP) log(`kept ${rootDir}`);
		else fs.rmSync(rootDir, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
