import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { cancelledError } from './cancel';
import { connectionFor } from './connection';
import type { ApiContext } from './context';
import { cancelSignalOf } from './context';
import { buildNetworkError, buildRedirectError, refusedUrlError, summarizeText, tooLargeError } from './errors';
import type { Answer, SendResult } from './http';
import { send } from './http';
import type { AttemptFailure, AttemptResult } from './retry';
import { isTransientNetworkError, isTransientStatus, networkErrorCode, retryAfterMs, withRetries } from './retry';
import { addSecrets, budgetFor, limitsOf, secretsOf, waitDeadlineOf } from './scope';
import { redact, redactQuery } from './secrets';
import type { ReturnedUrlRole } from './urlPolicy';
import { UrlPolicyError, approveReturnedUrl } from './urlPolicy';
import { TransferWatch } from './watch';

/*
 * Presigned storage URLs carry their own authorization. Nothing here sends the credential: the
 * API key must never travel to storage, so these requests go through n8n's plain httpRequest
 * helper, after the URL policy has approved the URL, and never follow a redirect.
 */

/** Bytes for one PUT: a buffer, or a stream read from n8n's binary storage. */
interface UploadPayload {
	body: Buffer | NodeJS.ReadableStream;
	contentLength: number;
}

/**
 * Opens the bytes to send. Called once per attempt: a stream can be read only once, so a retry
 * opens a fresh one.
 */
export type PayloadSource = () => Promise<UploadPayload>;

interface StorageRequestOptions {
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

interface StoragePutOptions extends StorageRequestOptions {
	contentType?: string;
	headers?: IDataObject;
}

interface StoragePutResult {
	statusCode: number;
	/** The ETag header of the answer, quotes kept (multipart completion sends it back as is). */
	etag?: string;
	headers: IDataObject;
}

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
 * refusal (403 expired, other 4xx). Error answers were read up to ANSWER_LIMITS.errorBodyBytes.
 */
function judgeStorageAnswer<T>(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	answer: Answer,
	success: (answer: Answer) => T,
): AttemptResult<T> {
	const { headers, statusCode: status } = answer;
	if (status >= 200 && status < 300) return { ok: true, value: success(answer) };
	if (status >= 300 && status < 400) {
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
	const text = answer.bytes.toString('utf8');
	const giveUp = (note?: string) => storageError(context, options, url, status, text, note);
	const asked = retryAfterMs(undefined, headers);
	if (status === 429 || (status === 503 && asked !== undefined)) {
		return { ok: false, failure: { kind: 'rate-limited', retryAfterMs: asked, giveUp } };
	}
	return { ok: false, failure: { kind: 'failed', repeatable: isTransientStatus(status), giveUp } };
}

function kibPerSecond(bytesPerSecond: number): string {
	const kib = bytesPerSecond / 1024;
	return `${kib >= 10 ? Math.round(kib) : Math.round(kib * 100) / 100} KB/s`;
}

/** Why a storage attempt ended without an answer, for a person. */
function abortCause(watch: TransferWatch, timeoutMs: number, minBytesPerSecond: number, windowMs: number): { code: string; cause: string } {
	if (watch.reason === 'too-slow') {
		return {
			code: 'TOO_SLOW',
			cause: `the transfer moved at ${kibPerSecond(watch.speedSeen)} over ${Math.round(windowMs / 1000)} s, below the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)}`,
		};
	}
	if (watch.reason === 'idle' && watch.bytes === 0 && watch.elapsedSeconds() * 1000 > timeoutMs * 1.5) {
		return {
			code: 'TOO_SLOW',
			cause: `the body sent from memory was not accepted within ${watch.elapsedSeconds()} s, the time its size allows at the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)} plus the Request Timeout`,
		};
	}
	return { code: 'IDLE', cause: `no progress for ${Math.round(timeoutMs / 1000)} s` };
}

/** A storage attempt that got no usable answer: stopped, aborted by a bound, too large, or a network error. */
function attemptFailure(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	options: StorageRequestOptions,
	result: Exclude<SendResult, { ok: true }>,
	watch: TransferWatch,
	attemptNumber: number,
	timeoutMs: number,
): AttemptFailure {
	if (watch.reason === 'cancelled' || (result.failure === 'aborted' && result.reason === 'cancelled')) {
		return { kind: 'failed', repeatable: false, giveUp: () => cancelledError(context) };
	}
	if (result.failure === 'too-large' || watch.reason === 'too-large') {
		const limitBytes = result.failure === 'too-large' ? result.limitBytes : ((options as StorageDownloadOptions).maxBytes ?? 0);
		return { kind: 'failed', repeatable: false, giveUp: () => downloadTooLargeError(context, options, limitBytes) };
	}
	const { minBytesPerSecond, lowSpeedWindowMs } = limitsOf(context, options.itemIndex);
	const aborted = result.failure === 'aborted' ? abortCause(watch, timeoutMs, minBytesPerSecond, lowSpeedWindowMs) : undefined;
	const error = result.failure === 'network' ? result.error : undefined;
	const giveUp = (note?: string) =>
		buildNetworkError(context.getNode(), {
			method,
			url,
			code: aborted?.code ?? networkErrorCode(error),
			cause: `${aborted?.cause ?? redact((error as Error)?.message ?? 'unknown error', secretsOf(context))}${note ? `\n${note}` : ''}`,
			attempts: attemptNumber,
			itemIndex: options.itemIndex,
			secrets: secretsOf(context),
			timeoutMs: aborted?.code === 'IDLE' ? timeoutMs : undefined,
			reason: aborted?.code === 'TOO_SLOW' ? aborted.cause : undefined,
			note,
			label: options.label,
			advice:
				aborted?.code === 'TOO_SLOW'
					? 'Check the network between n8n and the storage host; lower "Min Transfer Speed (KB/s)" in the node options if such a slow link is expected.'
					: 'Check the network between n8n and the storage host, then run the node again.',
		});
	return { kind: 'failed', repeatable: aborted !== undefined || isTransientNetworkError(error), giveUp };
}

/** The bounds of one storage attempt: idle time (Request Timeout), low-speed limit, byte cap, stop. */
function storageWatch(context: ApiContext, options: StorageRequestOptions, timeoutMs: number, maxBytes?: number): TransferWatch {
	const { minBytesPerSecond, lowSpeedWindowMs } = limitsOf(context, options.itemIndex);
	return new TransferWatch({
		idleMs: timeoutMs,
		lowSpeed: { minBytesPerSecond, windowMs: lowSpeedWindowMs },
		cancelSignal: cancelSignalOf(context),
		maxBytes,
	});
}

/** Runs a storage request under the policy: item budget, URL validity, the transfer bounds. */
async function withStorageRetries<T>(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	attempt: (attemptNumber: number, timeoutMs: number) => Promise<AttemptResult<T>>,
): Promise<T> {
	const { requestTimeoutMs } = limitsOf(context, options.itemIndex);
	return await withRetries(
		{
			context,
			budget: budgetFor(context, options.itemIndex),
			maxFailureRetries: options.maxFailureRetries,
			service: 'Storage',
			requestTimeoutMs,
			deadline:
				options.validUntil === undefined
					? undefined
					: { at: options.validUntil, note: `The presigned URL stops working at ${new Date(options.validUntil).toISOString()}` },
			deadlineError: () => expiredUrlError(context, url, options),
			waitDeadline: waitDeadlineOf(context),
		},
		attempt,
	);
}

/**
 * PUTs bytes to a presigned storage URL, without the API key, with a Content-Length, never
 * following a redirect. Repeats on a 5xx, network error, stall or a transfer below the minimum
 * speed (a PUT of the same bytes to the same URL is idempotent) and waits out 429/503
 * Retry-After, as the retry policy decides; each attempt opens the payload again.
 */
export async function putToStorage(
	this: ApiContext,
	url: string,
	source: PayloadSource,
	options: StoragePutOptions,
): Promise<StoragePutResult> {
	const approved = await approveStorageUrl(this, url, options.role, options.itemIndex);
	return await withStorageRetries(this, approved, options, async (attemptNumber, timeoutMs) => {
		const payload = await source();
		const watch = storageWatch(this, options, timeoutMs);
		if (Buffer.isBuffer(payload.body)) watch.allowMemoryBody(payload.contentLength);
		else watch.watch(payload.body);
		let result: SendResult;
		try {
			result = await send(this, {
				method: 'PUT',
				url: approved,
				headers: {
					...(options.contentType ? { 'Content-Type': options.contentType } : {}),
					'Content-Length': String(payload.contentLength),
					...(options.headers ?? {}),
				},
				body: payload.body,
				watch,
				// A PUT's answer is small; what a storage host adds beyond the cap is not read.
				answer: { mode: 'buffer', maxBytes: 64 * 1024 },
			});
		} finally {
			watch.stop();
		}
		const stored = (headers: IDataObject, statusCode: number): StoragePutResult => ({
			statusCode,
			etag: typeof headers.etag === 'string' ? headers.etag : undefined,
			headers,
		});
		if (!result.ok && result.failure === 'too-large' && result.statusCode >= 200 && result.statusCode < 300) {
			return { ok: true, value: stored(result.headers, result.statusCode) };
		}
		if (!result.ok) {
			(payload.body as { destroy?: () => void }).destroy?.();
			return { ok: false, failure: attemptFailure(this, 'PUT', approved, options, result, watch, attemptNumber, timeoutMs) };
		}
		return judgeStorageAnswer(this, approved, options, result.answer, (answer) => stored(answer.headers, answer.statusCode));
	});
}

interface StorageDownloadOptions extends StorageRequestOptions {
	/**
	 * The most bytes the download may bring: the size the API's record announced, with a small
	 * tolerance (see allowedDownloadBytes); the Max Answer Size when no size is known.
	 */
	maxBytes?: number;
	/** Whether maxBytes comes from the size the service announced (else from Max Answer Size). */
	announced?: boolean;
}

/** A download (or a storage answer) that brought more bytes than allowed; nothing of it was kept. */
function downloadTooLargeError(context: ApiContext, options: StorageRequestOptions, limitBytes: number): NodeApiError {
	const announced = (options as StorageDownloadOptions).announced === true;
	return tooLargeError(context.getNode(), {
		what: `The download of ${options.label}`,
		limitBytes,
		itemIndex: options.itemIndex,
		limitName: announced ? 'the size the service announced for it (with a small tolerance)' : 'the Max Answer Size',
		advice: announced
			? 'It brought more bytes than the size the service announced for it; nothing was stored. Report the file to the service.'
			: 'Nothing was stored. Raise "Max Answer Size (MB)" in the node options if the file is legitimately that large.',
	});
}

/** What a download announced as `announcedBytes` may bring: a little more, never the service's whim. */
export function allowedDownloadBytes(announcedBytes: unknown): number | undefined {
	if (typeof announcedBytes !== 'number' || !Number.isFinite(announcedBytes) || announcedBytes < 0) return undefined;
	return Math.ceil(announcedBytes + Math.max(4096, announcedBytes / 100));
}

interface StorageDownload {
	/** The bytes as a stream: hand it to prepareBinaryData without buffering. */
	body: NodeJS.ReadableStream;
	headers: IDataObject;
	contentType?: string;
	contentLength?: number;
}

/**
 * GETs a presigned storage URL (a preview link, for example) as a stream, without the API key,
 * never following a redirect, and hands it to `consume` (which stores it) inside the attempt: the
 * idle time (Request Timeout), the low-speed limit and the byte cap stay in force until `consume`
 * has read the last byte, and a download that stalls, crawls or breaks off is tried again under
 * the policy like one that got no answer.
 */
export async function downloadFromStorage<T>(
	this: ApiContext,
	url: string,
	options: StorageDownloadOptions,
	consume: (download: StorageDownload) => Promise<T>,
): Promise<T> {
	const approved = await approveStorageUrl(this, url, options.role, options.itemIndex);
	const maxBytes = options.maxBytes ?? limitsOf(this, options.itemIndex).maxAnswerBytes;
	const capped = { ...options, maxBytes, announced: options.maxBytes !== undefined };
	return await withStorageRetries(this, approved, capped, async (attemptNumber, timeoutMs): Promise<AttemptResult<T>> => {
		const watch = storageWatch(this, capped, timeoutMs, maxBytes);
		try {
			const result = await send(this, { method: 'GET', url: approved, headers: {}, watch, answer: { mode: 'stream' } });
			if (!result.ok) {
				return { ok: false, failure: attemptFailure(this, 'GET', approved, capped, result, watch, attemptNumber, timeoutMs) };
			}
			const length = Number(result.answer.headers['content-length']);
			if (result.answer.stream && Number.isFinite(length) && length > maxBytes) {
				(result.answer.stream as { destroy?: () => void }).destroy?.();
				const tooLarge: SendResult = {
					ok: false,
					failure: 'too-large',
					limitBytes: maxBytes,
					statusCode: result.answer.statusCode,
					headers: result.answer.headers,
				};
				return { ok: false, failure: attemptFailure(this, 'GET', approved, capped, tooLarge, watch, attemptNumber, timeoutMs) };
			}
			const judged = judgeStorageAnswer(this, approved, capped, result.answer, (answer): StorageDownload => ({
				body: answer.stream as NodeJS.ReadableStream,
				headers: answer.headers,
				contentType: typeof answer.headers['content-type'] === 'string' ? answer.headers['content-type'] : undefined,
				contentLength: Number.isFinite(length) ? length : undefined,
			}));
			if (!judged.ok) return judged;
			try {
				return { ok: true, value: await consume(judged.value) };
			} catch (error) {
				(judged.value.body as { destroy?: () => void }).destroy?.();
				const failed: Exclude<SendResult, { ok: true }> = watch.reason
					? { ok: false, failure: 'aborted', reason: watch.reason }
					: { ok: false, failure: 'network', error };
				return { ok: false, failure: attemptFailure(this, 'GET', approved, capped, failed, watch, attemptNumber, timeoutMs) };
			}
		} finally {
			watch.stop();
		}
	});
}
