/** The raw client: plain node:http, keep-alive, files streamed from disk (the upload benchmark's yardstick). */
import { createReadStream, statSync } from 'node:fs';
import { Agent, request } from 'node:http';

import { CONCURRENCY, MIB, PART_MIB } from './flags';
import type { Target } from './measure';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiJson = any;

export const rawAgent = new Agent({ keepAlive: true });

function rawCall(method: string, url: string, headers: Record<string, string | number>, body?: Buffer | (() => NodeJS.ReadableStream)): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers, agent: rawAgent }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		if (typeof body === 'function') body().pipe(req);
		else req.end(body);
	});
}

export async function rawApi(t: Target, path: string, body: unknown): Promise<ApiJson> {
	const payload = Buffer.from(JSON.stringify(body));
	const reply = await rawCall('POST', `${t.api}/prod/v1${path}`, { 'x-api-key': t.key, 'content-type': 'application/json', 'content-length': payload.length }, payload);
	if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`);
	return JSON.parse(reply.text);
}

export function rawPut(url: string, size: number, open: () => NodeJS.ReadableStream, contentType?: string): Promise<string> {
	return rawCall('PUT', url, { 'content-length': size, ...(contentType ? { 'content-type': contentType } : {}) }, open).then((reply) => {
		if (reply.status !== 200) throw new Error(`PUT answered ${reply.status}: ${reply.text}`);
		return String(reply.headers.etag ?? '');
	});
}

export async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) await task(next++);
		}),
	);
}

export async function rawMultipart(t: Target, file: string, size: number, name: string): Promise<string> {
	const init = await rawApi(t, '/files/upload/multipart', {
		fileName: name,
		fileType: 'application/octet-stream',
		isSplit: false,
		schemaLocking: false,
		fileSize: size / MIB,
		partSizeLimit: PART_MIB,
	});
	const parts: Array<{ partNumber: number; eTag: string }> = [];
	await pool(init.presignedUrls.length, CONCURRENCY, async (index) => {
		const part = init.presignedUrls[index];
		const eTag = await rawPut(part.presignedUrl, part.size, () => createReadStream(file, { start: part.startByte, end: part.endByte }));
		parts[index] = { partNumber: part.partNumber, eTag };
	});
	await rawApi(t, '/files/upload/multipart/complete', { id: init.id, key: init.key, parts });
	return init.uploadId;
}

export async function rawSingle(t: Target, file: string, name: string): Promise<void> {
	const upload = await rawApi(t, '/files/upload', { fileName: name, fileType: 'text/plain', isSplit: false, schemaLocking: false });
	const size = statSync(file).size;
	await rawPut(upload.presignedUploadURL, size, () => createReadStream(file), 'text/plain');
}
