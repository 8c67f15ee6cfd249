/**
 * Workflows of Upload's Wait Mode "When the Service Calls Back" in the real n8n: the end-to-end
 * suites (test/e2e, test/e2e-n8n1, test/queue) and `npm run bench:queue` share them. Each starts
 * from a production Webhook (answering at once), so its executions are production executions,
 * which n8n may save or not ("save successful executions").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { invoiceText, receiptText } from '../documents';
import type { Emulator } from '../emulator';
import type { N8nInstance } from './n8n-launcher';
import { EMULATOR_CREDENTIAL_ID, EMULATOR_CREDENTIAL_NAME, NODE_TYPE, listExecutions, type ExecutionRecord, type WorkflowJson } from './n8n-stack';

const CREDENTIALS = { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } };

export const CALLBACK_UPLOAD_NODE = 'Upload and wait for the callbacks';
export const PICK_UP_NODE = 'Pick up';

export interface CallbackWorkflowOptions {
	id: string;
	name: string;
	/** The production webhook's path: POST <n8n>/webhook/<path> starts an execution. */
	webhookPath: string;
	webhookId: string;
	/** Where the documents come from: the file posted to the webhook, or every file a glob matches (Read/Write Files). */
	documents: { postedFile: true } | { glob: string };
	/** Wait Timeout (seconds) of the Upload. */
	waitTimeout?: number;
	/** Include Extracted Values (default true). */
	includeValues?: boolean;
	/** Workflow settings, e.g. { saveDataSuccessExecution: 'none' }. */
	settings?: Record<string, unknown>;
	/**
	 * What follows the Upload (default 'status'): Get Upload Status for each item, by `uploadId`, or
	 * after a Wait Timeout by the node's context; 'report': Report Export Status "completed" for each
	 * file (a write the emulator records, so that a test sees the rest of the workflow ran, and how
	 * often, when n8n saves nothing); 'none'.
	 */
	after?: 'status' | 'report' | 'none';
	/** "Poll the Service" instead (the benchmark's baseline). */
	polling?: boolean;
}

/** Webhook -> (Read/Write Files) -> Upload, waiting for the callbacks -> Get Upload Status. */
export function callbackUploadWorkflow(options: CallbackWorkflowOptions): WorkflowJson {
	const fromFolder = 'glob' in options.documents;
	const nodes: WorkflowJson['nodes'] = [
		{
			id: 'c1',
			name: 'Documents arrive',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: options.webhookId,
			parameters: { httpMethod: 'POST', path: options.webhookPath, responseMode: 'onReceived', options: fromFolder ? {} : { binaryPropertyName: 'data' } },
		},
	];
	if ('glob' in options.documents) {
		nodes.push({ id: 'c2', name: 'Read the documents', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [220, 0], parameters: { operation: 'read', fileSelector: options.documents.glob, options: {} } });
	}
	nodes.push({
		id: 'c3',
		name: CALLBACK_UPLOAD_NODE,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [440, 0],
		parameters: {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
			waitForCompletion: true,
			waitMode: options.polling ? 'poll' : 'callback',
			includeExtractedValues: options.includeValues ?? true,
			options: { mimeType: 'text/plain', waitTimeout: options.waitTimeout ?? 600, ...(options.polling ? { pollInterval: 1 } : {}) },
		},
		credentials: CREDENTIALS,
	});
	const after = options.after ?? 'status';
	if (after !== 'none') {
		nodes.push({
			id: 'c4',
			name: PICK_UP_NODE,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [660, 0],
			parameters:
				after === 'status'
					? { resource: 'file', operation: 'getUploadStatus', uploadId: `={{ $json.uploadId ?? $('${CALLBACK_UPLOAD_NODE}').context.uploadIds[$itemIndex] }}`, options: {} }
					: { resource: 'file', operation: 'reportExportStatus', fileId: { __rl: true, mode: 'id', value: '={{ $json.fileId }}' }, status: 'completed', options: {} },
			credentials: CREDENTIALS,
		});
	}
	const chain = nodes.map((node) => node.name);
	const connections: WorkflowJson['connections'] = {};
	for (let index = 0; index + 1 < chain.length; index++) connections[chain[index]] = { main: [[{ node: chain[index + 1], type: 'main', index: 0 }]] };
	return { id: options.id, name: options.name, nodes, connections, settings: { executionOrder: 'v1', ...options.settings } };
}

/** Writes `count` text documents (invoices and receipts, in turn) into `folder`; returns the glob that reads them. */
export function writeCallbackDocuments(folder: string, count: number): string {
	fs.mkdirSync(folder, { recursive: true });
	for (let index = 0; index < count; index++) {
		fs.writeFileSync(path.join(folder, `callback-${String(index).padStart(3, '0')}.txt`), index % 2 === 0 ? invoiceText() : receiptText());
	}
	return path.join(folder, '*.txt');
}

/** POSTs to a production webhook (retrying while n8n answers 404 just after activation); resolves with n8n's answer. */
export async function postToWebhook(n8nUrl: string, webhookPath: string, body: { file?: { name: string; text: string } } = {}): Promise<number> {
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(`${n8nUrl}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: body.file
				? { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="${body.file.name}"` }
				: { 'content-type': 'application/json' },
			body: body.file ? body.file.text : '{}',
		});
		await response.arrayBuffer();
		if (response.status !== 404 || attempt > 60) return response.status;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Polls `probe` every half second until it gives a value; fails naming `what` after `timeoutMs`. */
async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** Starts an execution through a workflow's production webhook; resolves with its id once n8n lists it (ids in `seen` are not new). */
export async function executionFromWebhook(n8n: N8nInstance, workflowId: string, webhookPath: string, seen: ReadonlySet<string> = new Set()): Promise<string> {
	const before = new Set([...seen, ...(await listExecutions(n8n, workflowId)).map((execution) => execution.id)]);
	const status = await postToWebhook(n8n.url, webhookPath);
	if (status !== 200) throw new Error(`POST /webhook/${webhookPath} answered ${status}`);
	return await poll(`a new execution of ${workflowId}`, async () => (await listExecutions(n8n, workflowId)).find((execution) => !before.has(execution.id))?.id, 60_000);
}

/** The execution ids that the callback URLs held by the emulator name (`…/webhook-waiting/<id>/…`). */
function executionIdsInCallbacks(emulator: Emulator): Set<string> {
	const ids = new Set<string>();
	for (const upload of emulator.state.uploads.values()) {
		const text = upload.params.callbackURL;
		if (!text) continue;
		const [, endpoint, id] = new URL(text).pathname.split('/');
		if (endpoint === 'webhook-waiting' && id) ids.add(id);
	}
	return ids;
}

/**
 * Starts an execution of a callback-waiting Upload through its production webhook; resolves with
 * its id once its uploads reached the emulator. Not from n8n's execution list: n8n 1.123.81 left a
 * second waiting execution out of `GET /executions` until it had ended (measured under load).
 */
export async function executionFromUploads(n8n: N8nInstance, emulator: Emulator, webhookPath: string): Promise<string> {
	const before = executionIdsInCallbacks(emulator);
	const status = await postToWebhook(n8n.url, webhookPath);
	if (status !== 200) throw new Error(`POST /webhook/${webhookPath} answered ${status}`);
	return await poll(`the uploads of a new execution (POST /webhook/${webhookPath})`, async () => [...executionIdsInCallbacks(emulator)].find((id) => !before.has(id)), 60_000);
}

/** An execution as the public API lists it (with its waitTill while it waits). */
export async function executionRecord(n8n: N8nInstance, executionId: string): Promise<ExecutionRecord & { waitTill?: string | null }> {
	return await n8n.publicApi<ExecutionRecord & { waitTill?: string | null }>(`/executions/${executionId}`);
}

/** Resolves once n8n lists the execution as waiting. */
export async function untilWaiting(n8n: N8nInstance, executionId: string, timeoutMs = 120_000): Promise<void> {
	await poll(`execution ${executionId} to wait`, async () => ((await executionRecord(n8n, executionId)).status === 'waiting' ? true : undefined), timeoutMs);
}

/** The callback URLs the emulator holds for the uploads of one execution. */
export function callbackUrlsOfExecution(emulator: Emulator, executionId: string): string[] {
	return [...emulator.state.uploads.values()].map((upload) => upload.params.callbackURL ?? '').filter((url) => url.includes(`/webhook-waiting/${executionId}/`));
}
