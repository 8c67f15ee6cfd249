/**
 * Helpers for the emulator's contract tests: real HTTP through fetch. API calls and uploads live in
 * dev/emulator/client.ts (the benchmarks use them too) and are re-exported here.
 */
import type { ApiReply, Json } from '../../dev/emulator/client';

export { call, uploadAndGetFile, uploadFile } from '../../dev/emulator/client';
export type { ApiReply, CallOptions, Json, UploadResult } from '../../dev/emulator/client';

export function expectProblem(reply: ApiReply, status: number, code: string): void {
	expect(reply.status).toBe(status);
	expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
	expect(reply.body).toMatchObject({
		status,
		code,
		statusCode: status,
		type: expect.stringMatching(/^https:\/\/.+\/errors\/[a-z-]+$/),
		title: expect.any(String),
		detail: expect.any(String),
		instance: expect.stringMatching(/^\/prod\/v1\//),
		requestId: expect.any(String),
		message: expect.any(String),
		error: expect.any(String),
	});
	expect(reply.body.message).toBe(reply.body.detail);
	expect(reply.body.error).toBe(reply.body.title);
}

export interface CallbackReceiver {
	url: string;
	received: Array<Record<string, Json>>;
	/** Status the receiver answers (default 200). */
	status: number;
	waitFor(count: number, timeoutMs?: number): Promise<Array<Record<string, Json>>>;
	close(): Promise<void>;
}

/** A loopback HTTP server that records JSON POSTs (callback notifications). */
export async function startReceiver(): Promise<CallbackReceiver> {
	const { createServer } = await import('node:http');
	const received: Array<Record<string, Json>> = [];
	let waiters: Array<() => boolean> = [];
	const receiver: CallbackReceiver = {
		url: '',
		received,
		status: 200,
		waitFor: (count, timeoutMs = 10000) =>
			new Promise((resolve, reject) => {
				const check = () => {
					if (received.length >= count) {
						clearTimeout(timer);
						resolve(received);
						return true;
					}
					return false;
				};
				const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} callbacks arrived`)), timeoutMs);
				if (!check()) waiters.push(check);
			}),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (receiver.status >= 200 && receiver.status < 300) {
				received.push({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), __headers: req.headers });
			}
			res.writeHead(receiver.status).end();
			waiters = waiters.filter((waiter) => !waiter());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const address = server.address() as { port: number };
	receiver.url = `http://127.0.0.1:${address.port}/hook`;
	return receiver;
}

/** Raw HTTP request (for bodies fetch cannot send, e.g. chunked without Content-Length). */
export async function rawRequest(url: string, method: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
	const { request } = await import('node:http');
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers }, (res) => {
			const parts: Buffer[] = [];
			res.on('data', (chunk: Buffer) => parts.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
		});
		req.on('error', reject);
		for (const chunk of chunks) req.write(chunk);
		req.end();
	});
}

export interface Observed {
	status?: number;
	headers?: Record<string, string | string[] | undefined>;
	body: Buffer;
	/** ended: the whole response arrived; closed: the connection closed first; open: still open when watching stopped. */
	outcome: 'ended' | 'closed' | 'open';
}

/** Sends one request over node:http and watches its answer for at most `forMs`, then gives up on it. */
export async function observe(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; forMs?: number } = {}): Promise<Observed> {
	const { request } = await import('node:http');
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		const observed: Observed = { body: Buffer.alloc(0), outcome: 'open' };
		let done = false;
		const finish = (outcome: Observed['outcome']) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			observed.outcome = outcome;
			observed.body = Buffer.concat(chunks);
			req.destroy();
			resolve(observed);
		};
		const timer = setTimeout(() => finish('open'), options.forMs ?? 500);
		const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
			observed.status = res.statusCode;
			observed.headers = res.headers;
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => finish('ended'));
			res.on('error', () => finish('closed'));
			res.on('close', () => finish(res.complete ? 'ended' : 'closed'));
		});
		req.on('error', () => finish('closed'));
		req.on('close', () => {
			if (observed.status === undefined) finish('closed');
		});
		req.end(options.body);
	});
}
