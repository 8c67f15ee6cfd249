import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { cancelledError } from '../run/cancel';
import type { ApiContext } from '../run/context';
import { buildNetworkError, buildRedirectError, tooLargeError } from './errors';
import type { Answer, SendResult } from './http';
import type { RequestPolicy } from '../run/policy';
import { secretsOf } from '../run/scope';
import type { AttemptFailure, AttemptLimits, AttemptResult } from './retry';
import { isTransientNetworkError, isTransientStatus, networkErrorCode, retryAfterMs } from './failures';
import { redact, redactQuery } from './secrets';
import { sizeText, summarizeText, trimTrailingStops } from '../text';
import type { TransferWatch } from './watch';

/**
 * What a storage attempt's outcome means: an answer judged for the retry policy (success,
 * redirect, pause, failure worth repeating, refusal), an attempt ended by a bound or the network
 * turned into a failure, and the errors a person reads for each.
 */

export interface StorageRequestOptions {
	/** Names what is being sent or read, for errors: e.g. `file "invoice.pdf"`, `part 3 of upload …`. */
	label: string;
	/** The bounds of the item (the editor lookup) the transfer is for; its item is named in errors. */
	policy: RequestPolicy;
	/** Retries after failures (default: the policy's). */
	maxFailureRetries?: number;
	/**
	 * When the presigned URL stops working (epoch ms). No attempt starts after it and no retry
	 * waits past it; the error then says that the URL expired (error.context.urlExpired).
	 */
	validUntil?: number;
}

export interface StorageDownloadOptions extends StorageRequestOptions {
	/**
	 * The most bytes the download may bring: the size the API's record announced, with a small
	 * tolerance (the API layer's download); the Max Answer Size when no size is known.
	 */
	maxBytes?: number;
	/** Whether maxBytes comes from the size the service announced (else from Max Answer Size). */
	announced?: boolean;
}

/** A download (or a storage answer) that brought more bytes than allowed; nothing of it was kept. */
export function downloadTooLargeError(context: ApiContext, options: StorageRequestOptions, limitBytes: number): NodeApiError {
	const announced = (options as StorageDownloadOptions).announced === true;
	return tooLargeError(context.getNode(), {
		what: `The download of ${options.label}`,
		limitBytes,
		itemIndex: options.policy.itemIndex,
		limitName: announced ? 'the size the service announced for it (with a small tolerance)' : 'the Max Answer Size',
		advice: announced
			? 'It brought more bytes than the size the service announced for it; nothing was stored. Report the file to the service.'
			: 'Nothing was stored. Raise "Max Answer Size (MB)" in the node options if the file is legitimately that large.',
	});
}

export function storageError(
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
		itemIndex: options.policy.itemIndex,
	});
	error.message = message;
	if (expired) error.context.urlExpired = true;
	return error;
}

export function expiredUrlError(context: ApiContext, url: string, options: StorageRequestOptions, note?: string): NodeApiError {
	const message = `The presigned URL for ${options.label} expired before it was sent${note ? ` (${note})` : ''}. Run the node again to get a new one.`;
	const error = new NodeApiError(context.getNode(), { reason: 'presigned URL expired' } as JsonObject, {
		message,
		description: `${redactQuery(url)} was valid until ${new Date(options.validUntil ?? 0).toISOString()}.`,
		itemIndex: options.policy.itemIndex,
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
export function judgeStorageAnswer<T>(
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
			itemIndex: options.policy.itemIndex,
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

/** A speed in the unit that shows it: bytes/s below 1 KB/s, else KB/s. */
function speedText(bytesPerSecond: number): string {
	return bytesPerSecond < 1024 ? `${Math.round(bytesPerSecond)} bytes/s` : kibPerSecond(bytesPerSecond);
}

const secondsText = (ms: number) => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;

/**
 * What the attempt's bytes did before a bound ended it, in words: how many moved, in what time, at
 * what speed. `totalBytes`: the body's size (a PUT) or the size announced (a download), when known.
 */
export function transferSoFar(method: 'PUT' | 'GET', watch: TransferWatch, totalBytes: number | undefined, now = Date.now()): string {
	const of = totalBytes !== undefined && totalBytes > 0 ? ` of ${sizeText(totalBytes)}` : '';
	const elapsedMs = now - watch.startedAt;
	if (method === 'PUT' && watch.memoryBody) return `the ${sizeText(totalBytes ?? 0)} body was handed over from memory and storage had not answered after ${secondsText(elapsedMs)}`;
	if (watch.bytes === 0) return `no byte ${method === 'PUT' ? 'was sent' : 'came'} in ${secondsText(elapsedMs)}`;
	if (method === 'PUT' && totalBytes !== undefined && watch.bytes >= totalBytes) {
		return `all ${sizeText(totalBytes)} were sent in ${secondsText(watch.lastByteAt - watch.startedAt)}, then storage did not answer for ${secondsText(now - watch.lastByteAt)}`;
	}
	const speed = speedText(watch.bytes / Math.max(0.001, elapsedMs / 1000));
	return `${sizeText(watch.bytes)}${of} ${method === 'PUT' ? 'were sent' : 'came'} in ${secondsText(elapsedMs)} (${speed})`;
}

/** Which bound ended a storage attempt, for a person: the code for the error, and the words. */
export function abortCause(
	watch: TransferWatch,
	limits: AttemptLimits,
	policy: RequestPolicy,
): { code: 'RETRY_BUDGET' | 'TOO_SLOW' | 'IDLE'; bound: string } {
	const { minBytesPerSecond, windowMs } = policy.lowSpeed;
	if (watch.reason === 'deadline') {
		return {
			code: 'RETRY_BUDGET',
			bound: `it was ended when the ${secondsText(limits.budgetLeftMs ?? 0)} that ${policy.budget.name} had left for this repeated attempt were spent`,
		};
	}
	if (watch.reason === 'too-slow') {
		return {
			code: 'TOO_SLOW',
			bound: `it was ended because it moved at ${speedText(watch.speedSeen)} over the last ${Math.round(windowMs / 1000)} s, below the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)}`,
		};
	}
	if (watch.memoryBody) {
		return {
			code: 'TOO_SLOW',
			bound: `it was ended at the time its size allows at the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)} plus ${policy.names.requestTimeout} (${Math.round(limits.timeoutMs / 1000)} s)`,
		};
	}
	return { code: 'IDLE', bound: `it was ended when nothing had moved for ${Math.round(limits.timeoutMs / 1000)} s (${policy.names.requestTimeout})` };
}

const STORAGE_ADVICE = {
	TOO_SLOW: 'Check the network between n8n and the storage host; lower "Min Transfer Speed (KB/s)" in the node options if such a slow link is expected.',
	RETRY_BUDGET: 'Every repeated attempt is charged to "Max Retry Wait (Seconds)": raise it in the node options for large files over an unreliable link, or check the network between n8n and the storage host.',
	IDLE: 'Check the network between n8n and the storage host, then run the node again.',
} as const;

/** The error of a transfer a bound ended: what its bytes did, then which bound ended it; never "Could not reach" a host that answered. */
function stoppedTransferError(
	context: ApiContext,
	input: { method: 'PUT' | 'GET'; url: string; options: StorageRequestOptions; watch: TransferWatch; limits: AttemptLimits; totalBytes?: number },
	note?: string,
): NodeApiError {
	const { method, url, options, watch, limits } = input;
	const secrets = secretsOf(context);
	const { code, bound } = abortCause(watch, limits, options.policy);
	const what = method === 'PUT' ? `The upload of ${options.label} to storage` : `The download of ${options.label} from storage`;
	const tries = limits.attemptNumber > 1 ? ` (${limits.attemptNumber} attempts)` : '';
	// The number of attempts is said once, in the parentheses.
	const why = (note ?? '').split('. ').filter((part) => part !== '' && !part.startsWith('Gave up after'));
	const message = redact(
		`${what} (${new URL(url).origin}) stopped: ${transferSoFar(method, watch, input.totalBytes)}; ${bound}${tries}.${why.length ? ` ${trimTrailingStops(why.join('. '))}.` : ''} ${STORAGE_ADVICE[code]}`,
		secrets,
	);
	const error = new NodeApiError(context.getNode(), { code, url: redact(redactQuery(url), secrets) } as JsonObject, {
		message,
		description: redact(`${method} ${redactQuery(url)}\n${code}`, secrets),
		itemIndex: options.policy.itemIndex,
	});
	error.message = message;
	return error;
}

/**
 * A storage attempt that got no usable answer: stopped, aborted by a bound, too large, or a network
 * error. `totalBytes`: the body's size (a PUT) or the size announced (a download), for the message.
 */
export function attemptFailure(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	options: StorageRequestOptions,
	result: Exclude<SendResult, { ok: true }>,
	watch: TransferWatch,
	limits: AttemptLimits,
	totalBytes?: number,
): AttemptFailure {
	const { attemptNumber } = limits;
	if (watch.reason === 'cancelled' || (result.failure === 'aborted' && result.reason === 'cancelled')) {
		return { kind: 'failed', repeatable: false, giveUp: () => cancelledError(context) };
	}
	if (result.failure === 'too-large' || watch.reason === 'too-large') {
		const limitBytes = result.failure === 'too-large' ? result.limitBytes : ((options as StorageDownloadOptions).maxBytes ?? 0);
		return { kind: 'failed', repeatable: false, giveUp: () => downloadTooLargeError(context, options, limitBytes) };
	}
	if (result.failure === 'aborted') {
		// A bound ended it: the host answered, or took bytes, unless nothing moved at all (then it may be unreachable).
		const reached = watch.reason !== 'idle' || watch.bytes > 0 || watch.memoryBody;
		const stopped = { method, url, options, watch, limits, totalBytes };
		const giveUp = reached
			? (note?: string) => stoppedTransferError(context, stopped, note)
			: (note?: string) => networkFailure(context, method, url, options, attemptNumber, { code: 'IDLE', timeoutMs: limits.timeoutMs }, note);
		return { kind: 'failed', repeatable: true, giveUp };
	}
	const error = result.failure === 'network' ? result.error : undefined;
	const giveUp = (note?: string) => networkFailure(context, method, url, options, attemptNumber, { error }, note);
	return { kind: 'failed', repeatable: isTransientNetworkError(error), giveUp };
}

/** A storage attempt that reached no answer: the network error (or nothing moved), in words. */
function networkFailure(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	options: StorageRequestOptions,
	attempts: number,
	failure: { error?: unknown; code?: string; timeoutMs?: number },
	note?: string,
): NodeApiError {
	const cause = failure.code === 'IDLE' ? 'no answer and no byte moved' : redact((failure.error as Error)?.message ?? 'unknown error', secretsOf(context));
	return buildNetworkError(context.getNode(), {
		method,
		url,
		code: failure.code ?? networkErrorCode(failure.error),
		cause: `${cause}${note ? `\n${note}` : ''}`,
		attempts,
		itemIndex: options.policy.itemIndex,
		secrets: secretsOf(context),
		timeoutMs: failure.timeoutMs,
		timeoutName: options.policy.names.requestTimeout,
		note,
		label: options.label,
		advice: STORAGE_ADVICE.IDLE,
	});
}
