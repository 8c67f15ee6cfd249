/**
 * activateWebhookTrigger(): a webhook trigger of an active workflow, served over real HTTP on
 * 127.0.0.1 the way the n8n application serves a live webhook (cli's LiveWebhooks and
 * WebhookService, n8n 2.41.1), with n8n-core's own HookContext and WebhookContext:
 * - activation: the node's webhookMethods (checkExists, then create when it answers false) in a
 *   HookContext (mode 'trigger', activation 'activate'); deactivate() runs delete;
 * - each request to /webhook/<webhookId>/<path>: the body parsed as n8n parses it (JSON, text,
 *   form; invalid JSON answered 422 before the node runs), the workflow built afresh with the
 *   static data as stored (n8n reads it from the database for every call), webhook() run in a
 *   WebhookContext whose request and response are this request's, then, as n8n does: a throw is
 *   answered 500 and the workflow runs with one empty item; `noWebhookResponse` without an answer
 *   written leaves the caller hanging (recorded as `hung`, the socket closed); no answer of the
 *   node's own is answered 200 (with onReceivedBody when the call starts a run); the static data
 *   is saved if the call changed it (the last save wins, as in n8n); `workflowData` is recorded as
 *   an emission (what n8n would start a run with).
 * Calls run concurrently, as in n8n: concurrent calls each read the static data before the others
 * save it.
 */
import './container';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';

import { HARNESS_WORKFLOW_ID, createAdditionalData } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { fullNodeTypeName } from './registry';
import type { PackageOptions } from './session';
import { processPackageDir } from './processes';
import { openSession } from './session';

/** n8n's default payload limit (N8N_PAYLOAD_SIZE_MAX, 16 MiB): a larger body is refused before the node runs. */
const PAYLOAD_LIMIT_BYTES = 16 * 1024 * 1024;

export interface WebhookTriggerOptions extends PackageOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** the node's static data at activation */
	staticData?: IDataObject;
	nodeName?: string;
	/** the node's webhookId (the editor sets one on every webhook node) */
	webhookId?: string;
	/** the node's id: memory a node keeps per workflow and node is another node's for another id (another n8n process, seen from the node) */
	nodeId?: string;
	/** n8n's public webhook base (WEBHOOK_URL + "webhook"); default: this server's own address */
	publicWebhookBase?: string;
	/**
	 * The n8n process the trigger runs in (dev/harness/processes.ts): a name loads its own copy of
	 * the package, so that module state (what a node remembers per process) is that process's.
	 * Default: the package as loaded for the whole test file (one process).
	 */
	process?: string;
	/**
	 * The workflow's static data as stored in n8n's database, shared by the triggers (processes)
	 * given the same object: each call reads `value` when it starts and, if it changed it, replaces
	 * it when it ends (the last save wins, as in n8n). Default: the trigger's own, from `staticData`.
	 */
	sharedStaticData?: SharedStaticData;
	/**
	 * 'webhook' (default): the production URL of an active workflow. 'manual': the editor's test URL
	 * while it listens (n8n's TestWebhooks: the node runs in mode "manual", with the workflow's
	 * stored static data; n8n 1.x saves what the call changed, as modelled here, 2.41 does not).
	 */
	mode?: 'webhook' | 'manual';
}

/** Static data several triggers (modelled n8n processes) read and save. */
export interface SharedStaticData {
	value: IDataObject;
}

/** One call to the trigger's URL, as the caller saw it and as n8n would go on. */
export interface WebhookCall {
	status: number;
	/** the answer's body (parsed when JSON) */
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	/** what webhook() returned as workflowData (n8n starts one execution with it), if any */
	emitted?: INodeExecutionData[][];
	/** webhook() threw: n8n answers 500 and runs the workflow with one empty item */
	thrown?: Error;
	/** webhook() returned noWebhookResponse without answering: in n8n the caller waits for ever */
	hung: boolean;
	/** the node wrote its answer before webhook() returned (the caller had it while the node went on) */
	answeredBeforeReturn: boolean;
}

export interface ActiveWebhookTrigger {
	/** the production URL, as the node's getNodeWebhookUrl('default') gives it */
	readonly url: string;
	/** this server's own URL of the webhook (the same as url unless publicWebhookBase is set) */
	readonly localUrl: string;
	/** every call ended so far, in the order they ended */
	readonly calls: WebhookCall[];
	/** every emission (workflowData) so far, in order */
	emissions(): INodeExecutionData[][][];
	/** the items of every emission's first output, in order */
	items(): INodeExecutionData[];
	/** the node's static data as stored now */
	staticData(): IDataObject;
	/** POSTs a JSON body (or raw text with a content type) to the trigger and returns the call once webhook() has returned */
	post(body: unknown, options?: { contentType?: string; raw?: boolean }): Promise<WebhookCall>;
	/** resolves when no call is in the node's webhook() */
	settled(): Promise<void>;
	/** runs the node's webhookMethods.delete, as deactivation does */
	deactivate(): Promise<void>;
	close(): Promise<void>;
}

/** An express-like answer over node's ServerResponse: what a node's getResponseObject() is used for. */
class HarnessResponse {
	constructor(private readonly res: ServerResponse) {}

	get headersSent(): boolean {
		return this.res.headersSent;
	}

	get writableEnded(): boolean {
		return this.res.writableEnded;
	}

	status(code: number): this {
		// As express: a status that is not an integer code throws (n8n then answers 500 and kills the call).
		if (!Number.isInteger(code) || code < 100 || code > 999) throw new RangeError(`Invalid status code: ${String(code)}`);
		this.res.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string | number | readonly string[]): this {
		this.res.setHeader(name, value);
		return this;
	}

	header(name: string, value: string): this {
		return this.setHeader(name, value);
	}

	json(body: unknown): this {
		if (!this.res.headersSent) this.res.setHeader('content-type', 'application/json; charset=utf-8');
		this.res.end(JSON.stringify(body));
		return this;
	}

	send(body: unknown): this {
		if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) return this.json(body);
		this.res.end(body === undefined ? undefined : Buffer.isBuffer(body) ? body : String(body));
		return this;
	}

	end(body?: string | Buffer): this {
		this.res.end(body);
		return this;
	}
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= PAYLOAD_LIMIT_BYTES) chunks.push(chunk);
		});
		req.on('end', () => resolve(size > PAYLOAD_LIMIT_BYTES ? 'too large' : Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** The body as n8n's body parsers give it to a webhook node. */
function parseBody(raw: Buffer, contentType: string): { ok: true; body: unknown } | { ok: false } {
	const type = contentType.split(';')[0].trim().toLowerCase();
	const text = raw.toString('utf8');
	if (type === 'application/json' || type.endsWith('+json')) {
		if (text.trim() === '') return { ok: true, body: {} };
		try {
			return { ok: true, body: JSON.parse(text) as unknown };
		} catch {
			return { ok: false };
		}
	}
	if (type === 'application/x-www-form-urlencoded') return { ok: true, body: { ...parseQuery(text) } };
	if (type.startsWith('text/')) return { ok: true, body: text };
	return { ok: true, body: {} };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.statusCode = status;
	res.setHeader('content-type', 'application/json; charset=utf-8');
	res.end(JSON.stringify(body));
}

/**
 * The body n8n answers a call that starts a run with, in responseMode onReceived (cli's
 * extractWebhookOnReceivedResponse, n8n 2.41.1 and 1.123.81): the description's responseData
 * first, "firstEntryJson" when it has none (n8n's default), then webhook()'s webhookResponse.
 * Only a literal responseData is modelled (this harness evaluates no expression).
 */
function onReceivedBody(responseData: IWebhookDescription['responseData'], result: IWebhookResponseData): unknown {
	const data = responseData === undefined ? 'firstEntryJson' : responseData;
	if (data === 'noData') return undefined;
	if (data) return data;
	return result.webhookResponse ?? { message: 'Workflow was started' };
}

/** Activates a webhook trigger (see the file's header); throws what the node's create threw. */
export async function activateWebhookTrigger(options: WebhookTriggerOptions): Promise<ActiveWebhookTrigger> {
	const session = await openSession(options.process === undefined ? options : { ...options, packageDir: await processPackageDir(options.process) });
	const { credentialsHelper, nodeTypes, mainPackage } = session;
	const credentials = options.credentials ?? {};
	credentialsHelper.setCredentials(credentials);

	const nodeName = options.nodeName ?? 'Webhook trigger under test';
	const type = fullNodeTypeName(mainPackage, options.type);
	const nodeType = nodeTypes.getByNameAndVersion(type) as INodeType;
	const version = options.typeVersion ?? nodeType.description.version;
	const node: INode = {
		id: options.nodeId ?? 'harness-webhook-trigger',
		name: nodeName,
		type,
		typeVersion: Array.isArray(version) ? Math.max(...version) : version,
		position: [0, 0],
		parameters: options.parameters ?? {},
		webhookId: options.webhookId ?? '6f1c2a9e-4b7d-4c03-9e2a-5b7d9c0e1f23',
		credentials: Object.fromEntries(
			Object.keys(credentials).map((name) => [name, { id: HarnessCredentialsHelper.credentialId(name), name: `${name} (harness)` }]),
		),
	};
	const description = nodeType.description.webhooks?.find((webhook) => webhook.name === 'default') as IWebhookDescription | undefined;
	if (!description || typeof description.path !== 'string') throw new Error(`${type} has no webhook "default" with a literal path`);
	const webhookPath = NodeHelpers.getNodeWebhookPath(HARNESS_WORKFLOW_ID, node, description.path.replace(/^\/|\/$/g, ''), false, false);

	const store: SharedStaticData = options.sharedStaticData ?? { value: deepCopy(options.staticData ?? {}) };
	const calls: WebhookCall[] = [];
	const staticDataKey = `node:${nodeName}`;

	const server: Server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const localBase = `http://127.0.0.1:${port}/webhook`;
	const publicBase = (options.publicWebhookBase ?? localBase).replace(/\/$/, '');

	const newWorkflow = () =>
		new Workflow({
			id: HARNESS_WORKFLOW_ID,
			name: 'Harness webhook workflow',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: { [staticDataKey]: deepCopy(store.value) },
			settings: { executionOrder: 'v1' },
		});
	const additionalDataFor = (extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData => ({
		...createAdditionalData({ credentialsHelper, workflowId: HARNESS_WORKFLOW_ID }),
		webhookBaseUrl: publicBase,
		webhookTestBaseUrl: publicBase.replace(/\/webhook$/, '/webhook-test'),
		...extra,
	});
	const webhookDataFor = (additionalData: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: 'POST',
		node: nodeName,
		path: webhookPath,
		webhookDescription: description,
		workflowId: HARNESS_WORKFLOW_ID,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
	});
	const runHook = async (method: 'checkExists' | 'create' | 'delete'): Promise<boolean | undefined> => {
		const hook = nodeType.webhookMethods?.default?.[method];
		if (!hook) return undefined;
		const workflow = newWorkflow();
		const additionalData = additionalDataFor();
		const context =
			options.mode === 'manual'
				? new HookContext(workflow, node, additionalData, 'manual', 'manual', webhookDataFor(additionalData))
				: new HookContext(workflow, node, additionalData, 'trigger', 'activate', webhookDataFor(additionalData));
		return await hook.call(context);
	};

	const handle = async (req: IncomingMessage, res: ServerResponse, call: WebhookCall): Promise<WebhookCall | undefined> => {
		const url = new URL(req.url ?? '/', localBase);
		if (req.method !== 'POST' || url.pathname !== `/webhook/${webhookPath}`) {
			sendJson(res, 404, { code: 404, message: 'The requested webhook is not registered.' });
			return undefined;
		}
		const raw = await readBody(req);
		if (raw === 'too large') {
			sendJson(res, 500, { code: 500, message: 'There was a problem executing the workflow' });
			return undefined;
		}
		const parsed = parseBody(raw, String(req.headers['content-type'] ?? ''));
		if (!parsed.ok) {
			sendJson(res, 422, { code: 422, message: 'Failed to parse request body' });
			return undefined;
		}
		const request = Object.assign(req, { body: parsed.body, params: {}, query: Object.fromEntries(url.searchParams) });
		const response = new HarnessResponse(res);
		const additionalData = additionalDataFor({
			httpRequest: request as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		});
		const workflow = newWorkflow();
		const context = new WebhookContext(workflow, node, additionalData, options.mode ?? 'webhook', webhookDataFor(additionalData), [], null);
		let result: IWebhookResponseData;
		try {
			result = await (nodeType.webhook as NonNullable<INodeType['webhook']>).call(context);
			call.answeredBeforeReturn = res.writableEnded;
		} catch (error) {
			call.thrown = error as Error;
			if (!res.headersSent) sendJson(res, 500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			call.emitted = [[{ json: {} }]];
			return call;
		}
		if (result.noWebhookResponse === true && !res.writableEnded) {
			call.hung = true;
			res.destroy();
		} else if (result.noWebhookResponse !== true && !res.headersSent) {
			sendJson(res, 200, result.workflowData ? onReceivedBody(description.responseData, result) : (result.webhookResponse ?? { message: 'Webhook call received' }));
		}
		// n8n saves the workflow's static data once the call is answered, if the call changed it.
		if ((workflow.staticData as IDataObject).__dataChanged === true) store.value = deepCopy(workflow.staticData[staticDataKey] as IDataObject);
		if (result.workflowData) call.emitted = result.workflowData;
		return call;
	};

	/** Calls whose webhook() has not returned yet (and those of post() until it has read them), by the id post() gives them, others by a counter. */
	const running = new Map<string, Promise<WebhookCall | undefined>>();
	let unnamed = 0;
	server.on('request', (req: IncomingMessage, res: ServerResponse) => {
		const call: WebhookCall = { status: 0, body: undefined, headers: {}, hung: false, answeredBeforeReturn: false };
		const written: Buffer[] = [];
		const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
		res.end = ((chunk?: unknown) => {
			if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) written.push(Buffer.from(chunk));
			call.status = res.statusCode;
			call.headers = res.getHeaders() as WebhookCall['headers'];
			const text = Buffer.concat(written).toString('utf8');
			try {
				call.body = JSON.parse(text) as unknown;
			} catch {
				call.body = text;
			}
			return end(chunk);
		}) as typeof res.end;
		const id = String(req.headers['x-harness-call'] ?? `unnamed-${++unnamed}`);
		const done = handle(req, res, call).catch((error: Error) => {
			if (!res.headersSent) sendJson(res, 500, { message: error.message });
			return undefined;
		});
		running.set(id, done);
		void done.then((ended) => {
			// post() takes its own call out once it has it; the others leave when they end.
			if (!id.startsWith('post-')) running.delete(id);
			if (ended) calls.push(ended);
		});
	});
	let posted = 0;

	try {
		const created = (await runHook('checkExists')) === true ? true : await runHook('create');
		if (created === false) throw new Error("the node's webhookMethods.create answered false");
	} catch (error) {
		// Activation failed: n8n serves nothing for the workflow.
		await new Promise<void>((resolve) => server.close(() => resolve()));
		throw error;
	}
	const path = `/webhook/${webhookPath}`;

	return {
		url: `${publicBase}/${webhookPath}`,
		localUrl: `${localBase}/${webhookPath}`,
		calls,
		emissions: () => calls.flatMap((call) => (call.emitted && !call.thrown ? [call.emitted] : [])),
		items: () => calls.flatMap((call) => (call.emitted && !call.thrown ? (call.emitted[0] ?? []) : [])),
		staticData: () => deepCopy(store.value),
		async post(body, postOptions = {}) {
			const text = postOptions.raw ? String(body) : JSON.stringify(body);
			const id = `post-${++posted}`;
			await new Promise<void>((resolve, reject) => {
				const request = httpRequest(
					{ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': postOptions.contentType ?? 'application/json', 'x-harness-call': id } },
					(res: IncomingMessage) => {
						res.resume();
						res.on('end', () => resolve());
					},
				);
				// A call the node leaves unanswered is closed by the harness (call.hung).
				request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
				request.end(text);
			});
			// Recorded once webhook() has returned (after the answer, when the node answered first).
			const call = await running.get(id);
			running.delete(id);
			if (!call) throw new Error('the call was answered before it reached the webhook (404, 422 or a payload over the limit)');
			return call;
		},
		async settled() {
			while (running.size > 0) await Promise.all([...running.values()]);
		},
		async deactivate() {
			await runHook('delete');
		},
		async close() {
			await Promise.all([...running.values()]);
			if (!server.listening) return;
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await closed;
		},
	};
}
