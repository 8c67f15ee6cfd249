import type { IDataObject } from 'n8n-workflow';

import { connectionFor } from './connection';
import type { ApiContext } from '../run/context';
import type { RequestPolicy } from '../run/policy';
import { refusedUrlError } from './errors';
import { ANSWER_LIMITS } from '../limits';
import type { SendResult } from './http';
import { send } from './http';
import type { AttemptLimits, AttemptResult } from './retry';
import { withRetries } from './retry';
import { addSecrets } from '../run/scope';
import type { StorageDownloadOptions, StorageRequestOptions } from './storageOutcome';
import { attemptFailure, expiredUrlError, judgeStorageAnswer } from './storageOutcome';
import { UrlPolicyError, approveReturnedUrl } from './returnedUrls';
import type { ReturnedUrlRole } from './returnedUrls';
import { TransferWatch } from './watch';

export type { StorageDownloadOptions, StorageRequestOptions };

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

declare const approvedMark: unique symbol;

/**
 * A URL the API handed back, judged by the URL policy once (approveStorageUrl) and its secrets
 * registered with the run: the only kind of URL a storage request takes. A plain string is not
 * one, so a URL cannot reach storage unjudged, and nothing judges it twice.
 */
export interface ApprovedUrl {
	readonly href: string;
	readonly [approvedMark]: true;
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
	policy: RequestPolicy,
): Promise<ApprovedUrl> {
	const { itemIndex } = policy;
	const { base } = await connectionFor(context, itemIndex);
	let approved: string;
	try {
		approved = approveReturnedUrl(url, role, base);
	} catch (error) {
		if (error instanceof UrlPolicyError) throw refusedUrlError(context.getNode(), error.message, itemIndex);
		throw refusedUrlError(context.getNode(), `The ${role} the API answered was refused`, itemIndex);
	}
	addSecrets(context, signedUrlSecrets(approved));
	return { href: approved } as ApprovedUrl;
}

/**
 * The bounds of one storage attempt: idle time (Request Timeout), low-speed limit, byte cap, stop;
 * a repeated attempt also ends when what Max Retry Wait had left when it started is spent.
 */
function storageWatch(options: StorageRequestOptions, limits: AttemptLimits, maxBytes?: number): TransferWatch {
	const { lowSpeed, cancelSignal } = options.policy;
	return new TransferWatch({ idleMs: limits.timeoutMs, deadlineMs: limits.budgetLeftMs, lowSpeed, cancelSignal, maxBytes });
}

/**
 * Runs a storage request under the policy: item budget (every wait and every repeated attempt
 * charged to it), URL validity, the transfer bounds.
 */
async function withStorageRetries<T>(
	context: ApiContext,
	url: string,
	options: StorageRequestOptions,
	attempt: (limits: AttemptLimits) => Promise<AttemptResult<T>>,
): Promise<T> {
	return await withRetries(
		{
			context,
			policy: options.policy,
			maxFailureRetries: options.maxFailureRetries,
			service: 'Storage',
			deadline:
				options.validUntil === undefined
					? undefined
					: { at: options.validUntil, note: `The presigned URL stops working at ${new Date(options.validUntil).toISOString()}` },
			deadlineError: () => expiredUrlError(context, url, options),
		},
		attempt,
	);
}

/**
 * PUTs bytes to an approved presigned storage URL, without the API key, with a Content-Length,
 * never following a redirect. Repeats on a 5xx, network error, stall or a transfer below the minimum
 * speed (a PUT of the same bytes to the same URL is idempotent) and waits out 429/503
 * Retry-After, as the retry policy decides; each attempt opens the payload again.
 */
export async function putToStorage(
	context: ApiContext,
	url: ApprovedUrl,
	source: PayloadSource,
	options: StoragePutOptions,
): Promise<StoragePutResult> {
	const approved = url.href;
	return await withStorageRetries(context, approved, options, async (limits) => {
		const payload = await source();
		const watch = storageWatch(options, limits);
		if (Buffer.isBuffer(payload.body)) watch.allowMemoryBody(payload.contentLength);
		else watch.watch(payload.body);
		let result: SendResult;
		try {
			result = await send(context, {
				method: 'PUT',
				url: approved,
				headers: {
					...(options.contentType ? { 'Content-Type': options.contentType } : {}),
					'Content-Length': String(payload.contentLength),
					...(options.headers ?? {}),
				},
				body: payload.body,
				watch,
				// A PUT's answer is small; read like an error answer, past its cap it is not read.
				answer: { mode: 'buffer', maxBytes: ANSWER_LIMITS.errorBodyBytes },
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
			return { ok: false, failure: attemptFailure(context, 'PUT', approved, options, result, watch, limits, payload.contentLength) };
		}
		return judgeStorageAnswer(context, approved, options, result.answer, (answer) => stored(answer.headers, answer.statusCode));
	});
}

export interface StorageDownload {
	/** The bytes as a stream: hand it to prepareBinaryData without buffering. */
	body: NodeJS.ReadableStream;
	headers: IDataObject;
	contentType?: string;
	contentLength?: number;
}

/**
 * GETs an approved presigned storage URL (a preview link, for example) as a stream, without the API key,
 * never following a redirect, and hands it to `consume` (which stores it) inside the attempt: the
 * idle time (Request Timeout), the low-speed limit and the byte cap stay in force until `consume`
 * has read the last byte, and a download that stalls, crawls or breaks off is tried again under
 * the policy like one that got no answer.
 */
export async function downloadFromStorage<T>(
	context: ApiContext,
	url: ApprovedUrl,
	options: StorageDownloadOptions,
	consume: (download: StorageDownload) => Promise<T>,
): Promise<T> {
	const approved = url.href;
	const maxBytes = options.maxBytes ?? options.policy.maxAnswerBytes;
	const capped = { ...options, maxBytes, announced: options.maxBytes !== undefined };
	return await withStorageRetries(context, approved, capped, async (limits): Promise<AttemptResult<T>> => {
		const watch = storageWatch(capped, limits, maxBytes);
		try {
			const result = await send(context, { method: 'GET', url: approved, headers: {}, watch, answer: { mode: 'stream' } });
			if (!result.ok) {
				return { ok: false, failure: attemptFailure(context, 'GET', approved, capped, result, watch, limits) };
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
				return { ok: false, failure: attemptFailure(context, 'GET', approved, capped, tooLarge, watch, limits) };
			}
			const judged = judgeStorageAnswer(context, approved, capped, result.answer, (answer): StorageDownload => ({
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
				return { ok: false, failure: attemptFailure(context, 'GET', approved, capped, failed, watch, limits, Number.isFinite(length) ? length : undefined) };
			}
		} finally {
			watch.stop();
		}
	});
}
