import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { trimTrailingStops } from './errors';
import { redact, redactQuery } from './secrets';

/**
 * Errors of a request that got no usable HTTP answer: no answer at all (network, timeout, a
 * transfer bound), a redirect it does not follow, a URL refused before sending, an answer past
 * its byte cap. The API's own error answers are read by errors.ts.
 */

/** The first line of a text, at most 300 characters. */
function firstSentence(text: string): string | undefined {
	const line = text.split('\n', 1)[0].trim();
	if (line === '' || line === 'unknown error') return undefined;
	return trimTrailingStops(line.length > 300 ? `${line.slice(0, 300)}…` : line);
}

/** What a low-level network error code means, for a person. */
function explainNetworkCode(code: string | undefined, timeoutMs?: number): string {
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name was not found (DNS); check its spelling';
	if (code === 'ECONNREFUSED') return 'the connection was refused: nothing listens at that host and port';
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ERR_BAD_RESPONSE') {
		return 'the connection was closed before the answer was complete';
	}
	if (code === 'IDLE' && timeoutMs) {
		return `no answer and no byte moved for ${Math.round(timeoutMs / 1000)} s (the Request Timeout option)`;
	}
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT' || code === 'TIMEOUT') {
		return timeoutMs
			? `no answer within ${Math.round(timeoutMs / 1000)} s (the Request Timeout option)`
			: 'the connection timed out';
	}
	if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'ENETDOWN') {
		return 'the network cannot reach that host';
	}
	if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
		return `the TLS handshake failed (${code}): the host's certificate is not trusted or does not match the host name`;
	}
	return code ? `network error ${code}` : 'network error';
}

interface NetworkErrorInput {
	method: string;
	/** Shown without its query (it may hold a signature). */
	url: string;
	code?: string;
	/** The underlying error's message, for the description only. */
	cause: string;
	attempts: number;
	itemIndex?: number;
	secrets?: string[];
	/** The timeout the failed attempt had, when it timed out. */
	timeoutMs?: number;
	/** What was being sent or read, e.g. `part 3 of 12 of "scan.pdf"`. */
	label?: string;
	/** Advice in place of the default (which is about the API host). */
	advice?: string;
	/** What happened, in words, in place of the network code's explanation (e.g. a speed limit). */
	reason?: string;
	/** Why no further attempt was made (the retry policy's note), for the message. */
	note?: string;
}

function hostOf(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}`;
	} catch {
		return 'the host';
	}
}

/** Builds a NodeApiError for a request that never got an HTTP answer, naming the host and the cause. */
export function buildNetworkError(node: INode, input: NetworkErrorInput): NodeApiError {
	const secrets = input.secrets ?? [];
	const tries = input.attempts > 1 ? ` (${input.attempts} attempts)` : '';
	const what = input.label ? ` while sending or reading ${input.label}` : '';
	const advice =
		input.advice ?? 'Check the host in the credential (Instance, Instance Host or Base URL) and the network between n8n and the API.';
	const explained = explainNetworkCode(input.code, input.timeoutMs);
	// A code this table does not know (for example ESANDBOXOFFLINE from the local sandbox's guard)
	// is shown with the error's own first sentence, which says what to do in its own words.
	const ownWords = input.code !== undefined && explained === `network error ${input.code}` ? firstSentence(input.cause) : undefined;
	const reason = input.reason ?? (ownWords ? `${ownWords} (${input.code})` : explained);
	// The number of attempts is said once, in the parentheses above.
	const noteParts = (input.note ?? '').split('. ').filter((part) => part !== '' && !part.startsWith('Gave up after'));
	const note = noteParts.length ? ` ${trimTrailingStops(noteParts.join('. '))}.` : '';
	const message = redact(`Could not reach ${hostOf(input.url)}${what}: ${reason}${tries}.${note} ${advice}`, secrets);
	const description = redact(`${input.method} ${redactQuery(input.url)}\n${input.cause}`, secrets);
	const error = new NodeApiError(
		node,
		{ code: input.code ?? 'NETWORK_ERROR', url: redact(redactQuery(input.url), secrets) } as JsonObject,
		{ message, description, itemIndex: input.itemIndex },
	);
	error.message = message;
	error.description = description;
	return error;
}

/** A 3xx answer: requests never follow redirects; the error names the status and the target host. */
export function buildRedirectError(
	node: INode,
	input: { statusCode: number; location: unknown; what: string; itemIndex?: number; secrets?: string[]; advice: string },
): NodeApiError {
	let target = 'no Location';
	if (typeof input.location === 'string' && input.location !== '') {
		target = hostOf(input.location) === 'the host' ? 'an invalid Location' : `the host ${hostOf(input.location)}`;
	}
	const message = redact(
		`${input.what} answered HTTP ${input.statusCode} with a redirect to ${target}. The node does not follow redirects, so no request was sent there. ${input.advice}`,
		input.secrets ?? [],
	);
	const error = new NodeApiError(node, { status: input.statusCode, redirect: target } as JsonObject, {
		message,
		description: message,
		httpCode: String(input.statusCode),
		itemIndex: input.itemIndex,
	});
	error.message = message;
	error.description = message;
	return error;
}

/** The error for a URL refused by the URL policy (before anything was sent to it). */
export function refusedUrlError(node: INode, message: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex });
}

/** A size for a person: bytes, KB or MB (1024-based, as the options count). */
function sizeText(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	const mb = bytes / (1024 * 1024);
	return mb >= 10 ? `${Math.round(mb)} MB` : `${Math.round(mb * 100) / 100} MB`;
}

/** An answer past its byte cap: reading stopped there and the connection was closed. */
export function tooLargeError(
	node: INode,
	input: { what: string; limitBytes: number; itemIndex?: number; advice?: string; limitName?: string },
): NodeApiError {
	const advice =
		input.advice ??
		'If the answer is legitimate (for example the values of a document with very large tables), raise "Max Answer Size (MB)" in the node options.';
	const message = `${input.what} is larger than ${sizeText(input.limitBytes)}, ${input.limitName ?? 'the Max Answer Size'}: reading stopped there and nothing of it was used. ${advice}`;
	const error = new NodeApiError(node, { reason: 'answer too large', limitBytes: input.limitBytes } as JsonObject, {
		message,
		description: message,
		itemIndex: input.itemIndex,
	});
	error.message = message;
	error.description = message;
	return error;
}
