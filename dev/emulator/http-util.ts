import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, problemBody } from './problem';
import type { Query } from './validate';

export interface JsonResponse {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/** The parts of a request target the emulator uses (cheaper than new URL per request). */
export interface RequestUrl {
	pathname: string;
	searchParams: URLSearchParams;
	query: Record<string, string | string[]>;
	/** The query string as received, without '?'. */
	rawQuery: string;
}

export function parseRequestUrl(target: string): RequestUrl {
	const queryStart = target.indexOf('?');
	const rawPath = queryStart < 0 ? target : target.slice(0, queryStart);
	const rawQuery = queryStart < 0 ? '' : target.slice(queryStart + 1);
	const searchParams = new URLSearchParams(rawQuery);
	// an absolute-form target (proxy style) keeps only its path
	const pathname = /^https?:\/\//i.test(rawPath) ? rawPath.replace(/^https?:\/\/[^/]*/i, '') || '/' : rawPath || '/';
	return { pathname, searchParams, query: parseQuery(searchParams), rawQuery };
}

/** Maximum size of a JSON request body. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;

export function parseQuery(searchParams: URLSearchParams): Query {
	const query: Query = {};
	for (const [name, value] of searchParams) {
		const existing = query[name];
		if (existing === undefined) query[name] = value;
		else if (Array.isArray(existing)) existing.push(value);
		else query[name] = [existing, value];
	}
	return query;
}

/** Reads the whole (small) body; `onBytes` sees every chunk's size for the request log. */
export function readBody(req: IncomingMessage, limit: number, onBytes: (bytes: number) => void): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let total = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			total += chunk.length;
			onBytes(chunk.length);
			if (total > limit) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => {
			if (tooLarge) reject(new ApiError(413, `The request body exceeds ${limit} bytes.`));
			else resolve(Buffer.concat(chunks, total));
		});
		req.on('error', reject);
	});
}

/**
 * An answer body given as JSON text, sent as it is: for a fault whose answer JSON.stringify cannot
 * write (a value nested tens of thousands deep, which JSON.parse on the other side reads fine).
 */
export class JsonText {
	constructor(readonly text: string) {}
}

export function sendJson(res: ServerResponse, response: JsonResponse, requestId: string): void {
	const payload = response.body === undefined ? '' : response.body instanceof JsonText ? response.body.text : JSON.stringify(response.body);
	const headers: Record<string, string | number> = {
		'x-request-id': requestId,
		...response.headers,
	};
	if (payload !== '') {
		headers['content-type'] ??= 'application/json; charset=utf-8';
		headers['content-length'] = Buffer.byteLength(payload);
	}
	res.writeHead(response.status, headers);
	res.end(payload);
}

export function problemResponse(error: ApiError, instance: string, requestId: string): JsonResponse {
	const headers: Record<string, string> = { 'content-type': 'application/problem+json; charset=utf-8' };
	if (error.extra.retryAfter !== undefined) headers['retry-after'] = String(error.extra.retryAfter);
	return { status: error.status, body: problemBody(error, instance, requestId), headers };
}

/** JSON with object keys sorted: two bodies with the same content give the same string. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value as Record<string, unknown>)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
