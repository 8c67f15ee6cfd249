import type { IDataObject, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiContext } from './context';
import { pause } from './context';
import { buildNetworkError, summarizeText } from './errors';
import type { RetryPolicy } from './retry';
import {
	DEFAULT_RETRY_POLICY,
	backoffDelayMs,
	isTransientNetworkError,
	isTransientStatus,
	networkErrorCode,
	retryAfterSeconds,
} from './retry';

/*
 * Presigned storage URLs carry their own authorization. Nothing here reads the credential:
 * the API key must never travel to storage, so these requests go through n8n's plain
 * httpRequest helper.
 */

/** Bytes for one PUT: a buffer, or a stream read from n8n's binary storage. */
export interface UploadPayload {
	body: Buffer | NodeJS.ReadableStream;
	contentLength: number;
}

/**
 * Opens the bytes to send. Called once per attempt: a stream can be read only once, so a retry
 * opens a fresh one.
 */
export type PayloadSource = () => Promise<UploadPayload>;

export interface StoragePutOptions {
	contentType?: string;
	/** Names what is being sent, for errors: e.g. `file "invoice.pdf"`, `part 3 of upload …`. */
	label: string;
	itemIndex?: number;
	headers?: IDataObject;
	retry?: Partial<Pick<RetryPolicy, 'maxTransientRetries' | 'baseDelayMs' | 'maxDelayMs'>>;
	/**
	 * When the presigned URL stops working (epoch ms). No attempt starts after it and no retry
	 * waits past it; the error then says that the URL expired (error.context.urlExpired).
	 */
	validUntil?: number;
}

export interface StoragePutResult {
	statusCode: number;
	/** The ETag header of the answer, quotes kept (multipart completion sends it back as is). */
	etag?: string;
	headers: IDataObject;
	attempts: number;
}

interface RawResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
	statusMessage?: string;
}

/** The URL without its query string: the signature is a bearer secret while it is valid. */
export function redactSignedUrl(url: string): string {
	const queryStart = url.indexOf('?');
	return queryStart === -1 ? url : `${url.slice(0, queryStart)}?…`;
}

async function readSmallText(body: unknown, maxBytes = 4096): Promise<string> {
	if (typeof body === 'string') return body.slice(0, maxBytes);
	if (Buffer.isBuffer(body)) return body.subarray(0, maxBytes).toString('utf8');
	if (body && typeof body === 'object' && Symbol.asyncIterator in body) {
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of body as AsyncIterable<Buffer | string>) {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
			if (size < maxBytes) chunks.push(buffer);
			size += buffer.length;
		}
		return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
	}
	if (body && typeof body === 'object') return JSON.stringify(body).slice(0, maxBytes);
	return '';
}

function storageError(
	context: ApiContext,
	what: string,
	url: string,
	statusCode: number,
	text: string,
	attempts: number,
	itemIndex?: number,
): NodeApiError {
	const reason = summarizeText(text);
	const expired = statusCode === 403 && /expired/i.test(text);
	const advice = expired
		? 'The presigned URL has expired: run the node again to get a new one.'
		: statusCode === 403
			? 'Storage refused the presigned URL: it may have expired or been used with other headers. Run the node again to get a new one.'
			: statusCode >= 500
				? 'The storage service failed; try again later.'
				: 'Run the node again; if it keeps failing, report the request to the service.';
	const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
	const message = `Storage refused ${what}${tries} (HTTP ${statusCode}${reason ? `: ${reason}` : ''}). ${advice}`;
	const error = new NodeApiError(context.getNode(), { status: statusCode, reason } as JsonObject, {
		message,
		description: `${redactSignedUrl(url)} answered HTTP ${statusCode}.`,
		httpCode: String(statusCode),
		itemIndex,
	});
	error.message = message;
	if (expired) error.context.urlExpired = true;
	return error;
}

/** A lost connection to storage, named by what was being sent or read (the URL's signature cut). */
function storageNetworkError(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	error: unknown,
	options: { label: string; itemIndex?: number },
	attempts: number,
) {
	return buildNetworkError(context.getNode(), {
		method,
		url: redactSignedUrl(url),
		code: networkErrorCode(error),
		cause: `${options.label}: ${(error as Error).message ?? 'unknown error'}`,
		attempts,
		itemIndex: options.itemIndex,
	});
}

function expiredUrlError(
	context: ApiContext,
	url: string,
	options: StoragePutOptions,
	failedAttempts: number,
): NodeApiError {
	const tries = failedAttempts > 0 ? ` (${failedAttempts} attempts had failed)` : '';
	const message = `The presigned URL for ${options.label} expired before it was sent${tries}. Run the node again to get a new one.`;
	const error = new NodeApiError(context.getNode(), { reason: 'presigned URL expired' } as JsonObject, {
		message,
		description: `${redactSignedUrl(url)} was valid until ${new Date(options.validUntil ?? 0).toISOString()}.`,
		itemIndex: options.itemIndex,
	});
	error.message = message;
	error.context.urlExpired = true;
	return error;
}

/**
 * PUTs bytes to a presigned storage URL, without the API key, with a Content-Length. Repeats on a
 * 5xx or network error (a PUT of the same bytes to the same URL is idempotent) with backoff; each
 * attempt opens the payload again.
 */
export async function putToStorage(
	this: ApiContext,
	url: string,
	source: PayloadSource,
	options: StoragePutOptions,
): Promise<StoragePutResult> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...(options.retry ?? {}) };
	const validUntil = options.validUntil ?? Infinity;
	let attempts = 0;
	for (;;) {
		attempts++;
		if (Date.now() >= validUntil) throw expiredUrlError(this, url, options, attempts - 1);
		const payload = await source();
		const request: IHttpRequestOptions = {
			method: 'PUT',
			url,
			headers: {
				...(options.contentType ? { 'Content-Type': options.contentType } : {}),
				'Content-Length': String(payload.contentLength),
				...(options.headers ?? {}),
			},
			body: payload.body as Buffer,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'text',
			// Following redirects keeps every byte written (to replay the body on a redirect), so a
			// streamed file would end up whole in memory; a presigned URL is signed for its own host
			// and never redirects a PUT anywhere useful.
			disableFollowRedirect: true,
		};

		let raw: RawResponse;
		try {
			raw = (await this.helpers.httpRequest(request)) as RawResponse;
		} catch (error) {
			const delay = backoffDelayMs(attempts - 1, policy);
			if (
				isTransientNetworkError(error) &&
				attempts <= policy.maxTransientRetries &&
				Date.now() + delay < validUntil
			) {
				await pause(this, delay);
				continue;
			}
			throw storageNetworkError(this, 'PUT', url, error, options, attempts);
		}

		const headers = (raw.headers ?? {}) as IDataObject;
		if (raw.statusCode >= 200 && raw.statusCode < 300) {
			const etag = headers.etag;
			return {
				statusCode: raw.statusCode,
				etag: typeof etag === 'string' ? etag : undefined,
				headers,
				attempts,
			};
		}
		const retryable = isTransientStatus(raw.statusCode) || raw.statusCode === 429;
		if (retryable && attempts <= policy.maxTransientRetries) {
			const after = retryAfterSeconds(undefined, headers);
			const delay = after !== undefined ? after * 1000 : backoffDelayMs(attempts - 1, policy);
			if (Date.now() + delay < validUntil) {
				await pause(this, delay);
				continue;
			}
		}
		throw storageError(
			this,
			options.label,
			url,
			raw.statusCode,
			await readSmallText(raw.body),
			attempts,
			options.itemIndex,
		);
	}
}

export interface StorageDownload {
	/** The bytes as a stream: hand it to prepareBinaryData without buffering. */
	body: NodeJS.ReadableStream;
	headers: IDataObject;
	contentType?: string;
	contentLength?: number;
}

/**
 * GETs a presigned storage URL (a preview link, for example) as a stream, without the API key.
 * Repeats on a 5xx or network error.
 */
export async function downloadFromStorage(
	this: ApiContext,
	url: string,
	options: { label: string; itemIndex?: number },
): Promise<StorageDownload> {
	const policy = DEFAULT_RETRY_POLICY;
	let attempts = 0;
	for (;;) {
		attempts++;
		let raw: RawResponse;
		try {
			raw = (await this.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as RawResponse;
		} catch (error) {
			if (isTransientNetworkError(error) && attempts <= policy.maxTransientRetries) {
				await pause(this, backoffDelayMs(attempts - 1, policy));
				continue;
			}
			throw storageNetworkError(this, 'GET', url, error, options, attempts);
		}
		const headers = (raw.headers ?? {}) as IDataObject;
		if (raw.statusCode >= 200 && raw.statusCode < 300) {
			const length = Number(headers['content-length']);
			return {
				body: raw.body as NodeJS.ReadableStream,
				headers,
				contentType: typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined,
				contentLength: Number.isFinite(length) ? length : undefined,
			};
		}
		const text = await readSmallText(raw.body);
		if (isTransientStatus(raw.statusCode) && attempts <= policy.maxTransientRetries) {
			await pause(this, backoffDelayMs(attempts - 1, policy));
			continue;
		}
		throw storageError(this, options.label, url, raw.statusCode, text, attempts, options.itemIndex);
	}
}
