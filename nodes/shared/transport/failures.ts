import type { IDataObject } from 'n8n-workflow';

import { TEXT_LIMITS } from '../limits';

/**
 * What a failed attempt's answer or error says, for the retry policy (retry.ts) and the errors a
 * person reads: the pause a 429 asked for, and whether a status or a network error is worth
 * repeating. Every walk over an error's causes is bounded (TEXT_LIMITS.causeDepth).
 */

/** Seconds from a retryAfter body field or a Retry-After header (seconds or an HTTP date). */
export function retryAfterMs(body: IDataObject | undefined, headers: IDataObject | undefined): number | undefined {
	const fromBody = body?.retryAfter;
	if (typeof fromBody === 'number' && Number.isFinite(fromBody)) return fromBody * 1000;
	if (typeof fromBody === 'string' && fromBody.trim() !== '' && Number.isFinite(Number(fromBody))) {
		return Number(fromBody) * 1000;
	}
	const header = headers?.['retry-after'];
	const text = Array.isArray(header) ? String(header[0]) : header === undefined || header === null ? '' : String(header);
	if (text.trim() === '' || text.length > TEXT_LIMITS.retryAfterHeaderChars) return undefined;
	const seconds = Number(text);
	if (Number.isFinite(seconds)) return seconds * 1000;
	const date = Date.parse(text);
	if (!Number.isNaN(date)) return date - Date.now();
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
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ENETDOWN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
	// n8n's HTTP client (axios) when the connection closed before the answer's body was complete
	'ERR_BAD_RESPONSE',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** A network library's error code: capitals and underscores, E… / ERR_… / UND_ERR_… or a certificate code. */
function isNetworkCode(code: string): boolean {
	if (code.length > TEXT_LIMITS.networkCodeChars || !/^[A-Z_]+$/.test(code)) return false;
	return code.startsWith('E') || code.startsWith('UND_ERR_') || code.includes('CERT');
}

/** The low-level network error code inside an error thrown by n8n's HTTP helpers, if any. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < TEXT_LIMITS.causeDepth && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && isNetworkCode(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Whether any error in the cause chain has a network code worth a retry. */
export function isTransientNetworkError(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < TEXT_LIMITS.causeDepth && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}
