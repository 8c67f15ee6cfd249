/** How the faults that shape an answer write it: injected failures, resets, redirects, cut-short
 * bodies, exact Retry-After values and rewritten presigned URLs. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FailFault, HangFault, HostName, HugeAnswerFault, PartPlanFault, RedirectFault, ResetFault, TrickleFault } from './faults';
import { problemResponse, sendJson } from './http-util';
import { ApiError } from './problem';

/** The value of `retryAfterBody` / `retryAfterHeader` that leaves the body key / the header out. */
export const OMIT = '(omit)';

/** The problem body's retryAfter: an empty list when the body has none. */
export function bodyRetryAfter(fault: FailFault): unknown[] {
	if ('retryAfterBody' in fault) {
		return fault.retryAfterBody === undefined || fault.retryAfterBody === OMIT ? [] : [fault.retryAfterBody];
	}
	return fault.retryAfter === undefined ? [] : [fault.retryAfter];
}

/** The Retry-After header text, or undefined for none. */
export function headerRetryAfter(fault: FailFault): string | undefined {
	if (fault.retryAfterHeader !== undefined) return fault.retryAfterHeader === OMIT ? undefined : fault.retryAfterHeader;
	return fault.retryAfter === undefined ? undefined : String(fault.retryAfter);
}

/** An injected failure: problem+json on the API (and trap) host, S3-style XML on the storage host. */
export function sendFault(host: HostName, res: ServerResponse, fault: FailFault, path: string, requestId: string): void {
	const status = fault.status ?? 500;
	const detail = fault.detail ?? (status === 429 ? 'Rate limit exceeded; retry later.' : `Injected fault: HTTP ${status}.`);
	const retryAfter = headerRetryAfter(fault);
	if (fault.rawBody !== undefined) {
		const headers: Record<string, string | number> = { 'content-type': 'text/html', 'content-length': Buffer.byteLength(fault.rawBody), 'x-request-id': requestId };
		if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
		res.writeHead(status, headers);
		res.end(fault.rawBody);
		return;
	}
	if (host === 'storage') {
		const code = status === 503 ? 'SlowDown' : status === 403 ? 'AccessDenied' : status >= 500 ? 'InternalError' : 'InvalidRequest';
		const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${detail}</Message><RequestId>${requestId}</RequestId></Error>`;
		const headers: Record<string, string | number> = { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) };
		if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
		res.writeHead(status, headers);
		res.end(body);
		return;
	}
	const problem = problemResponse(new ApiError(status, detail), path, requestId);
	const body = { ...(problem.body as Record<string, unknown>), ...(fault.problem ?? {}) };
	const headers: Record<string, string> = { ...problem.headers };
	for (const value of bodyRetryAfter(fault)) body.retryAfter = value;
	if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
	sendJson(res, { ...problem, body, headers }, requestId);
}

/** Destroys the socket once `afterBytes` body bytes arrived (at once when 0 or no body). */
export function resetMidBody(req: IncomingMessage, fault: ResetFault, onBytes: (bytes: number) => void): void {
	const afterBytes = fault.afterBytes ?? 1;
	let received = 0;
	const declared = Number(req.headers['content-length'] ?? 0);
	const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
	if (afterBytes <= 0 || !hasBody) {
		req.socket.destroy();
		return;
	}
	req.on('data', (chunk: Buffer) => {
		received += chunk.length;
		onBytes(chunk.length);
		if (received >= afterBytes) req.socket.destroy();
	});
	req.on('end', () => req.socket.destroy());
}

export function sendRedirect(req: IncomingMessage, res: ServerResponse, fault: RedirectFault, defaultLocation: string, requestId: string): void {
	req.resume();
	res.writeHead(fault.status ?? 302, { location: fault.location ?? defaultLocation, 'content-length': 0, 'x-request-id': requestId });
	res.end();
}

type Patchable = Record<'writeHead' | 'write' | 'end', (...args: unknown[]) => unknown>;

function declaredLength(res: ServerResponse, writeHeadArgs: unknown[]): number | undefined {
	for (const arg of writeHeadArgs) {
		if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) continue;
		for (const [name, value] of Object.entries(arg)) {
			if (name.toLowerCase() === 'content-length') return Number(value);
		}
	}
	const set = res.getHeader('content-length');
	return set === undefined ? undefined : Number(set);
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
	if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
	return Buffer.from(chunk as Uint8Array);
}

/**
 * Lets whatever the handler sends through up to the status line, the headers (with the real
 * Content-Length) and the first `afterBytes` body bytes (default half the body), then leaves the
 * socket open ('stall-body') or destroys it once those bytes are out ('close-body'). The
 * handlers are unaware of it: the response's writeHead, write and end are wrapped.
 */
export function cutResponse(res: ServerResponse, fault: HangFault, onCut: () => void): void {
	const patchable = res as unknown as Patchable;
	const writeHead = patchable.writeHead.bind(res);
	const write = patchable.write.bind(res);
	let limit = fault.afterBytes;
	let sent = 0;
	let cut = false;
	const stop = () => {
		if (cut) return;
		cut = true;
		// headersSent turns true at writeHead, before anything is written: flush in any case
		res.flushHeaders();
		onCut();
		if (fault.mode === 'close-body') res.socket?.destroySoon();
	};
	/** Returns false when the writer should wait for 'drain' (which a stalled body never needs). */
	const pass = (chunk: unknown, encoding: unknown): boolean => {
		if (cut) return false;
		const bytes = chunk === undefined || chunk === null || typeof chunk === 'function' ? Buffer.alloc(0) : toBuffer(chunk, encoding);
		limit ??= Math.floor(bytes.length / 2);
		const room = Math.max(0, limit - sent);
		let flowing = true;
		if (room > 0 && bytes.length > 0) {
			flowing = write(bytes.subarray(0, room)) !== false;
			sent += Math.min(room, bytes.length);
		}
		if (sent >= limit) stop();
		return flowing && !cut;
	};
	patchable.writeHead = (...args: unknown[]) => {
		if (limit === undefined) {
			const length = declaredLength(res, args);
			if (length !== undefined && Number.isFinite(length)) limit = Math.floor(length / 2);
		}
		return writeHead(...args);
	};
	patchable.write = (chunk: unknown, encoding?: unknown) => pass(chunk, encoding);
	patchable.end = (chunk?: unknown, encoding?: unknown) => {
		pass(chunk, encoding);
		stop();
		return res;
	};
}

const URL_FIELDS = new Set(['presignedUploadURL', 'presignedUrl', 'signedUrl']);

function fillTemplate(template: string, original: string, trapUrl: string): string {
	const parsed = new URL(original);
	const values: Record<string, string> = { original, path: parsed.pathname, query: parsed.search.slice(1), trap: trapUrl };
	return template.replace(/\{(original|path|query|trap)\}/g, (_match, name: string) => values[name]);
}

/** A copy of an answer body with every presigned URL field replaced by the filled template. */
export function rewritePresignedUrls(body: unknown, template: string, trapUrl: string): unknown {
	if (Array.isArray(body)) return body.map((item) => rewritePresignedUrls(item, template, trapUrl));
	if (body === null || typeof body !== 'object') return body;
	return Object.fromEntries(
		Object.entries(body).map(([key, value]) => [
			key,
			URL_FIELDS.has(key) && typeof value === 'string' ? fillTemplate(template, value, trapUrl) : rewritePresignedUrls(value, template, trapUrl),
		]),
	);
}

/**
 * Sends the answer's headers at once and its body `chunkBytes` at a time at `bytesPerSecond`
 * (a peer that is alive but slow). The handlers are unaware of it: write and end are wrapped.
 */
export function trickleResponse(res: ServerResponse, fault: TrickleFault): void {
	const patchable = res as unknown as Patchable;
	const write = patchable.write.bind(res);
	const end = patchable.end.bind(res);
	const chunks: Buffer[] = [];
	const chunkBytes = Math.max(1, fault.chunkBytes ?? 1);
	const intervalMs = Math.max(1, Math.round((chunkBytes / Math.max(0.001, fault.bytesPerSecond ?? 2)) * 1000));
	const drip = () => {
		const body = Buffer.concat(chunks);
		res.flushHeaders();
		let offset = 0;
		const timer = setInterval(() => {
			if (res.destroyed || res.socket?.destroyed) {
				clearInterval(timer);
				return;
			}
			const next = body.subarray(offset, offset + chunkBytes);
			offset += next.length;
			if (offset >= body.length) {
				clearInterval(timer);
				end(next);
			} else {
				write(next);
			}
		}, intervalMs);
		res.on('close', () => clearInterval(timer));
	};
	patchable.write = (chunk: unknown, encoding?: unknown) => {
		if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
		return true;
	};
	patchable.end = (chunk?: unknown, encoding?: unknown) => {
		if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
		drip();
		return res;
	};
}

/** Reads a request body at `bytesPerSecond`: after each chunk the request pauses for as long as the chunk is worth. */
export function trickleRequest(req: IncomingMessage, fault: TrickleFault): void {
	const bytesPerSecond = Math.max(0.001, fault.bytesPerSecond ?? 2);
	req.on('data', (chunk: Buffer) => {
		req.pause();
		const timer = setTimeout(() => req.resume(), Math.round((chunk.length / bytesPerSecond) * 1000));
		req.once('close', () => clearTimeout(timer));
	});
}

/**
 * A 200 JSON answer of `bytes` bytes, produced as it is sent (the emulator never holds it): a
 * list with one item whose `padding` field fills the size. Stops when the client goes away.
 */
export function sendHugeAnswer(res: ServerResponse, fault: HugeAnswerFault, requestId: string): void {
	const head = Buffer.from('{"files":[{"fileId":"00000000-0000-4000-8000-000000000000","padding":"');
	const tail = Buffer.from('"}],"count":1,"currentPage":1}');
	const fill = Math.max(0, fault.bytes - head.length - tail.length);
	const headers: Record<string, string | number> = { 'content-type': 'application/json', 'x-request-id': requestId };
	if (fault.withContentLength) headers['content-length'] = head.length + fill + tail.length;
	res.writeHead(200, headers);
	res.write(head);
	const block = Buffer.alloc(64 * 1024, 'x');
	let left = fill;
	const pump = () => {
		while (left > 0) {
			if (res.destroyed) return;
			const part = left >= block.length ? block : block.subarray(0, left);
			left -= part.length;
			if (!res.write(part)) {
				res.once('drain', pump);
				return;
			}
		}
		if (!res.destroyed) res.end(tail);
	};
	pump();
}

/** A multipart initiation answer with the part plan of the fault (see PartPlanFault). */
export function rewritePartPlan(body: unknown, fault: PartPlanFault): unknown {
	if (body === null || typeof body !== 'object' || !Array.isArray((body as { presignedUrls?: unknown }).presignedUrls)) return body;
	const original = (body as { presignedUrls: Array<{ presignedUrl: string }> }).presignedUrls;
	let startByte = 0;
	const presignedUrls = fault.sizes.map((size, index) => {
		const part = { partNumber: index + 1, presignedUrl: original[Math.min(index, original.length - 1)].presignedUrl, startByte, endByte: startByte + size - 1, size };
		startByte += size;
		return part;
	});
	return { ...body, presignedUrls, totalParts: presignedUrls.length, partSize: Math.max(0, ...fault.sizes.slice(0, 1)) };
}

/** A copy of a list answer whose first listed item comes twice (the copy right after it). */
export function repeatFirstListed(body: unknown): unknown {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
	const entries = Object.entries(body);
	const index = entries.findIndex(([, value]) => Array.isArray(value) && value.length > 0);
	if (index < 0) return body;
	const list = entries[index][1] as unknown[];
	entries[index] = [entries[index][0], [list[0], list[0], ...list.slice(1)]];
	return Object.fromEntries(entries);
}
