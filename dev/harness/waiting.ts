/**
 * n8n's waiting executions and its waiting-webhook server, in process, over real HTTP on
 * 127.0.0.1: what lets a test run a node that puts its execution to wait (`putExecutionToWait`)
 * and then call it back, or let its wait run out, as the n8n application does:
 *
 * - an execution started with `observer: waiting` is recorded as running, then as n8n stores it
 *   when its run ends: a waiting one as its run data serialized (JSON), as in n8n's database, so
 *   nothing survives that n8n would not keep (the node's context does);
 * - `POST <url>/webhook-waiting/<execution id>[/<path>]` does what n8n's WaitingWebhooks does
 *   (cli webhooks/waiting-webhooks.ts, webhook-helpers.ts, n8n 2.41.1 and 1.123.81): 404 for an
 *   unknown execution; with `behaves: 'n8n2'` (default) 401 `Invalid token` unless `signature` is
 *   the execution's resume token; 409 when it is running or has finished; then, on a fresh copy of
 *   the stored data, the waiting node is disabled, its waiting run dropped, and its restart
 *   webhook's `webhook()` runs in n8n-core's WebhookContext with the request and an Express-like
 *   response. Returning no `workflowData` answers and keeps the execution waiting (what the call
 *   changed is dropped); returning it resumes the execution through WorkflowExecute with those
 *   items as the node's output. A `webhook()` that throws is answered 500 and resumes the
 *   execution with an error and one empty item, as n8n does. With 'n8n2' a second resume of an
 *   execution that no longer waits is refused (n8n 2.41's `requireStatus: 'waiting'`: 500 unless
 *   the node answered first); 'n8n1' has no resume token and no such guard (1.123.81 runs the
 *   rest of the workflow once per concurrent resume);
 * - `resumeAtWaitTill(id)` is n8n's wait tracker at the execution's `waitTill`: the waiting node is
 *   passed its input through, its code does not run.
 *
 * Every call is recorded in `calls` (status, body, outcome) and every resume counted per execution.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext } from 'n8n-core';
import type { IDataObject, IRunExecutionData, IWebhookData, IWebhookResponseData, ExecutionStatus } from 'n8n-workflow';

import type { ExecutionObserver, PreparedExecution, RunWorkflowResult } from './engine';
import { additionalDataFor, executeRunData } from './engine';

export interface WaitingWebhooksOptions {
	/** 'n8n2' (default): resume tokens checked, one resume per execution; 'n8n1': no token, no guard. */
	behaves?: 'n8n2' | 'n8n1';
}

export interface WaitingCall {
	executionId: string;
	/** The path after the execution id ('' for none). */
	path: string;
	status: number;
	/** The answer's body as sent (JSON parsed when it was JSON). */
	body: unknown;
	/** answered: stays waiting; resumed; refused: before webhook() (token, state, path); threw; hung: webhook() wrote no answer. */
	outcome: 'answered' | 'resumed' | 'refused' | 'threw' | 'hung';
}

interface StoredExecution {
	prepared: PreparedExecution;
	status: ExecutionStatus;
	/** The waiting execution's run data as stored (JSON). */
	stored?: string;
	result?: RunWorkflowResult;
	/** Resumes started (by webhook or by waitTill). */
	resumes: number;
	/** Runs of the execution under way. */
	running: Set<Promise<RunWorkflowResult>>;
}

export interface WaitingWebhooks extends ExecutionObserver {
	/** e.g. http://127.0.0.1:PORT (resume URLs are `${url}/webhook-waiting/<id>...`) */
	url: string;
	calls: WaitingCall[];
	/** The execution's status as n8n would show it: running, waiting, success, error, canceled. */
	statusOf(executionId: string): ExecutionStatus | undefined;
	/** How many times the execution was resumed (its rest of the workflow run). */
	resumesOf(executionId: string): number;
	/** The run data the waiting execution keeps (a copy). */
	storedData(executionId: string): IRunExecutionData | undefined;
	/** Resolves with the last run once the execution has ended (neither running nor waiting) and no run of it is under way. */
	whenEnded(executionId: string, timeoutMs?: number): Promise<RunWorkflowResult>;
	/** Resolves once the execution waits. */
	whenWaiting(executionId: string, timeoutMs?: number): Promise<void>;
	/** n8n's wait tracker at waitTill: resumes the waiting execution by passing the node's input through. */
	resumeAtWaitTill(executionId: string): Promise<RunWorkflowResult>;
	close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 16 * 1024 * 1024;
const ENDED: ReadonlySet<string> = new Set(['success', 'error', 'canceled', 'crashed']);

function serialize(data: IRunExecutionData): string {
	return JSON.stringify(data);
}

function deserialize(text: string): IRunExecutionData {
	return JSON.parse(text) as IRunExecutionData;
}

/** What n8n's Express request gives a node: the parsed body, the query, the original URL. */
async function readRequest(req: IncomingMessage, url: URL): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > BODY_LIMIT_BYTES) return { ok: false, status: 500, message: 'There was a problem executing the workflow' };
		chunks.push(chunk as Buffer);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	const type = String(req.headers['content-type'] ?? '').toLowerCase();
	if (type.includes('json')) {
		if (text === '') return { ok: true, body: {} };
		try {
			return { ok: true, body: JSON.parse(text) as unknown };
		} catch {
			return { ok: false, status: 422, message: 'Failed to parse request body' };
		}
	}
	if (type.includes('x-www-form-urlencoded')) return { ok: true, body: Object.fromEntries(new URLSearchParams(text)) };
	if (type.startsWith('text/')) return { ok: true, body: text };
	void url;
	return { ok: true, body: {} };
}

/** The query as Express's parser gives it: a repeated key becomes an array. */
function queryOf(url: URL): IDataObject {
	const query: IDataObject = {};
	for (const [key, value] of url.searchParams) {
		const existing = query[key];
		query[key] = existing === undefined ? value : Array.isArray(existing) ? [...(existing as string[]), value] : [existing as string, value];
	}
	return query;
}

type ExpressLikeResponse = ServerResponse & {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body: unknown): ExpressLikeResponse;
};

/** The part of Express's response a node uses: status(), json(), send(), setHeader(), headersSent. */
function expressResponse(res: ServerResponse): ExpressLikeResponse {
	const express = res as ExpressLikeResponse;
	express.status = (code: number) => {
		if (!Number.isInteger(code)) throw new RangeError(`Invalid status code: ${String(code)}. Status code must be an integer.`);
		res.statusCode = code;
		return express;
	};
	express.json = (body: unknown) => {
		res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return express;
	};
	express.send = (body: unknown) => {
		res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
		return express;
	};
	return express;
}

export async function startWaitingWebhooks(options: WaitingWebhooksOptions = {}): Promise<WaitingWebhooks> {
	const n8n1 = options.behaves === 'n8n1';
	const executions = new Map<string, StoredExecution>();
	const calls: WaitingCall[] = [];
	const listeners = new Set<() => void>();
	const changed = () => {
		for (const listener of [...listeners]) listener();
	};

	const settle = (entry: StoredExecution, result: RunWorkflowResult) => {
		entry.result = result;
		entry.status = result.status;
		entry.stored = result.status === 'waiting' ? serialize(result.run.data) : entry.stored;
		changed();
	};

	const run = (entry: StoredExecution, data: IRunExecutionData): Promise<RunWorkflowResult> => {
		entry.resumes += 1;
		entry.status = 'running';
		const running = executeRunData(entry.prepared, data);
		entry.running.add(running);
		void running.then(
			(result) => {
				entry.running.delete(running);
				settle(entry, result);
			},
			() => {
				entry.running.delete(running);
				entry.status = 'error';
				changed();
			},
		);
		return running;
	};

	const answer = (res: ServerResponse, call: Omit<WaitingCall, 'status' | 'body'>, status: number, body: unknown) => {
		if (!res.headersSent) {
			res.statusCode = status;
			res.setHeader('content-type', 'application/json; charset=utf-8');
			res.end(JSON.stringify(body));
		}
		calls.push({ ...call, status, body });
	};

	const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const match = /^\/webhook-waiting\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
		const executionId = match?.[1] ?? '';
		const path = match?.[2] ?? '';
		const call = { executionId, path };
		const entry = executions.get(executionId);
		if (!match || !entry) return answer(res, { ...call, outcome: 'refused' }, 404, { code: 404, message: `The execution "${executionId}" does not exist.` });
		const storedToken = entry.stored ? deserialize(entry.stored).resumeToken : undefined;
		if (!n8n1 && storedToken !== undefined && url.searchParams.get('signature') !== storedToken) {
			return answer(res, { ...call, outcome: 'refused' }, 401, { error: 'Invalid token' });
		}
		if (entry.status === 'running') {
			return answer(res, { ...call, outcome: 'refused' }, 409, { code: 409, message: `The execution "${executionId}" is running already.` });
		}
		if (ENDED.has(entry.status) || !entry.stored) {
			return answer(res, { ...call, outcome: 'refused' }, 409, { code: 409, message: `The execution "${executionId} has finished already.` });
		}
		const read = await readRequest(req, url);
		if (!read.ok) return answer(res, { ...call, outcome: 'refused' }, read.status, { code: read.status, message: read.message });

		// What WaitingWebhooks.getWebhookExecutionData does to a copy of the stored execution.
		const data = deserialize(entry.stored);
		const lastNode = data.resultData.lastNodeExecuted ?? '';
		data.executionData!.nodeExecutionStack[0].node.disabled = true;
		data.waitTill = undefined;
		const waitingRuns = data.resultData.runData[lastNode] ?? [];
		const waitingRun = waitingRuns.pop();
		if (waitingRun?.inputOverride) waitingRuns.push({ startTime: 0, executionTime: 0, executionIndex: 0, source: waitingRun.source, inputOverride: waitingRun.inputOverride });
		const workflow = entry.prepared.newWorkflow();
		const node = workflow.getNode(lastNode);
		const nodeType = node ? workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) : undefined;
		const description = nodeType?.description.webhooks?.find(
			(webhook) => webhook.restartWebhook === true && webhook.httpMethod === req.method && String(webhook.path ?? '').replace(/^\/|\/$/g, '') === path,
		);
		if (!node || !nodeType?.webhook || !description) {
			return answer(res, { ...call, outcome: 'refused' }, 404, { code: 404, message: `The workflow for execution "${executionId}" does not contain a waiting webhook with a matching path/method.` });
		}
		const additionalData = additionalDataFor(entry.prepared);
		const request = Object.assign(req, { body: read.body, query: queryOf(url), params: {}, originalUrl: req.url });
		const response = expressResponse(res);
		additionalData.httpRequest = request as unknown as typeof additionalData.httpRequest;
		additionalData.httpResponse = response as unknown as typeof additionalData.httpResponse;
		const webhookData: IWebhookData = {
			httpMethod: description.httpMethod as IWebhookData['httpMethod'],
			node: node.name,
			path,
			webhookDescription: description,
			workflowId: entry.prepared.workflowId,
			workflowExecuteAdditionalData: additionalData,
		};
		entry.prepared.session.credentialsHelper.setCredentials(entry.prepared.credentials);
		const context = new WebhookContext(workflow, node, additionalData, entry.prepared.mode, webhookData, [], data);
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook.call(context);
		} catch (error) {
			// n8n answers 500 and resumes the execution with the error and one empty item.
			answer(res, { ...call, outcome: 'threw' }, 500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!', cause: (error as Error).message });
			data.executionData!.nodeExecutionStack[0].data.main = [[{ json: {} }]];
			data.resultData.error = { message: (error as Error).message } as IRunExecutionData['resultData']['error'];
			void run(entry, data);
			return;
		}
		if (result.noWebhookResponse && !res.headersSent) {
			// n8n would leave the caller hanging; the harness says so instead.
			return answer(res, { ...call, outcome: 'hung' }, 500, { message: 'webhook() returned noWebhookResponse without answering' });
		}
		if (result.workflowData === undefined) {
			if (!res.headersSent) response.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
			calls.push({ ...call, outcome: 'answered', status: res.statusCode, body: bodySent(res) });
			return;
		}
		if (!n8n1 && entry.status !== 'waiting') {
			// ExecutionAlreadyResumingError (ActiveExecutions.add with requireStatus: 'waiting').
			return answer(res, { ...call, outcome: 'refused' }, 500, { code: 0, message: 'There was a problem executing the workflow' });
		}
		if (!res.headersSent) response.status(200).json({ message: 'Workflow was started' });
		calls.push({ ...call, outcome: 'resumed', status: res.statusCode, body: bodySent(res) });
		const stack = data.executionData!.nodeExecutionStack[0];
		stack.data.main = result.workflowData;
		stack.metadata = { ...stack.metadata, forwardAllOutputs: true };
		void run(entry, data);
	};

	const sent = new WeakMap<ServerResponse, unknown>();
	const bodySent = (res: ServerResponse) => sent.get(res);

	const server: Server = createServer((req, res) => {
		const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
		res.end = ((...args: unknown[]) => {
			const chunk = args[0];
			if (typeof chunk === 'string') {
				try {
					sent.set(res, JSON.parse(chunk) as unknown);
				} catch {
					sent.set(res, chunk);
				}
			}
			return end(...args);
		}) as typeof res.end;
		handle(req, res).catch((error: Error) => answer(res, { executionId: '', path: '', outcome: 'threw' }, 500, { message: error.message }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const until = async (what: string, test: () => boolean, timeoutMs: number) =>
		await new Promise<void>((resolve, reject) => {
			const check = () => {
				if (!test()) return;
				clearTimeout(timer);
				listeners.delete(check);
				resolve();
			};
			const timer = setTimeout(() => {
				listeners.delete(check);
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
			}, timeoutMs);
			listeners.add(check);
			check();
		});

	const entryOf = (executionId: string) => {
		const entry = executions.get(executionId);
		if (!entry) throw new Error(`no execution ${executionId} was started with this waiting-webhook server`);
		return entry;
	};

	return {
		url,
		webhookWaitingBaseUrl: `${url}/webhook-waiting`,
		withoutResumeToken: n8n1,
		calls,
		started(prepared) {
			executions.set(prepared.executionId, { prepared, status: 'running', resumes: 0, running: new Set() });
			changed();
		},
		ended(prepared, result) {
			const entry = executions.get(prepared.executionId);
			if (entry) settle(entry, result);
		},
		statusOf: (executionId) => executions.get(executionId)?.status,
		resumesOf: (executionId) => executions.get(executionId)?.resumes ?? 0,
		storedData(executionId) {
			const stored = executions.get(executionId)?.stored;
			return stored ? deserialize(stored) : undefined;
		},
		async whenEnded(executionId, timeoutMs = 60_000) {
			const entry = entryOf(executionId);
			await until(`execution ${executionId} to end`, () => ENDED.has(entry.status) && entry.running.size === 0, timeoutMs);
			return entry.result!;
		},
		async whenWaiting(executionId, timeoutMs = 60_000) {
			const entry = entryOf(executionId);
			await until(`execution ${executionId} to wait`, () => entry.status === 'waiting', timeoutMs);
		},
		async resumeAtWaitTill(executionId) {
			const entry = entryOf(executionId);
			if (entry.status !== 'waiting' || !entry.stored) throw new Error(`execution ${executionId} is ${entry.status}, not waiting`);
			return await run(entry, deserialize(entry.stored));
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
