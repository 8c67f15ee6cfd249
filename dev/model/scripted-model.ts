/**
 * A scripted chat model for tests: an OpenAI-compatible HTTP server on 127.0.0.1 that n8n's
 * OpenAI Chat Model node talks to when its credential's Base URL points here. It answers
 * `GET /v1/models` and `POST /v1/chat/completions` (plain JSON, or server-sent events when the
 * request asks for `stream: true`), with the replies a test scripts, and records every request.
 * No model and no network: the script is data in the test. Requests addressed to any host but
 * localhost, 127.x or [::1] (a DNS-rebinding page) get 421 (dev/host-check.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { refuseForeignHost } from '../host-check';

export interface ToolCall {
	/** The tool's name as n8n offers it (see `toolNames` of a request). */
	name: string;
	arguments: Record<string, unknown>;
}

/** One reply of the model: tool calls, or a final text answer. */
export type ScriptedReply = { toolCalls: ToolCall[] } | { text: string };

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
	name?: string;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
	stream?: boolean;
	[key: string]: unknown;
}

export interface RecordedRequest {
	path: string;
	body: ChatRequest;
	/** The tools offered, by name. */
	toolNames: string[];
	/** The results of tool calls sent back to the model in this request, by tool call id. */
	toolResults: Array<{ toolCallId: string; content: string }>;
}

/**
 * Decides a reply from the request (a function), or takes the next of a list. The last reply of a
 * list repeats, so a script `[call, answer]` serves any number of turns after the call.
 */
export type Script = ScriptedReply[] | ((request: RecordedRequest, turn: number) => ScriptedReply);

export interface ScriptedModel {
	/** e.g. http://127.0.0.1:PORT/v1: the `url` of n8n's OpenAI credential. */
	baseUrl: string;
	/** Every chat completions request, oldest first. */
	readonly requests: RecordedRequest[];
	setScript(script: Script): void;
	close(): Promise<void>;
}

function readJson(req: IncomingMessage): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			try {
				resolve(text ? JSON.parse(text) : {});
			} catch (error) {
				reject(error);
			}
		});
		req.on('error', reject);
	});
}

function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : String((part as { text?: unknown }).text ?? ''))).join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

function record(path: string, body: ChatRequest): RecordedRequest {
	return {
		path,
		body,
		toolNames: (body.tools ?? []).map((tool) => tool.function.name),
		toolResults: (body.messages ?? [])
			.filter((message) => message.role === 'tool')
			.map((message) => ({ toolCallId: String(message.tool_call_id), content: contentText(message.content) })),
	};
}

function completionMessage(reply: ScriptedReply): { content: string | null; tool_calls?: unknown[]; finish: string } {
	if ('text' in reply) return { content: reply.text, finish: 'stop' };
	return {
		content: null,
		tool_calls: reply.toolCalls.map((call) => ({
			id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
			type: 'function',
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		})),
		finish: 'tool_calls',
	};
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function answer(res: ServerResponse, body: ChatRequest, reply: ScriptedReply): void {
	const id = `chatcmpl-${randomUUID()}`;
	const created = Math.floor(Date.now() / 1000);
	const message = completionMessage(reply);
	if (!body.stream) {
		const payload = {
			id,
			object: 'chat.completion',
			created,
			model: body.model,
			choices: [{ index: 0, message: { role: 'assistant', content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) }, finish_reason: message.finish }],
			usage: USAGE,
		};
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(payload));
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
		res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
	chunk({ role: 'assistant', content: message.tool_calls ? null : '' }, null);
	if (message.tool_calls) {
		(message.tool_calls as Array<{ id: string; type: string; function: { name: string; arguments: string } }>).forEach((call, index) =>
			chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] }, null),
		);
	} else {
		chunk({ content: message.content }, null);
	}
	chunk({}, message.finish);
	if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
		res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: USAGE })}\n\n`);
	}
	res.end('data: [DONE]\n\n');
}

/** Starts the server on 127.0.0.1, on `options.port` (default 0: a free port). */
export async function startScriptedModel(script: Script = [{ text: 'Done.' }], options: { port?: number } = {}): Promise<ScriptedModel> {
	let current: Script = script;
	const requests: RecordedRequest[] = [];
	const server: Server = createServer((req, res) => {
		if (refuseForeignHost(req, res, 'The scripted chat model')) return;
		void (async () => {
			const path = (req.url ?? '/').split('?')[0];
			if (req.method === 'GET' && path.endsWith('/models')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'tests' }] }));
				return;
			}
			if (req.method === 'POST' && path.endsWith('/chat/completions')) {
				const body = (await readJson(req)) as ChatRequest;
				const recorded = record(path, body);
				requests.push(recorded);
				const turn = requests.length - 1;
				const reply = typeof current === 'function' ? current(recorded, turn) : current[Math.min(turn, current.length - 1)];
				answer(res, body, reply);
				return;
			}
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `The scripted model does not serve ${req.method} ${path}` } }));
		})().catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: String((error as Error).message) } }));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		setScript: (next) => {
			current = next;
			requests.length = 0;
		},
		close: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
