/** Helpers for the emulator's contract tests: real HTTP through fetch. */
import type { Emulator } from '../../dev/emulator/index';

/** JSON bodies are read loosely in assertions: a test states the shape it expects. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiReply<T = Json> {
	status: number;
	headers: Headers;
	body: T;
}

export interface CallOptions {
	key?: string | null;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
	query?: Record<string, string>;
}

export async function call<T = Json>(emu: Emulator, method: string, path: string, options: CallOptions = {}): Promise<ApiReply<T>> {
	const headers: Record<string, string> = { ...options.headers };
	const key = options.key === undefined ? emu.keys.readWrite : options.key;
	if (key !== null) headers['x-api-key'] = key;
	let body: string | undefined = options.rawBody;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
	const response = await fetch(`${emu.apiUrl}/prod/v1${path}${query}`, { method, headers, body });
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		// leave as text
	}
	return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface UploadResult {
	uploadId: string;
	s3Path: string;
	presignedUploadURL: string;
	reply: ApiReply;
}

/** POST /files/upload then PUT the bytes to the presigned URL; waits for processing. */
export async function uploadFile(
	emu: Emulator,
	fileName: string,
	content: string | Buffer,
	options: { fileType?: string; key?: string; extra?: Record<string, unknown>; wait?: boolean } = {},
): Promise<UploadResult> {
	const reply = await call(emu, 'POST', '/files/upload', {
		key: options.key,
		body: { fileName, fileType: options.fileType ?? 'text/plain', ...options.extra },
	});
	if (reply.status !== 200) throw new Error(`upload request failed: ${reply.status} ${JSON.stringify(reply.body)}`);
	const put = await fetch(reply.body.presignedUploadURL, { method: 'PUT', body: content });
	if (put.status !== 200) throw new Error(`storage PUT failed: ${put.status} ${await put.text()}`);
	if (options.wait !== false) await emu.idle();
	return { uploadId: reply.body.uploadId, s3Path: reply.body.s3Path, presignedUploadURL: reply.body.presignedUploadURL, reply };
}

/** Uploads and returns the one file record of the upload (after processing). */
export async function uploadAndGetFile(emu: Emulator, fileName: string, content: string | Buffer, options: Parameters<typeof uploadFile>[3] = {}): Promise<Json> {
	const { uploadId } = await uploadFile(emu, fileName, content, options);
	const status = await call(emu, 'GET', `/uploads/${uploadId}`, { key: options.key });
	return status.body.files[0];
}

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
