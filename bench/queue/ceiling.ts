/**
 * n8n's own ceiling for an execution that waits for a call: Webhook (answers on receipt) -> HTTP
 * Request (posts `$execution.resumeUrl` to the bench's notifier, as the Upload hands its resume
 * URL to the service) -> n8n's Wait node (Resume: On Webhook Call, Authentication: Header Auth) ->
 * No Operation. The notifier, a small HTTP server on 127.0.0.1, calls each resume URL it receives
 * on the emulator's schedule for one document (dev/emulator/processing.ts, `runSingle`: the steps
 * file_uploaded at once, processing_started after a third of the processing time, fraud_detection
 * after two thirds, the final processing_finished at its end):
 *
 * - `ceiling-1`: only the final call, with the header: n8n resumes the execution.
 * - `ceiling-4`: also the three steps, without the header: n8n loads the waiting execution, runs the
 *   Wait node's `webhook()`, which refuses them (403) and keeps the execution waiting.
 *
 * Calls to one resume URL go in order, each after the one before ended, as the emulator's do
 * (dev/emulator/callbacks.ts). A call answered otherwise than 2xx is sent again after 1, 2, 4, 8,
 * 16 s (the emulator's backoff), except a step refused with 403: that answer is the one expected.
 * A step that comes while the execution still runs (409: the Wait node has not put it to wait yet)
 * is sent again, as the emulator sends the Upload's.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { BASELINE_CREDENTIAL_ID, BASELINE_CREDENTIAL_NAME, type WorkflowJson } from '../../dev/n8n/n8n-stack';
import { WEBHOOK_UPLOAD } from '../../dev/n8n/queue/workflows';

export const CEILING_PATH = 'dex-queue-bench-ceiling';
export const CEILING_ID = 'dexQueueBenchCl1';
/** The intermediate steps the emulator sends for one document before the final notification. */
export const EMULATOR_STEPS = ['file_uploaded', 'processing_started', 'fraud_detection'] as const;
const RETRIES = 5;
const RETRY_BASE_MS = 1000;

/** n8n's Webhook node (as the queue suites' uploading webhook), answering a POST on receipt. */
function webhookTrigger(name: string, webhookId: string, path: string, options: Record<string, unknown>): WorkflowJson['nodes'][number] {
	return { ...WEBHOOK_UPLOAD.nodes[0], name, webhookId, parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options } };
}

/** The ceiling workflow; the Wait node wants the header of the baseline's header-auth credential (`x-api-key`). */
export function ceilingWorkflow(notifierUrl: string): WorkflowJson {
	return {
		id: CEILING_ID,
		name: "bench: one document by webhook, n8n's Wait node resumed by a call",
		nodes: [
			webhookTrigger('Document arrives', '7c2d8e0a-3f4b-4e1c-9a6d-1b2c3d4e5f60', CEILING_PATH, { binaryPropertyName: 'data' }),
			{
				id: 'c2',
				name: 'Hand the resume URL over',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'POST',
					url: notifierUrl,
					sendBody: true,
					contentType: 'json',
					specifyBody: 'keypair',
					bodyParameters: { parameters: [{ name: 'resumeUrl', value: '={{ $execution.resumeUrl }}' }] },
					options: {},
				},
			},
			{
				id: 'c3',
				name: 'Wait for the call',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [440, 0],
				webhookId: '8d3e9f1b-4a5c-4f2d-8b7e-2c3d4e5f6a71',
				parameters: { resume: 'webhook', httpMethod: 'POST', incomingAuthentication: 'headerAuth', options: {} },
				credentials: { httpHeaderAuth: { id: BASELINE_CREDENTIAL_ID, name: BASELINE_CREDENTIAL_NAME } },
			},
			{ id: 'c4', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, 0], parameters: {} },
		],
		connections: {
			'Document arrives': { main: [[{ node: 'Hand the resume URL over', type: 'main', index: 0 }]] },
			'Hand the resume URL over': { main: [[{ node: 'Wait for the call', type: 'main', index: 0 }]] },
			'Wait for the call': { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export const HINT_PATH = 'dex-queue-bench-hint';

/**
 * A published webhook that answers a call without starting an execution (n8n's Webhook node, Only
 * Run If false): what a callback costs n8n when it does not land on a waiting execution.
 */
export function hintWorkflow(): WorkflowJson {
	return {
		id: 'dexQueueBenchHt1',
		name: 'bench: a published webhook that starts no execution',
		nodes: [
			webhookTrigger('Step arrives', '9e4f0a2c-5b6d-4a3e-9c8f-3d4e5f6a7b82', HINT_PATH, { onlyRunIf: '={{ false }}' }),
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Calls per document: 1 (the final one), 4 (three steps and the final one) or 0 (none: the URLs are only kept). */
export type CeilingCalls = 0 | 1 | 4;

export interface CeilingNotifier {
	/** Where the workflow posts its resume URL. */
	url: string;
	/** What the resume URLs received from now on get. */
	schedule(calls: CeilingCalls, processingMs: number): void;
	/** Every resume URL received, oldest first. */
	resumeUrls: string[];
	/** The answers to the calls made since the last take, e.g. "steps 403 x597, 409 x3; final 200 x200". */
	takeAnswers(): string;
	/** One call: the final one (with the header) or a step (without); resolves to n8n's status. */
	call(resumeUrl: string, final: boolean): Promise<number>;
	close(): Promise<void>;
}

export async function startCeilingNotifier(header: { name: string; value: string }): Promise<CeilingNotifier> {
	let calls: CeilingCalls = 0;
	let processingMs = 3000;
	const resumeUrls: string[] = [];
	const answers = { steps: new Map<number, number>(), final: new Map<number, number>() };
	const timers = new Set<NodeJS.Timeout>();
	let closed = false;

	const call = (resumeUrl: string, final: boolean): Promise<number> => {
		const payload = final ? { status: 'completed', step: 'processing_finished', fileIds: 'ceiling' } : { status: 'waiting', step: 'step' };
		return postJson(resumeUrl, { ...payload, uploadId: 'ceiling', timestamp: new Date().toISOString() }, final ? { [header.name]: header.value } : {});
	};
	const later = (ms: number) =>
		new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve();
			}, ms);
			timers.add(timer);
		});
	const deliver = async (resumeUrl: string, final: boolean) => {
		for (let attempt = 0; attempt <= RETRIES && !closed; attempt++) {
			if (attempt > 0) await later(RETRY_BASE_MS * 2 ** (attempt - 1));
			const status = await call(resumeUrl, final);
			countStatus(final ? answers.final : answers.steps, status);
			if ((status >= 200 && status < 300) || (!final && status === 403)) return;
		}
	};
	const notify = (resumeUrl: string) => {
		if (calls === 0) return;
		let chain = Promise.resolve();
		const at = (ms: number, final: boolean) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				chain = chain.then(() => deliver(resumeUrl, final));
			}, ms);
			timers.add(timer);
		};
		if (calls === 4) EMULATOR_STEPS.forEach((_, index) => at((processingMs / 3) * index, false));
		at(processingMs, true);
	};

	const server: Server = createServer((req: IncomingMessage, res) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => {
			if (body.length < 10_000) body += chunk;
		});
		req.on('end', () => {
			let resumeUrl: unknown;
			try {
				resumeUrl = (JSON.parse(body) as { resumeUrl?: unknown }).resumeUrl;
			} catch {
				resumeUrl = undefined;
			}
			if (typeof resumeUrl !== 'string' || !resumeUrl.startsWith('http://127.0.0.1:')) {
				res.writeHead(400).end('a JSON body with the resumeUrl of a local n8n');
				return;
			}
			resumeUrls.push(resumeUrl);
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
			notify(resumeUrl);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/resume-url`,
		schedule(nextCalls, nextProcessingMs) {
			calls = nextCalls;
			processingMs = nextProcessingMs;
		},
		resumeUrls,
		takeAnswers() {
			const text = `steps ${formatStatuses(answers.steps)}; final ${formatStatuses(answers.final)}`;
			answers.steps.clear();
			answers.final.clear();
			return text;
		},
		call,
		async close() {
			closed = true;
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** POSTs a JSON body as the emulator posts a notification; resolves to the answer's status (0: no answer). */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'user-agent': 'document-extraction-emulator', ...headers },
			body: JSON.stringify(body),
		});
		await response.arrayBuffer();
		return response.status;
	} catch {
		return 0;
	}
}

export function countStatus(counts: Map<number, number>, status: number): void {
	counts.set(status, (counts.get(status) ?? 0) + 1);
}

/** "200 x597, 409 x3" (0: no answer); "none" when empty. */
export function formatStatuses(counts: Map<number, number>): string {
	return [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status || 'no answer'} x${count}`).join(', ') || 'none';
}
