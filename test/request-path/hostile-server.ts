/**
 * In-process HTTP servers on 127.0.0.1 that answer what a generator scripted: the API host, a
 * storage host (presigned PUTs) and a trap host (any other host; nothing carrying the key may
 * reach it). Each answer is written raw on the socket, so it can be anything a hostile service
 * sends: any status, a Retry-After in any shape, a Content-Length that lies, gzip that is real, a
 * bomb or a lie, bodies that echo the key, huge bodies (written with backpressure, their bytes
 * counted until the client closes), chunks with pauses, a stall, a reset. Once the script has run
 * out, each path gets a sane answer, so a run ends.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import fc from 'fast-check';

import type { RetryAfterShape } from './retry-after';
import { retryAfterShapes } from './retry-after';

export type BodyKind =
	| 'valid'
	| 'problem'
	| 'html'
	| 'empty'
	| 'invalid json'
	| 'unexpected shape'
	| 'huge'
	| 'gzip'
	| 'gzip bomb'
	| 'gzip lie'
	| 'storage xml';
export type LengthLie = 'none' | 'absent' | 'short' | 'long' | 'negative' | 'text';
export type Speed = 'fast' | 'chunks' | 'stall' | 'reset';
export type KeyEcho = 'none' | 'body' | 'deep' | 'header' | 'location' | 'encoded';

export interface AnswerSpec {
	status: number;
	retryAfter?: RetryAfterShape;
	body: BodyKind;
	lengthLie: LengthLie;
	speed: Speed;
	echo: KeyEcho;
}

/** Any answer at all: every field drawn on its own. */
const anyAnswer: fc.Arbitrary<AnswerSpec> = fc.record(
	{
		status: fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(200, 201, 204, 429, 429, 500, 502, 503, 504) },
			{ weight: 2, arbitrary: fc.constantFrom(301, 302, 303, 307, 308, 400, 401, 403, 404, 408, 409, 413, 422, 501, 505, 599) },
			{ weight: 1, arbitrary: fc.integer({ min: 100, max: 999 }).filter((status) => status >= 200) },
		),
		retryAfter: retryAfterShapes,
		body: fc.oneof(
			{ weight: 6, arbitrary: fc.constantFrom<BodyKind>('valid', 'problem') },
			{ weight: 4, arbitrary: fc.constantFrom<BodyKind>('html', 'empty', 'invalid json', 'unexpected shape', 'gzip', 'gzip lie', 'storage xml') },
			{ weight: 1, arbitrary: fc.constantFrom<BodyKind>('huge', 'gzip bomb') },
		),
		lengthLie: fc.oneof(
			{ weight: 8, arbitrary: fc.constant<LengthLie>('none') },
			{ weight: 1, arbitrary: fc.constantFrom<LengthLie>('absent', 'long', 'negative', 'text') },
			// Short: the client waits for bytes that never come (a Request Timeout of real time).
			{ weight: 1, arbitrary: fc.constant<LengthLie>('short') },
		),
		speed: fc.oneof(
			{ weight: 12, arbitrary: fc.constant<Speed>('fast') },
			{ weight: 3, arbitrary: fc.constantFrom<Speed>('chunks', 'reset') },
			{ weight: 1, arbitrary: fc.constant<Speed>('stall') },
		),
		echo: fc.constantFrom<KeyEcho>('none', 'none', 'body', 'deep', 'header', 'location', 'encoded'),
	},
	{ requiredKeys: ['status', 'body', 'lengthLie', 'speed', 'echo'] },
);

/**
 * Answers as a hostile service sends them: often a sane one (so runs get past the first request),
 * 429s with a Retry-After in any shape, 5xx, and anything at all.
 */
export const answerSpecs: fc.Arbitrary<AnswerSpec> = fc.oneof(
	{ weight: 4, arbitrary: anyAnswer.map((spec) => ({ ...spec, status: 200, body: 'valid' as const, lengthLie: 'none' as const, speed: 'fast' as const })) },
	{ weight: 3, arbitrary: anyAnswer.map((spec) => ({ ...spec, status: 429 })) },
	{ weight: 2, arbitrary: fc.tuple(anyAnswer, fc.constantFrom(500, 502, 503, 504)).map(([spec, status]) => ({ ...spec, status })) },
	{ weight: 1, arbitrary: fc.tuple(anyAnswer, fc.constantFrom(301, 302, 303, 307, 308)).map(([spec, status]) => ({ ...spec, status })) },
	{ weight: 1, arbitrary: fc.tuple(anyAnswer, fc.constantFrom<BodyKind>('huge', 'gzip bomb')).map(([spec, body]) => ({ ...spec, status: 200, body, speed: 'fast' as const })) },
	{ weight: 3, arbitrary: anyAnswer },
);

export interface LoggedRequest {
	host: 'api' | 'storage' | 'trap';
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	/** Bytes of a huge answer accepted by the socket before the client closed it. */
	hugeBytesWritten?: number;
}

/** What the default answers of the API host are made of. */
export interface ServiceShape {
	/** Full pages of the file list before a short last one. */
	listPages: number;
	/** Whether a list page gives the total. */
	listTotal: boolean;
	/** Bytes of padding per file record (big pages). */
	recordPadding: number;
	/** Where the upload request's presigned URL points. */
	uploadUrl: 'storage' | 'trap' | 'public host' | 'ftp';
}

export const serviceShapes: fc.Arbitrary<ServiceShape> = fc.record({
	listPages: fc.integer({ min: 0, max: 4 }),
	listTotal: fc.boolean(),
	recordPadding: fc.constantFrom(0, 0, 100, 12 * 1024),
	uploadUrl: fc.constantFrom<ServiceShape['uploadUrl']>('storage', 'storage', 'trap', 'public host', 'ftp'),
});

export const HUGE_BYTES = 48 * 1024 * 1024;
const GZIP_BOMB = gzipSync(Buffer.alloc(24 * 1024 * 1024, 32));

interface Listener {
	server: Server;
	url: string;
	sockets: Set<Socket>;
}

async function listen(handler: (request: IncomingMessage, socket: Socket) => void): Promise<Listener> {
	const sockets = new Set<Socket>();
	const server = createServer();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('request', (request: IncomingMessage) => {
		// Read (and drop) the request's body, then answer raw on the socket.
		request.on('data', () => undefined);
		request.on('end', () => handler(request, request.socket));
		request.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function nest(value: unknown, depth: number): unknown {
	let nested = value;
	for (let level = 0; level < depth; level++) nested = { level, inner: [nested] };
	return nested;
}

export class HostileService {
	readonly log: LoggedRequest[] = [];
	private api!: Listener;
	private storage!: Listener;
	private trap!: Listener;
	private next = 0;
	private page = 0;

	constructor(
		private readonly apiKey: string,
		private readonly script: AnswerSpec[],
		private readonly storageScript: AnswerSpec[],
		private readonly shape: ServiceShape,
	) {}

	async start(): Promise<this> {
		this.api = await listen((request, socket) => void this.answerApi(request, socket));
		this.storage = await listen((request, socket) => void this.answerStorage(request, socket));
		this.trap = await listen((request, socket) => {
			this.log.push({ host: 'trap', method: request.method ?? '', url: request.url ?? '', headers: request.headers });
			void this.write(socket, { status: 200, body: 'valid', lengthLie: 'none', speed: 'fast', echo: 'none' }, '{"trap":true}', 'application/json');
		});
		return this;
	}

	get apiUrl(): string {
		return this.api.url;
	}

	async close(): Promise<void> {
		for (const listener of [this.api, this.storage, this.trap]) {
			for (const socket of listener.sockets) socket.destroy();
			await new Promise((resolve) => listener.server.close(resolve));
		}
	}

	/** The sane answer of a path once the script has run out (or for a "valid" body). */
	private validBody(method: string, path: string): unknown {
		if (path.endsWith('/subscription')) return { subscription: { subscriptionPlan: 'free', credit: 10 } };
		if (method === 'POST' && path.endsWith('/files/upload')) {
			const uploadId = randomUUID();
			const target =
				this.shape.uploadUrl === 'storage'
					? `${this.storage.url}/bucket/${uploadId}?X-Amz-Signature=${'a'.repeat(64)}`
					: this.shape.uploadUrl === 'trap'
						? `${this.trap.url}/bucket/${uploadId}?X-Amz-Signature=${'b'.repeat(64)}`
						: this.shape.uploadUrl === 'public host'
							? `http://storage.example.com/bucket/${uploadId}`
							: `ftp://127.0.0.1/bucket/${uploadId}`;
			return { uploadId, presignedUploadURL: target };
		}
		if (path.endsWith('/files')) {
			this.page += 1;
			const count = this.page <= this.shape.listPages ? 100 : 7;
			const files = Array.from({ length: count }, () => ({
				fileId: randomUUID(),
				fileName: 'f.pdf',
				status: 'processed',
				createdAt: '2026-01-01T00:00:00.000Z',
				...(this.shape.recordPadding ? { note: 'p'.repeat(this.shape.recordPadding) } : {}),
			}));
			return this.shape.listTotal ? { files, count: this.shape.listPages * 100 + 7 } : { files };
		}
		return { ok: true };
	}

	private bodyText(spec: AnswerSpec, method: string, path: string): { text: string | Buffer; type: string; encoding?: string } {
		const key = this.apiKey;
		const echoed = spec.echo === 'body' ? { echo: key } : spec.echo === 'deep' ? { echo: nest(`key=${key}`, 8) } : spec.echo === 'encoded' ? { echo: encodeURIComponent(key) } : {};
		const retryAfter = spec.retryAfter && 'body' in spec.retryAfter ? { retryAfter: spec.retryAfter.body } : {};
		switch (spec.body) {
			case 'valid': {
				const body = this.validBody(method, path);
				return { text: JSON.stringify(body && typeof body === 'object' ? { ...body, ...echoed } : body), type: 'application/json' };
			}
			case 'problem':
				return {
					text: JSON.stringify({ title: 'Generated', status: spec.status, detail: `detail ${spec.echo !== 'none' ? key : ''}`, ...retryAfter, ...echoed }),
					type: 'application/problem+json',
				};
			case 'html':
				return { text: `<html><body><h1>Oops</h1><p>${spec.echo !== 'none' ? key : ''}</p></body></html>`, type: 'text/html' };
			case 'empty':
				return { text: '', type: 'application/json' };
			case 'invalid json':
				return { text: `{"files": [${spec.echo !== 'none' ? key : ''}`, type: 'application/json' };
			case 'unexpected shape':
				return { text: JSON.stringify([1, 2, { key: spec.echo !== 'none' ? key : 'none' }]), type: 'application/json' };
			case 'gzip':
				return { text: gzipSync(JSON.stringify({ ...(this.validBody(method, path) as object), ...echoed })), type: 'application/json', encoding: 'gzip' };
			case 'gzip bomb':
				return { text: GZIP_BOMB, type: 'application/json', encoding: 'gzip' };
			case 'gzip lie':
				return { text: JSON.stringify(this.validBody(method, path)), type: 'application/json', encoding: 'gzip' };
			case 'storage xml':
				return { text: `<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>m ${spec.echo !== 'none' ? key : ''}</Message></Error>`, type: 'application/xml' };
			case 'huge':
				return { text: '', type: 'application/json' };
		}
	}

	private async answerApi(request: IncomingMessage, socket: Socket): Promise<void> {
		const entry: LoggedRequest = { host: 'api', method: request.method ?? '', url: request.url ?? '', headers: request.headers };
		this.log.push(entry);
		const path = (request.url ?? '').split('?')[0];
		const spec = this.script[this.next++] ?? { status: 200, body: 'valid', lengthLie: 'none', speed: 'fast', echo: 'none' };
		await this.respond(socket, spec, request.method ?? '', path, entry);
	}

	private async answerStorage(request: IncomingMessage, socket: Socket): Promise<void> {
		const entry: LoggedRequest = { host: 'storage', method: request.method ?? '', url: request.url ?? '', headers: request.headers };
		this.log.push(entry);
		const spec = this.storageScript.shift() ?? { status: 200, body: 'empty', lengthLie: 'none', speed: 'fast', echo: 'none' };
		await this.respond(socket, spec, request.method ?? '', request.url ?? '', entry);
	}

	private async respond(socket: Socket, spec: AnswerSpec, method: string, path: string, entry: LoggedRequest): Promise<void> {
		if (spec.speed === 'reset') {
			socket.destroy();
			return;
		}
		if (spec.body === 'huge') {
			entry.hugeBytesWritten = await this.writeHuge(socket, spec);
			return;
		}
		const { text, type, encoding } = this.bodyText(spec, method, path);
		await this.write(socket, spec, text, type, encoding);
	}

	private head(spec: AnswerSpec, length: number | undefined, type: string, encoding?: string): string {
		const lines = [`HTTP/1.1 ${spec.status} Generated`, `Content-Type: ${type}`, 'Connection: close'];
		if (encoding) lines.push(`Content-Encoding: ${encoding}`);
		if (spec.retryAfter?.header !== undefined && /^[\x20-\x7e]*$/.test(spec.retryAfter.header)) lines.push(`Retry-After: ${spec.retryAfter.header}`);
		if (spec.echo === 'header') lines.push(`X-Echo: ${this.apiKey}`);
		if (spec.status >= 300 && spec.status < 400) {
			lines.push(`Location: ${this.trap.url}/redirected${spec.echo === 'location' ? `?key=${this.apiKey}` : ''}`);
		}
		const lie = spec.lengthLie;
		if (length !== undefined && lie !== 'absent') {
			const value = lie === 'short' ? length + 10 : lie === 'long' ? Math.max(0, length - 5) : lie === 'negative' ? -1 : lie === 'text' ? 'lots' : length;
			lines.push(`Content-Length: ${value}`);
		}
		return `${lines.join('\r\n')}\r\n\r\n`;
	}

	private async write(socket: Socket, spec: AnswerSpec, text: string | Buffer, type: string, encoding?: string): Promise<void> {
		const body = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
		if (socket.destroyed) return;
		socket.write(this.head(spec, body.length, type, encoding));
		if (spec.speed === 'stall') {
			// Half the body, then nothing: the socket stays open until the client gives up.
			socket.write(body.subarray(0, Math.floor(body.length / 2)));
			return;
		}
		if (spec.speed === 'chunks') {
			for (let offset = 0; offset < body.length && !socket.destroyed; offset += 512) {
				socket.write(body.subarray(offset, offset + 512));
				await wait(2);
			}
		} else {
			socket.write(body);
		}
		// A Content-Length longer than the body: the client waits for the rest (its Request Timeout).
		if (spec.lengthLie !== 'short') socket.end();
	}

	/** A huge 200-shaped body, written with backpressure until the client closes; returns the bytes the socket took. */
	private async writeHuge(socket: Socket, spec: AnswerSpec): Promise<number> {
		const chunk = Buffer.alloc(64 * 1024, 32);
		chunk.write('{"files":[],"pad":"');
		let written = 0;
		socket.write(this.head({ ...spec, lengthLie: spec.lengthLie === 'none' ? 'absent' : spec.lengthLie }, spec.lengthLie === 'none' ? undefined : HUGE_BYTES, 'application/json'));
		while (written < HUGE_BYTES && !socket.destroyed) {
			const more = socket.write(chunk);
			written += chunk.length;
			if (!more) {
				await new Promise<void>((resolve) => {
					const done = () => {
						socket.off('drain', done);
						socket.off('close', done);
						resolve();
					};
					socket.on('drain', done);
					socket.on('close', done);
				});
			}
		}
		// What the socket did not take when it closed was never sent.
		const unsent = socket.writableLength;
		if (!socket.destroyed) socket.end('"}');
		return written - unsent;
	}
}
