import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from './context';
import { readParameter } from './context';

/** How hard the transport tries before it reports a failure. */
export interface RetryPolicy {
	/** Total seconds one call may spend waiting on 429 answers before it fails. */
	maxRateLimitWaitSeconds: number;
	/** Retries after a 5xx answer or a network error, for requests that are safe to repeat. */
	maxTransientRetries: number;
	/** First backoff delay; doubles on each retry, with jitter, up to maxDelayMs. */
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRateLimitWaitSeconds: 60,
	maxTransientRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 8000,
};

/**
 * Name of the node option (inside each operation's Options collection) that bounds the total wait
 * on rate limits. See descriptions/common.ts.
 */
export const RATE_LIMIT_WAIT_PARAMETER = 'options.maxRateLimitWait';

export function retryPolicyFor(
	context: ApiContext,
	itemIndex: number | undefined,
	override: Partial<RetryPolicy> = {},
): RetryPolicy {
	const maxRateLimitWaitSeconds = readParameter(
		context,
		RATE_LIMIT_WAIT_PARAMETER,
		itemIndex,
		DEFAULT_RETRY_POLICY.maxRateLimitWaitSeconds,
	);
	return {
		...DEFAULT_RETRY_POLICY,
		maxRateLimitWaitSeconds: Number(maxRateLimitWaitSeconds) || 0,
		...override,
	};
}

/** Exponential backoff with equal jitter: between half and all of the capped exponential delay. */
export function backoffDelayMs(retryNumber: number, policy: RetryPolicy): number {
	const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryNumber);
	return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}

/** Seconds to wait before retrying a 429, from the problem body's retryAfter or Retry-After. */
export function retryAfterSeconds(
	body: IDataObject | undefined,
	headers: IDataObject | undefined,
): number | undefined {
	const fromBody = Number(body?.retryAfter);
	if (body?.retryAfter !== undefined && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;

	const header = headers?.['retry-after'];
	if (header === undefined || header === null || header === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds;
	const date = Date.parse(String(header));
	if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
	return undefined;
}

/** HTTP answers worth repeating for a request that is safe to repeat. */
export function isTransientStatus(statusCode: number): boolean {
	return statusCode === 408 || (statusCode >= 500 && statusCode !== 501 && statusCode !== 505);
}

const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ENETDOWN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** The low-level network error code inside an error thrown by n8n's HTTP helpers, if any. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^(E[A-Z_]+|ERR_[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code)) {
			return code;
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

export function isTransientNetworkError(error: unknown): boolean {
	const code = networkErrorCode(error);
	return code !== undefined && TRANSIENT_NETWORK_CODES.has(code);
}
