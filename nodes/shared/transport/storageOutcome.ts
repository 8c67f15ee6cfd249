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
import { summarizeText } from '../text';
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

/** Why a storage attempt ended without an answer, for a person. */
export function abortCause(watch: TransferWatch, limits: AttemptLimits, minBytesPerSecond: number, windowMs: number): { code: string; cause: string } {
	const { timeoutMs, budgetLeftMs } = limits;
	if (watch.reason === 'deadline') {
		return {
			code: 'RETRY_BUDGET',
			cause: `the repeated attempt was still running when the ${((budgetLeftMs ?? 0) / 1000).toFixed(1)} s that Max Retry Wait had left for it were spent`,
		};
	}
	if (watch.reason === 'too-slow') {
		return {
			code: 'TOO_SLOW',
			cause: `the transfer moved at ${kibPerSecond(watch.speedSeen)} over ${Math.round(windowMs / 1000)} s, below the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)}`,
		};
	}
	if (watch.reason === 'idle' && watch.memoryBody) {
		return {
			code: 'TOO_SLOW',
			cause: `the body sent from memory was not accepted within ${watch.elapsedSeconds()} s, the time its size allows at the Min Transfer Speed of ${kibPerSecond(minBytesPerSecond)} plus the Request Timeout`,
		};
	}
	return { code: 'IDLE', cause: `no progress for ${Math.round(timeoutMs / 1000)} s` };
}

/** A storage attempt that got no usable answer: stopped, aborted by a bound, too large, or a network error. */
export function attemptFailure(
	context: ApiContext,
	method: 'PUT' | 'GET',
	url: string,
	options: StorageRequestOptions,
	result: Exclude<SendResult, { ok: true }>,
	watch: TransferWatch,
	limits: AttemptLimits,
): AttemptFailure {
	const { attemptNumber, timeoutMs } = limits;
	if (watch.reason === 'cancelled' || (result.failure === 'aborted' && result.reason === 'cancelled')) {
		return { kind: 'failed', repeatable: false, giveUp: () => cancelledError(context) };
	}
	if (result.failure === 'too-large' || watch.reason === 'too-large') {
		const limitBytes = result.failure === 'too-large' ? result.limitBytes : ((options as StorageDownloadOptions).maxBytes ?? 0);
		return { kind: 'failed', repeatable: false, giveUp: () => downloadTooLargeError(context, options, limitBytes) };
	}
	const { minBytesPerSecond, windowMs } = options.policy.lowSpeed;
	const aborted = result.failure === 'aborted' ? abortCause(watch, limits, minBytesPerSecond, windowMs) : undefined;
	const error = result.failure === 'network' ? result.error : undefined;
	const giveUp = (note?: string) =>
		buildNetworkError(context.getNode(), {
			method,
			url,
			code: aborted?.code ?? networkErrorCode(error),
			cause: `${aborted?.cause ?? redact((error as Error)?.message ?? 'unknown error', secretsOf(context))}${note ? `\n${note}` : ''}`,
			attempts: attemptNumber,
			itemIndex: options.policy.itemIndex,
			secrets: secretsOf(context),
			timeoutMs: aborted?.code === 'IDLE' ? timeoutMs : undefined,
			reason: aborted?.code === 'TOO_SLOW' || aborted?.code === 'RETRY_BUDGET' ? aborted.cause : undefined,
			note,
			label: options.label,
			advice:
				aborted?.code === 'TOO_SLOW'
					? 'Check the network between n8n and the storage host; lower "Min Transfer Speed (KB/s)" in the node options if such a slow link is expected.'
					: aborted?.code === 'RETRY_BUDGET'
						? 'Every repeated attempt is charged to "Max Retry Wait (Seconds)": raise it in the node options for large files over an unreliable link, or check the network between n8n and the storage host.'
						: 'Check the network between n8n and the storage host, then run the node again.',
		});
	return { kind: 'failed', repeatable: aborted !== undefined || isTransientNetworkError(error), giveUp };
}

