/**
 * Baseline: the job "upload 20 documents, wait for processing, read the values" built from n8n's
 * own HTTP Request, Merge, Wait and IF nodes (examples/baseline-http-request.json), beside the same
 * job with the Document Extraction node (examples/extract-documents-from-disk.json), in the same
 * real n8n (`n8n start`, this package installed as a community package) against the same emulator.
 *
 *   npm run bench:baseline [-- --rounds 3]
 *
 * Prints: the number of nodes, the wall time of each (n8n's own start/stop times of the execution,
 * median over the rounds) and the ratio; then what each does when the service misbehaves, using
 * the emulator's faults: a rate limit, a storage PUT failing once (and what the user's "Retry" and
 * re-run of the failed baseline then do), and a broken document among the 20.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SEED_IDS, SEEDED_KEYS } from '../dev/emulator';
import { INVOICE_LINES, corruptPdf } from '../dev/documents';
import {
	executionMs,
	findNode,
	readExample,
	runWorkflow,
	startStack,
	waitForExecution,
	type ExecutionRecord,
	type Stack,
	type WorkflowJson,
} from '../dev/n8n/n8n-stack';

const FILES = 20;
const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const LOOP_LIMIT_MS = 60_000;
const TRIGGER = 'Run the example';

interface Variant {
	label: string;
	workflow: WorkflowJson;
	/** The node whose output items carry the values. */
	valuesNode: string;
	valuesOf(items: Array<Record<string, unknown>>): number;
}

function oursWorkflow(continueOnError = false): WorkflowJson {
	const workflow = readExample('extract-documents-from-disk.json');
	workflow.id = continueOnError ? 'dexBenchOursCont' : 'dexBenchOurs0001';
	workflow.name = `bench: Document Extraction node, 20 at a time${continueOnError ? ', On Error: Continue' : ''}`;
	// The same concurrency as the HTTP Request node, which sends all items at once.
	const node = findNode(workflow, 'Upload, wait and read values');
	node.parameters.options = { ...(node.parameters.options as object), batching: { batch: { batchSize: FILES, batchInterval: 0 } } };
	if (continueOnError) node.onError = 'continueRegularOutput';
	return workflow;
}

function baselineWorkflow(apiUrl: string, retryOnFail: boolean): WorkflowJson {
	const workflow = readExample('baseline-http-request.json', apiUrl);
	if (retryOnFail) {
		workflow.id = 'dexBenchBaseRtry';
		workflow.name = 'bench: baseline with Retry On Fail on every HTTP Request node';
		for (const node of workflow.nodes.filter((candidate) => candidate.type === 'n8n-nodes-base.httpRequest')) {
			Object.assign(node, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 });
		}
	}
	return workflow;
}

function invoiceDocument(index: number): string {
	const number = `INV-BENCH-${String(index).padStart(4, '0')}`;
	return INVOICE_LINES.map((line) => line.replace('INV-2024-0042', number)).join('\n') + '\n';
}

interface RunResult {
	outcome: string;
	ms: number;
	documents: number;
	duplicates: number;
	failedDocuments: number;
	valuesRead: number;
	apiRequests: number;
	storagePuts: number;
	execution?: ExecutionRecord;
}

function itemsOfAllRuns(execution: ExecutionRecord, nodeName: string): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main?.[0] ?? []).map((item) => item.json));
}

class Bench {
	private readonly hashesSeen = new Map<string, number>();

	constructor(private readonly stack: Stack) {}

	/** Deletes every file of the workspace through the API (between scenarios). */
	async clearWorkspace(): Promise<void> {
		const { emulator } = this.stack;
		await emulator.idle();
		// The previous scenario's faults and rate limit go first: its last requests may have used up
		// the rate window, and the DELETE below would answer 429.
		emulator.faults.clear();
		emulator.setRateLimit(undefined);
		const ids = [...emulator.state.files.values()].filter((file) => file.workspaceId === SEED_IDS.workspaceA).map((file) => file.fileId);
		for (let start = 0; start < ids.length; start += 100) {
			const response = await fetch(`${emulator.apiUrl}/prod/v1/files`, {
				method: 'DELETE',
				headers: { 'x-api-key': SEEDED_KEYS.readWrite, 'content-type': 'application/json' },
				body: JSON.stringify({ fileIds: ids.slice(start, start + 100) }),
			});
			if (!response.ok) throw new Error(`DELETE /files answered ${response.status}`);
		}
		this.hashesSeen.clear();
	}

	/** Runs a workflow once; stops it after LOOP_LIMIT_MS; counts what reached the emulator. */
	async run(variant: Variant, start?: () => Promise<string>): Promise<RunResult> {
		const { emulator, n8n } = this.stack;
		const filesBefore = new Set(emulator.state.files.keys());
		const firstSequence = emulator.requests.length ? emulator.requests[emulator.requests.length - 1].sequence : 0;
		const executionId = start ? await start() : await runWorkflow(n8n, variant.workflow.id!, TRIGGER);
		let execution: ExecutionRecord;
		let stopped = false;
		try {
			execution = await waitForExecution(n8n, executionId, LOOP_LIMIT_MS);
		} catch {
			await n8n.rest(`/executions/${executionId}/stop`, { method: 'POST' });
			execution = await waitForExecution(n8n, executionId, 30_000);
			stopped = true;
		}
		await emulator.idle();
		const newFiles = [...emulator.state.files.values()].filter((file) => !filesBefore.has(file.fileId));
		let duplicates = 0;
		for (const file of newFiles) {
			const seen = this.hashesSeen.get(file.fileHash) ?? 0;
			if (seen > 0) duplicates += 1;
			this.hashesSeen.set(file.fileHash, seen + 1);
		}
		const requests = emulator.requests.filter((entry) => entry.sequence > firstSequence);
		const error = execution.data?.resultData.error;
		const failedNode = execution.data?.resultData.lastNodeExecuted;
		const outcome = stopped
			? `still waiting after ${LOOP_LIMIT_MS / 1000} s: stopped`
			: execution.status === 'success'
				? 'success'
				: `failed at "${failedNode}": ${shorten(error?.message ?? execution.status)}`;
		return {
			outcome,
			ms: executionMs(execution),
			documents: newFiles.filter((file) => file.status === 'processed').length,
			failedDocuments: newFiles.filter((file) => file.status !== 'processed').length,
			duplicates,
			valuesRead: variant.valuesOf(itemsOfAllRuns(execution, variant.valuesNode)),
			apiRequests: requests.filter((entry) => entry.host === 'api').length,
			storagePuts: requests.filter((entry) => entry.host === 'storage' && entry.method === 'PUT').length,
			execution,
		};
	}
}

function shorten(message: string): string {
	const oneLine = message.replace(/\s+/g, ' ').trim();
	return oneLine.length > 90 ? `${oneLine.slice(0, 87)}...` : oneLine;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

function table(header: string[], rows: Array<Array<string | number>>): string {
	const escape = (cell: string | number) => String(cell).replace(/\|/g, '\\|');
	return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)].join('\n');
}

function resultRow(scenario: string, label: string, result: RunResult): Array<string | number> {
	return [
		scenario,
		label,
		result.outcome,
		(result.ms / 1000).toFixed(1),
		`${result.documents}${result.failedDocuments ? ` (+${result.failedDocuments} failed)` : ''}`,
		result.duplicates,
		result.valuesRead,
		result.apiRequests,
		result.storagePuts,
	];
}

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[bench:baseline] ${line}\n`);
	const started = Date.now();
	const stack = await startStack({
		log,
		emulator: { processingDelayMs: 300 },
		workflows: (apiUrl) => [oursWorkflow(), oursWorkflow(true), baselineWorkflow(apiUrl, false), baselineWorkflow(apiUrl, true)],
	});
	try {
		const [oursJson, baselineJson, baselineRetryJson] = [oursWorkflow(), baselineWorkflow(stack.emulator.apiUrl, false), baselineWorkflow(stack.emulator.apiUrl, true)];
		const ours: Variant = {
			label: 'Document Extraction node',
			workflow: oursJson,
			valuesNode: 'Upload, wait and read values',
			valuesOf: (items) => items.filter((item) => item.status === 'processed' && item.values && typeof item.values === 'object').length,
		};
		const baseline: Variant = {
			label: 'HTTP Request + Wait + IF',
			workflow: baselineJson,
			valuesNode: 'Get values',
			valuesOf: (items) => items.filter((item) => Array.isArray((item.values as { formValues?: unknown[] } | undefined)?.formValues)).length,
		};
		const baselineRetry: Variant = { ...baseline, label: 'HTTP Request + Wait + IF, Retry On Fail', workflow: baselineRetryJson };

		// The 20 documents the workflows read: distinct invoices, so any duplicate is a real one.
		for (const name of fs.readdirSync(stack.documentsDir)) fs.rmSync(path.join(stack.documentsDir, name));
		for (let index = 1; index <= FILES; index++) {
			fs.writeFileSync(path.join(stack.documentsDir, `invoice-${String(index).padStart(2, '0')}.txt`), invoiceDocument(index));
		}
		const bench = new Bench(stack);
		const nodeCount = (workflow: WorkflowJson) => workflow.nodes.length;

		// 1. No faults: wall time, alternating, median of the rounds.
		log(`no faults: ${ROUNDS} rounds`);
		const times: Record<string, number[]> = { ours: [], baseline: [] };
		const clean: Record<string, RunResult> = {};
		for (let round = 0; round < ROUNDS; round++) {
			for (const [key, variant] of [['ours', ours], ['baseline', baseline]] as const) {
				await bench.clearWorkspace();
				const result = await bench.run(variant);
				if (result.outcome !== 'success') throw new Error(`${variant.label} failed without faults: ${result.outcome}`);
				times[key].push(result.ms);
				clean[key] = result;
			}
		}
		const oursMs = median(times.ours);
		const baselineMs = median(times.baseline);

		const rows: Array<Array<string | number>> = [];
		// 2. Rate limit: 10 requests per second per key.
		for (const variant of [ours, baseline, baselineRetry]) {
			log(`rate limit: ${variant.label}`);
			await bench.clearWorkspace();
			stack.emulator.setRateLimit({ limit: 10, windowMs: 1000 });
			rows.push(resultRow('rate limit 10 requests/s (429 with Retry-After)', variant.label, await bench.run(variant)));
		}

		// 3. One storage PUT answers 503 SlowDown once.
		const slowDown = () => stack.emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 1 });
		for (const variant of [ours, baselineRetry]) {
			log(`storage 503 once: ${variant.label}`);
			await bench.clearWorkspace();
			slowDown();
			rows.push(resultRow('one storage PUT answers 503 once', variant.label, await bench.run(variant)));
		}
		log('storage 503 once: baseline, then Retry 10 minutes later, then a new run');
		await bench.clearWorkspace();
		slowDown();
		const failed = await bench.run(baseline);
		rows.push(resultRow('one storage PUT answers 503 once', baseline.label, failed));
		if (failed.execution && failed.execution.status !== 'success') {
			// The user comes back 10 minutes later and presses "Retry" (with the execution's own data).
			await fetch(`${stack.emulator.apiUrl}/__emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 10 * 60 * 1000 }) });
			const retried = await bench.run(baseline, async () => {
				const answer = await stack.n8n.rest<{ id: string }>(`/executions/${failed.execution!.id}/retry`, { body: { loadWorkflow: false } });
				return answer.id;
			});
			rows.push(resultRow('... 10 min later: "Retry" of that execution', baseline.label, retried));
			const rerun = await bench.run(baseline);
			rows.push(resultRow('... then a new run of the workflow', baseline.label, rerun));
		}

		// 4. One broken document among the 20.
		fs.writeFileSync(path.join(stack.documentsDir, 'zz-broken.pdf'), corruptPdf());
		const oursContinue: Variant = { ...ours, label: 'Document Extraction node, On Error: Continue', workflow: oursWorkflow(true) };
		for (const variant of [ours, oursContinue, baseline]) {
			log(`broken document: ${variant.label}`);
			await bench.clearWorkspace();
			rows.push(resultRow('20 invoices + 1 broken PDF', variant.label, await bench.run(variant)));
		}
		fs.rmSync(path.join(stack.documentsDir, 'zz-broken.pdf'));

		const summary = table(
			['Job: upload 20 documents, wait, read values', 'Nodes', `Wall time (median of ${ROUNDS})`, 'API requests', 'Storage PUTs', 'Values read'],
			[
				[ours.label, nodeCount(ours.workflow), `${(oursMs / 1000).toFixed(2)} s`, clean.ours.apiRequests, clean.ours.storagePuts, clean.ours.valuesRead],
				[baseline.label, nodeCount(baseline.workflow), `${(baselineMs / 1000).toFixed(2)} s`, clean.baseline.apiRequests, clean.baseline.storagePuts, clean.baseline.valuesRead],
			],
		);
		const faults = table(
			['Fault (emulator)', 'Workflow', 'Outcome', 'Time (s)', 'Documents', 'Duplicates', 'Values read', 'API requests', 'Storage PUTs'],
			rows,
		);
		console.log(`\n## Baseline: the same job with n8n's HTTP Request, Wait and IF nodes\n`);
		console.log(`Real n8n 2.41.1 (n8n start, Node 24), package installed as a community package, emulator in the bench process (processing ${300} ms). ${FILES} text invoices read from disk.\n`);
		console.log(summary);
		console.log(`\nWall time ratio (Document Extraction node / baseline): ${(oursMs / baselineMs).toFixed(2)} (each: ${times.ours.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s vs ${times.baseline.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)\n`);
		console.log(faults);
		console.log(`\nbench:baseline took ${((Date.now() - started) / 1000).toFixed(0)} s`);
	} finally {
		await stack.stop();
		fs.rmSync(stack.userFolder, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exitCode = 1;
});
