/** The "storage host": presigned PUT (single and multipart parts) and GET (preview) URLs,
 * answered S3-style (XML errors, ETag headers). No API key is ever needed or checked here. */
import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';
import type { RequestUrl } from './http-util';
import { type ObjectStore, sinkHash } from './object-store';
import type { Processor } from './processing';
import type { EmulatorState } from './state';
import type { GrantKind, PresignedGrant } from './types';

export const BUCKET = 'dex-emulator-uploads';

export const UPLOAD_URL_TTL_SECONDS = 300;
export const PART_URL_TTL_SECONDS = 900;
export const PREVIEW_URL_TTL_SECONDS = 3600;

function amzDate(ms: number): string {
	return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function encodeKey(key: string): string {
	return key.split('/').map(encodeURIComponent).join('/');
}

export class Presigner {
	constructor(
		private readonly state: EmulatorState,
		private readonly clock: Clock,
		private readonly baseUrl: () => string,
	) {}

	sign(kind: GrantKind, key: string, ttlSeconds: number, extra: { uploadId?: string; multipartId?: string; partNumber?: number } = {}): string {
		const now = this.clock.now();
		const token = randomBytes(32).toString('hex');
		const grant: PresignedGrant = {
			token,
			kind,
			method: kind === 'preview' ? 'GET' : 'PUT',
			key,
			issuedAtMs: now,
			expiresAtMs: now + ttlSeconds * 1000,
			...extra,
		};
		this.state.grants.set(token, grant);
		const params = new URLSearchParams();
		if (extra.partNumber !== undefined && extra.multipartId !== undefined) {
			params.set('partNumber', String(extra.partNumber));
			params.set('uploadId', extra.multipartId);
		}
		params.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA256');
		params.set('X-Amz-Credential', `EMULATOR/${amzDate(now).slice(0, 8)}/us-east-1/s3/aws4_request`);
		params.set('X-Amz-Date', amzDate(now));
		params.set('X-Amz-Expires', String(ttlSeconds));
		params.set('X-Amz-SignedHeaders', 'host');
		params.set('X-Amz-Signature', token);
		return `${this.baseUrl()}/${BUCKET}/${encodeKey(key)}?${params.toString()}`;
	}

	/** Makes every URL issued so far invalid. */
	expireAll(): number {
		let count = 0;
		for (const grant of this.state.grants.values()) {
			if (grant.expiresAtMs !== Number.NEGATIVE_INFINITY) count += 1;
			grant.expiresAtMs = Number.NEGATIVE_INFINITY;
		}
		return count;
	}
}

function s3Error(res: ServerResponse, status: number, code: string, message: string, extraHeaders: Record<string, string> = {}): void {
	const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
	res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...extraHeaders });
	res.end(body);
}

export interface StorageOptions {
	/** Reject PUTs without Content-Length, as S3 presigned PUTs do (default true). */
	requireContentLength: boolean;
	/**
	 * Storage sink mode: PUT bodies (single and parts) are counted and MD5-hashed for the ETag, then
	 * dropped; nothing is written to disk and no SHA-256 is computed (default false).
	 */
	sink: boolean;
}

export class StorageHost {
	constructor(
		private readonly state: EmulatorState,
		private readonly clock: Clock,
		private readonly store: ObjectStore,
		private readonly processor: Processor,
		private readonly options: StorageOptions,
	) {}

	async handle(req: IncomingMessage, res: ServerResponse, url: RequestUrl, onBytes: (bytes: number) => void): Promise<void> {
		const prefix = `/${BUCKET}/`;
		if (!url.pathname.startsWith(prefix)) {
			req.resume();
			s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
			return;
		}
		let key: string;
		try {
			key = url.pathname.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
		} catch {
			req.resume();
			s3Error(res, 400, 'InvalidURI', 'Could not parse the specified URI');
			return;
		}
		const method = req.method ?? 'GET';
		const token = url.searchParams.get('X-Amz-Signature');
		if (!token) {
			req.resume();
			s3Error(res, 403, 'AccessDenied', 'Query-string authentication is required');
			return;
		}
		const grant = this.state.grants.get(token);
		const wantedMethod = method === 'HEAD' ? 'GET' : method;
		const partNumber = url.searchParams.get('partNumber');
		const multipartId = url.searchParams.get('uploadId');
		if (
			!grant ||
			grant.key !== key ||
			grant.method !== wantedMethod ||
			(grant.kind === 'part' && (partNumber !== String(grant.partNumber) || multipartId !== grant.multipartId))
		) {
			req.resume();
			s3Error(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided');
			return;
		}
		if (grant.expiresAtMs <= this.clock.now()) {
			req.resume();
			s3Error(res, 403, 'AccessDenied', 'Request has expired');
			return;
		}
		if (grant.method === 'GET') {
			this.serve(req, res, key, method === 'HEAD');
			return;
		}
		await this.receive(req, res, grant, onBytes);
	}

	private serve(req: IncomingMessage, res: ServerResponse, key: string, headOnly: boolean): void {
		req.resume();
		const object = this.state.objects.get(key);
		const stillListed = object && [...this.state.files.values()].some((file) => file.fileStoragePath === key);
		if (!object || !stillListed) {
			s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
			return;
		}
		if (object.sink && !headOnly) {
			// As S3 answers a GET of an archived object: it exists (HEAD works), its bytes cannot be read.
			s3Error(res, 403, 'InvalidObjectState', 'The emulator runs in storage sink mode: the bytes of this object were not kept.');
			return;
		}
		res.writeHead(200, {
			'content-type': object.contentType,
			'content-length': object.size,
			etag: `"${object.hash.slice(0, 32)}"`,
		});
		if (headOnly) {
			res.end();
			return;
		}
		// Ends the response with its last byte, not one read later at end of file: a client that has
		// read Content-Length bytes may close the socket at once, and the request log must then
		// still show the response as answered.
		const stream = createReadStream(object.diskPath);
		let sent = 0;
		stream.on('error', () => res.destroy());
		stream.on('data', (chunk: Buffer | string) => {
			sent += chunk.length;
			const flowing = res.write(chunk);
			if (sent >= object.size) {
				stream.destroy();
				res.end();
			} else if (!flowing) {
				stream.pause();
			}
		});
		res.on('drain', () => stream.resume());
		stream.on('end', () => {
			if (!res.writableEnded) res.end();
		});
		res.on('close', () => stream.destroy());
	}

	private async receive(req: IncomingMessage, res: ServerResponse, grant: PresignedGrant, onBytes: (bytes: number) => void): Promise<void> {
		if (this.options.requireContentLength && req.headers['content-length'] === undefined) {
			req.resume();
			s3Error(res, 411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
			return;
		}
		if (this.options.sink) {
			await this.receiveSink(req, res, grant, onBytes);
			return;
		}
		let written: Awaited<ReturnType<ObjectStore['writeStream']>>;
		try {
			written = await this.store.writeStream(req, onBytes);
		} catch {
			// The client went away mid-body: nothing is stored.
			return;
		}
		if (req.aborted || !req.complete) {
			await rm(written.tmpPath, { force: true });
			return;
		}
		const etag = `"${written.md5}"`;
		if (grant.kind === 'part') {
			const multipart = grant.multipartId ? this.state.multiparts.get(grant.multipartId) : undefined;
			if (!multipart || multipart.completed) {
				await rm(written.tmpPath, { force: true });
				s3Error(res, 404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
				return;
			}
			const partNumber = grant.partNumber ?? 0;
			const diskPath = this.store.partPath(multipart.id, partNumber);
			await rename(written.tmpPath, diskPath);
			multipart.parts.set(partNumber, { etag, size: written.size, diskPath });
			res.writeHead(200, { etag, 'content-length': 0 });
			res.end();
			return;
		}
		const upload = grant.uploadId ? this.state.uploads.get(grant.uploadId) : undefined;
		if (!upload) {
			await rm(written.tmpPath, { force: true });
			s3Error(res, 404, 'NoSuchKey', 'The upload this URL was issued for no longer exists.');
			return;
		}
		const object = await this.store.commit(written.tmpPath, grant.key, upload.workspaceId, upload.params.fileType, written.size, written.sha256);
		res.writeHead(200, { etag, 'content-length': 0 });
		res.end();
		this.processor.ingest(upload, object);
	}

	/**
	 * Storage sink mode: the same checks and answers as receive(), but the bytes are only counted and
	 * MD5-hashed (the ETag), never written. A part keeps its ETag and size for completion; a single
	 * PUT records an object without bytes and starts processing.
	 */
	private async receiveSink(req: IncomingMessage, res: ServerResponse, grant: PresignedGrant, onBytes: (bytes: number) => void): Promise<void> {
		let received: { md5: string; size: number };
		try {
			received = await this.store.sink(req, onBytes);
		} catch {
			return;
		}
		if (req.aborted || !req.complete) return;
		const etag = `"${received.md5}"`;
		if (grant.kind === 'part') {
			const multipart = grant.multipartId ? this.state.multiparts.get(grant.multipartId) : undefined;
			if (!multipart || multipart.completed) {
				s3Error(res, 404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
				return;
			}
			multipart.parts.set(grant.partNumber ?? 0, { etag, size: received.size });
			res.writeHead(200, { etag, 'content-length': 0 });
			res.end();
			return;
		}
		const upload = grant.uploadId ? this.state.uploads.get(grant.uploadId) : undefined;
		if (!upload) {
			s3Error(res, 404, 'NoSuchKey', 'The upload this URL was issued for no longer exists.');
			return;
		}
		const object = await this.store.commitSink(grant.key, upload.workspaceId, upload.params.fileType, received.size, sinkHash(etag, received.size));
		res.writeHead(200, { etag, 'content-length': 0 });
		res.end();
		this.processor.ingest(upload, object);
	}
}
