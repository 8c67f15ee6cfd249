/** One burst of bench:queue: N single-document executions started by webhook, timed from the first POST to n8n's last stoppedAt. */
import * as os from 'node:os';

import type { Emulator } from '../../dev/emulator';
import type { CallbackDelivery } from '../../dev/emulator/types';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';
import { countStatus, formatStatuses, type CeilingNotifier } from './ceiling';
import { executionsLeftOut, executionsSince, leftOutOfList, postAll, sampleSlots, type ExecutionSummary } from './executions';

/** How each execution waits: the Upload polling, the Upload waiting for the callbacks, n8n's Wait node resumed by 1 or sent 4 calls. */
export type Mode = 'polling' | 'callbacks' | 'ceiling-1' | 'ceiling-4';

export interface BurstTarget {
	mode: Mode;
	workflowId: string;
	path: string;
	documents: number;
	/** The emulator's (or the notifier's) processing time of each document. */
	processingMs: number;
}

export interface BurstContext {
	workers?: number;
	/** Everything each worker logged (counts the executions each one started). */
	workerLog?: () => Record<string, string>;
	notifier?: CeilingNotifier;
}

export interface Burst {
	label: string;
	mode: Mode;
	/** Workers of a queue-mode burst (undefined: regular mode). */
	workers?: number;
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
	/** n8n's answers to the calls the emulator or the notifier made to resume URLs (callback wait and ceilings). */
	callAnswers?: string;
	/** The machine's load average (1 min) when the burst ended. */
	loadAverage: number;
}

/** Posts the target's documents to its webhook and waits until n8n has finished every execution they started. */
export async function burst(label: string, n8n: N8nInstance, emulator: Emulator, target: BurstTarget, context: BurstContext = {}): Promise<Burst> {
	const { workerLog, notifier } = context;
	const firstSequence = emulator.requests.at(-1)?.sequence ?? 0;
	const firstCallback = emulator.state.callbacks.length;
	if (target.mode === 'ceiling-1' || target.mode === 'ceiling-4') {
		if (!notifier) throw new Error(`${label}: a ceiling burst needs the notifier`);
		notifier.schedule(target.mode === 'ceiling-1' ? 1 : 4, target.processingMs);
		notifier.takeAnswers();
	}
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
	let callAnswers: string | undefined;
	if (target.mode === 'callbacks') callAnswers = deliveryAnswers(emulator.state.callbacks.slice(firstCallback));
	else if (target.mode !== 'polling') callAnswers = notifier!.takeAnswers();
	return {
		label,
		mode: target.mode,
		workers: context.workers,
		documents: target.documents,
		processingMs: target.processingMs,
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
		callAnswers,
		loadAverage: os.loadavg()[0],
	};
}

function isStatusPoll(method: string, requestPath: string): boolean {
	return method === 'GET' && /\/uploads\/[^/]+$/.test(requestPath);
}

function countStarts(logs: Record<string, string>): Record<string, number> {
	return Object.fromEntries(Object.entries(logs).map(([name, text]) => [name, (text.match(/Worker started execution \d+ \(job/g) ?? []).length]));
}

/** The answers to the emulator's notifications, steps and final apart, e.g. "steps 200 x600, 409 x12; final 200 x200". */
function deliveryAnswers(deliveries: CallbackDelivery[]): string {
	const counts = { steps: new Map<number, number>(), final: new Map<number, number>() };
	for (const delivery of deliveries) {
		const into = delivery.payload.step === 'processing_finished' || delivery.payload.step === 'processing_failed' ? counts.final : counts.steps;
		for (const status of delivery.statuses) countStatus(into, status);
	}
	return `steps ${formatStatuses(counts.steps)}; final ${formatStatuses(counts.final)}`;
}
