import type { IDataObject, IHttpRequestOptions, JsonObject, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { connectionFor } from './connection';
import type { ApiContext } from './context';
import { cancelSignalOf } from './context';
import { buildNetworkError, buildRedirectError, redact, redactQuery, refusedUrlError, summarizeText } from './errors';
import type { AttemptFailure, AttemptResult } from './retry';
import {
	cancelledError,
	isTransientNetworkError,
	isTransientStatus,
	networkErrorCode,
	retryAfterMs,
	withRetries,
} from './retry';
import { addSecrets, budgetFor, limitsOf, secretsOf, waitDeadlineOf } from './scope';
import type { ReturnedUrlRole } from './urlPolicy';
import { UrlPolicyError, approveReturnedUrl } from './urlPolicy';
import { TransferWatchdog } from './watchdog';

/*
 * Presigned storage URLs carry their own authorization. Nothing here sends the credential: the
 * API key must never travel to storage, so these requests go through n8n's plain httpRequest
 * helper, after the URL policy has approved the URL, and never follow a redirect.
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

export interface StorageRequestOptions {
	/** Names what is being sent or read, for errors: e.g. `file "invoice.pdf"`, `part 3 of upload …`. */
	label: string;
	/** What the URL is, for the URL policy's messages. */
	role: ReturnedUrlRole;
	itemIndex?: number;
	/** Retries after failures (default: the policy's). */
	maxFailureRetries?: number;
	/**
	 * When the presigned URL stops working (epoch ms). No attempt starts after it and no retry
	 * waits past it; the error then says that the URL expired (error.context.urlExpired).
	 */
	validUntil?: number;
}

export interface StoragePutOptions extends StorageRequestOptions {
	contentType?: string;
	headers?: IDataObject;
}

export interface StoragePutResult {
	statusCode: number;
	/** The ETag header of the answer, quotes kept (multipart completion sends it back as is). */
	etag?: string;
	headers: IDataObject;
}

interface RawResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
	statusMessage?: string;
}

/** The URL without its query string: the signature is a bearer secret while it is valid. */
export const redactSignedUrl = redactQuery;

/** Query parameters of presigned URLs whose values are secrets (signatures, tokens, credentials). */
const SECRET_PARAMETER = /sig|token|credential|policy|key|access/i;

/** The parts of a presigned URL no message may show: its query, and its secret parameter values. */
function signedUrlSecrets(url: string): string[] {
	const parsed = new URL(url);
	const secrets = parsed.search.length > 1 ? [parsed.search.slice(1)] : [];
	for (const [name, value] of parsed.searchParams) {
		if (SECRET_PARAMETER.test(name) && value.length >= 8) secrets.push(value);
	}
	return secrets;
}

/**
 * Approves a URL the API handed back (URL policy, against the credential's base URL) and
 * registers its secrets with the run, so no error or item of the run shows them.
 */
export async function approveStorageUrl(
	context: ApiContext,
	url: unknown,
	role: ReturnedUrlRole,
	itemIndex?: number,
): Promise<string> {
	const { base } = await connectionFor(context, itemIndex);
	let approved: string;
	try {
		approved = approveReturnedUrl(url, role, base);
	} catch (error) {
		if (error instanceof UrlPolicyError) throw refusedUrlError(context.getNode(), error.message, itemIndex);
		throw refusedUrlError(context.getNode(), `The ${role} the API answered was refused`, itemIndex);
	}
	addSecrets(context, signedUrlSecrets(approved));
	return approved;
}

async function readSmallText(body: unknown, maxBytes = 4096): Promise<string> {
	if (typeof body === 'string') return body.slice(0, maxBytes);
	if (Buffer.isBuffer(body)) return body.subarray(0, maxBytes).toString('utf8');
	if (body && typeof body === 'object' && Symbol.asyncIterator in body) {
		const chunks: Buffer[] = [];
		let size = 0;
		try {
			for await (const chunk of body as AsyncIterable<Buffer | string>) {
				const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
				if (size < maxBytes) chunks.push(buffer);
				size += buffer.length;
				if (size >= maxBytes * 16) break;
			}
		} catch {
			// an error body that breaks off is still reported by its status
		}
		(body as { destroy?: () => void }).destroy?.();
		return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
	}
	if (body && typeof body === 'object') return JSON.stringify(body).slice(0, maxBytes);
	return '';
}

function storageError(
	context: ApiContext,
	options: StorageRequestOptions,
	url: string,
	statusCode: number,
	text: string,
	note?: string,
): NodeApiError {
	const secrets = secretsOf(context);
	const reason = summarizeText(redact(text, secrets));
	const expired = statusCode === 403 && /expired/i.test(text);
	const advice = expired
		? 'The presigned URL has expired: run the node again to get a new one.'
		: statusCode === 403
			? 'Storage refused the presigned URL: it may have expired or been used with other headers. Run the node again to get a new one.'
			: statusCode >= 500 || statusCode === 429
				? 'The storage service failed; try again later.'
				: 'Run the node again; if it keeps failing, report the request to the service.';
	const message = redact(
		`Storage refused ${options.label} (HTTP ${statusCode}${reason ? `: ${reason}` : ''}).${note ? ` ${note}.` : ''} ${advice}`,
		secrets,
	);
	const error = new NodeApiError(context.getNode(), { status: statusCode, reason: reason ?? '' } as JsonObject, {
		message,
		description: `${redactQuery(url)} answered HTTP ${statusCode}.`,
		httpCode: String(statusCode),
		itemIndex: options.itemIndex,
	});
	error.message = message;
	if (expired) error.context.urlExpired = true;
	return error;
}

function expiredUrlError(context: ApiContext, url: string, options: StorageRequestOptions, note?: string): NodeApiError {
	const message = `The presigned URL for ${options.label} expired before it was sent${note ? ` (${note})` : ''}. Run the node again to get a new one.`;
	const error = new NodeApiError(context.getNode(), { reason: 'presigned URL expired' } as JsonObject, {
		message,
		description: `${redactQuery(url)} was valid until ${new Date(options.validUntil ?? 0).toISOString()}.`,
		itemIndex: options.itemIndex,
	});
	error.message = message;
	error.context.urlExpired = true;
	return error;
}

const STORAGE_REDIRECT_ADVICE =
	'A presigned URL is signed for its own host; report the answer to the service, or run the node again to get a new URL.';

/**
 * What one storage attempt's answer means for the policy: success, a redirect (never followed),
 * a pause asked for (429, or 503 with Retry-After), a failure worth repeating (5xx), or a final
 * refusal (403 expired, other 4xx).
 */
async function judgeStorageAnswer<T>(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	raw: RawResponse,
	success: (headers: IDataObject) => T,
): Promise<AttemptResult<T>> {
	const headers = (raw.headers ?? {}) as IDataObject;
	const status = raw.statusCode;
	if (status >= 200 && status < 300) return { ok: true, value: success(headers) };
	if (status >= 300 && status < 400) {
		await readSmallText(raw.body, 0);
		const redirect = buildRedirectError(context.getNode(), {
			statusCode: status,
			location: headers.location,
			what: `Storage (${options.label})`,
			itemIndex: options.itemIndex,
			secrets: secretsOf(context),
			advice: STORAGE_REDIRECT_ADVICE,
		});
		return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp: () => redirect } };
	}
	const text = await readSmallText(raw.body);
	const giveUp = (note?: string) => storageError(context, options, url, status, text, note);
	const asked = retryAfterMs(undefined, headers);
	if (status === 429 || (status === 503 && asked !== undefined)) {
		return { ok: false, failure: { kind: 'rate-limited', retryAfterMs: asked, giveUp } };
	}
	return { ok: false, failure: { kind: 'failed', repeatable: isTransientStatus(status), giveUp } };
}

/** A storage request that got no answer: aborted by the watchdog, cancelled, or a network error. */
function networkFailure(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	options: StorageRequestOptions,
	error: unknown,
	watchdog: TransferWatchdog,
	attemptNumber: number,
): AttemptFailure {
	if (watchdog.reason === 'cancelled') {
		return { kind: 'failed', repeatable: false, giveUp: () => cancelledError(context) };
	}
	const idle = watchdog.reason === 'idle';
	const giveUp = (note?: string) =>
		buildNetworkError(context.getNode(), {
			method,
			url,
			code: idle ? 'IDLE' : networkErrorCode(error),
			cause: `${idle ? `no progress for ${Math.round(watchdog.idleMs / 1000)} s` : redact((error as Error).message ?? 'unknown error', secretsOf(context))}${note ? `\n${note}` : ''}`,
			attempts: attemptNumber,
			itemIndex: options.itemIndex,
			secrets: secretsOf(context),
			timeoutMs: idle ? watchdog.idleMs : undefined,
			label: options.label,
			advice: 'Check the network between n8n and the storage host, then run the node again.',
		});
	return { kind: 'failed', repeatable: idle || isTransientNetworkError(error), giveUp };
}

/** Runs a storage request under the policy: item budget, URL validity, Request Timeout as idle timeout. */
async function withStorageRetries<T>(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	attempt: (attemptNumber: number, watchdog: TransferWatchdog) => Promise<AttemptResult<T>>,
): Promise<T> {
	const { requestTimeoutMs } = limitsOf(context, options.itemIndex);
	return await withRetries(
		{
			context,
			budget: budgetFor(context, options.itemIndex),
			maxFailureRetries: options.maxFailureRetries,
			service: 'Storage',
			requestTimeoutMs,
			deadline: options.validUntil,
			deadlineNote:
				options.validUntil === undefined ? undefined : `The presigned URL stops working at ${new Date(options.validUntil).toISOString()}`,
			deadlineError: () => expiredUrlError(context, url, options),
			waitDeadline: waitDeadlineOf(context),
		},
		async (attemptNumber, timeoutMs) => {
			const watchdog = new TransferWatchdog(timeoutMs, cancelSignalOf(context));
			try {
				return await attempt(attemptNumber, watchdog);
			} finally {
				watchdog.stop();
			}
		},
	);
}

/**
 * PUTs bytes to a presigned storage URL, without the API key, with a Content-Length, never
 * following a redirect. Repeats on a 5xx, network error or stall (a PUT of the same bytes to the
 * same URL is idempotent) and waits out 429/503 Retry-After, as the retry policy decides; each
 * attempt opens the payload again. Fails when no byte moves for the Request Timeout.
 */
export async function putToStorage(
	this: ApiContext,
	url: string,
	source: PayloadSource,
	options: StoragePutOptions,
): Promise<StoragePutResult> {
	const approved = await approveStorageUrl(this, url, options.role, options.itemIndex);
	return await withStorageRetries(this, approved, options, async (attemptNumber, watchdog) => {
		const payload = await source();
		if (Buffer.isBuffer(payload.body)) watchdog.allowMemoryBody(payload.contentLength);
		else watchdog.watch(payload.body);
		const request: IHttpRequestOptions = {
			method: 'PUT',
			url: approved,
			headers: {
				...(options.contentType ? { 'Content-Type': options.contentType } : {}),
				'Content-Length': String(payload.contentLength),
				...(options.headers ?? {}),
			},
			body: payload.body as Buffer,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'text',
			// Following redirects would also keep every byte written (to replay the body), so a
			// streamed file would end up whole in memory.
			disableFollowRedirect: true,
			abortSignal: watchdog.signal,
		};
		let raw: RawResponse;
		try {
			raw = (await this.helpers.httpRequest(request)) as RawResponse;
		} catch (error) {
			(payload.body as { destroy?: () => void }).destroy?.();
			return { ok: false, failure: networkFailure(this, 'PUT', approved, options, error, watchdog, attemptNumber) };
		}
		return await judgeStorageAnswer(this, approved, options, raw, (headers) => ({
			statusCode: raw.statusCode,
			etag: typeof headers.etag === 'string' ? headers.etag : undefined,
			headers,
		}));
	});
}

export interface StorageDownload {
	/** The bytes as a stream: hand it to prepareBinaryData without buffering. */
	body: NodeJS.ReadableStream;
	headers: IDataObject;
	contentType?: string;
	contentLength?: number;
	/** Call once the stream has been read (or given up): ends the idle watch. */
	done: () => void;
	/** The error to report when reading the stream failed (it stalled, broke off, or the run stopped). */
	streamError: (error: unknown) => NodeApiError | NodeOperationError;
}

/**
 * GETs a presigned storage URL (a preview link, for example) as a stream, without the API key,
 * never following a redirect. Repeats on a 5xx or network error before the answer; while the
 * bytes stream, the Request Timeout is an idle timeout (the stream fails when nothing arrives).
 */
export async function downloadFromStorage(
	this: ApiContext,
	url: string,
	options: StorageRequestOptions,
): Promise<StorageDownload> {
	const approved = await approveStorageUrl(this, url, options.role, options.itemIndex);
	const { requestTimeoutMs } = limitsOf(this, options.itemIndex);
	return await withRetries(
		{
			context: this,
			budget: budgetFor(this, options.itemIndex),
			maxFailureRetries: options.maxFailureRetries,
			service: 'Storage',
			requestTimeoutMs,
			waitDeadline: waitDeadlineOf(this),
		},
		async (attemptNumber, timeoutMs): Promise<AttemptResult<StorageDownload>> => {
			const watchdog = new TransferWatchdog(timeoutMs, cancelSignalOf(this));
			let raw: RawResponse;
			try {
				raw = (await this.helpers.httpRequest({
					method: 'GET',
					url: approved,
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
					abortSignal: watchdog.signal,
				})) as RawResponse;
			} catch (error) {
				watchdog.stop();
				return { ok: false, failure: networkFailure(this, 'GET', approved, options, error, watchdog, attemptNumber) };
			}
			const result = await judgeStorageAnswer(this, approved, options, raw, (headers): StorageDownload => {
				const length = Number(headers['content-length']);
				watchdog.watch(raw.body);
				return {
					body: raw.body as NodeJS.ReadableStream,
					headers,
					contentType: typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined,
					contentLength: Number.isFinite(length) ? length : undefined,
					done: () => watchdog.stop(),
					streamError: (error) =>
						watchdog.reason === 'cancelled'
							? cancelledError(this)
							: downloadStreamError(this, approved, options, error, watchdog.reason === 'idle' ? watchdog.idleMs : undefined),
				};
			});
			if (!result.ok) watchdog.stop();
			return result;
		},
	);
}

/** The error for a download whose stream failed after the answer began (a stall or a cut). */
function downloadStreamError(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	error: unknown,
	stalledAfterMs?: number,
): NodeApiError {
	return buildNetworkError(context.getNode(), {
		method: 'GET',
		url,
		code: stalledAfterMs !== undefined ? 'IDLE' : networkErrorCode(error),
		cause: redact((error as Error)?.message ?? 'unknown error', secretsOf(context)),
		attempts: 1,
		itemIndex: options.itemIndex,
		secrets: secretsOf(context),
		timeoutMs: stalledAfterMs,
		label: options.label,
		advice: 'Nothing was stored; run the node again.',
	});
}
