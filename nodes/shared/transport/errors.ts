import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { explainConnectionFailure } from '../connectionFailure';
import { isFixedInstanceHost } from '../../../credentials/hosts';
import { TEXT_LIMITS } from '../limits';
import { redact, redactQuery } from './secrets';
import { sizeText, summarizeText, trimTrailingStops } from '../text';

/** The API's problem+json body (docs/dev/api-contract.md#errors), including the deprecated legacy keys. */
export interface Problem {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	instance?: string;
	code?: string;
	requestId?: string;
	errors?: Violation[];
	retryAfter?: number;
	message?: string;
	error?: string;
	statusCode?: number;
}

export interface Violation {
	code?: string;
	detail?: string;
	pointer?: string;
	parameter?: string;
}

export interface ApiErrorInput {
	statusCode: number;
	statusMessage?: string;
	body: unknown;
	headers?: IDataObject;
	method: string;
	path: string;
	itemIndex?: number;
	/** Extra sentence placed before the status hint, e.g. how long a rate limit was waited for. */
	note?: string;
	/** Strings that must never appear in a message (the API key). */
	secrets?: string[];
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The request was malformed: check the parameters named above.',
	401: 'Check the API key in the Document Extraction credential: it is missing, mistyped or revoked.',
	403: 'The API key is read-only or inactive: activate it, or use a key with write access for this operation (project settings of the dashboard).',
	404: 'Check the ID: the resource does not exist in the workspace of this API key, or was deleted.',
	422: 'Correct the values named above and run the node again.',
	429: 'The API is rate limiting this key: raise "Max Retry Wait" in the node options, or send fewer requests at a time.',
};

function hintFor(status: number, text: string): string | undefined {
	if (status === 403 && /read-only/i.test(text)) {
		return 'The API key is read-only: use a key with write access for this operation (project settings of the dashboard).';
	}
	if (status === 403 && /inactive/i.test(text)) {
		return 'The API key is inactive: activate it, or create a new key, in the project settings of the dashboard.';
	}
	return STATUS_HINTS[status] ?? (status >= 500 ? 'The service failed; try again later.' : undefined);
}

function str(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** At most `max` characters of a text the service sent, so a huge answer cannot flood a message. */
function clip(text: string | undefined, max: number): string | undefined {
	if (text === undefined) return undefined;
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

function asProblem(body: unknown): Problem {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as Problem;
	return {};
}

export function describeViolation(violation: Violation): string {
	const where = violation.pointer
		? `field ${clip(str(violation.pointer), TEXT_LIMITS.violationFieldChars)}`
		: violation.parameter
			? `parameter ${clip(str(violation.parameter), TEXT_LIMITS.violationFieldChars)}`
			: 'request';
	const what = clip(str(violation.detail), TEXT_LIMITS.violationDetailChars) ?? 'is invalid';
	const code = clip(str(violation.code), TEXT_LIMITS.codeChars);
	return `${where}: ${what}${code ? ` (${code})` : ''}`;
}

/** Builds a NodeApiError whose message a person understands from an HTTP error answer. */
export function buildApiError(node: INode, input: ApiErrorInput): NodeApiError {
	const secrets = input.secrets ?? [];
	const clean = (value: string | undefined) => (value === undefined ? undefined : redact(value, secrets));
	const problem = asProblem(input.body);
	const textBody = typeof input.body === 'string' ? summarizeText(input.body) : undefined;
	const status = input.statusCode;

	const title = clean(clip(str(problem.title) ?? str(problem.error) ?? str(input.statusMessage), TEXT_LIMITS.titleChars));
	const detail = clean(clip(str(problem.detail) ?? str(problem.message) ?? textBody, TEXT_LIMITS.detailChars));
	const headline = title && detail && title !== detail ? `${title}: ${detail}` : (detail ?? title);
	const code = clean(clip(str(problem.code), TEXT_LIMITS.codeChars));
	const requestId = clean(
		clip(
			str(problem.requestId) ?? str(input.headers?.['x-request-id']) ?? str(input.headers?.['x-amzn-requestid']),
			TEXT_LIMITS.requestIdChars,
		),
	);
	const violations = (Array.isArray(problem.errors) ? problem.errors.slice(0, TEXT_LIMITS.violationsShown) : []).map((violation) =>
		redact(describeViolation(violation && typeof violation === 'object' ? violation : {}), secrets),
	);
	const hint = hintFor(status, `${title ?? ''} ${detail ?? ''}`);

	const statusPart = `HTTP ${status}${code ? ` ${code}` : ''}`;
	const parts = [`${trimTrailingStops(headline ?? 'The API refused the request')} (${statusPart})`];
	if (violations.length) parts.push(`Invalid: ${violations.join('; ')}`);
	if (input.note) parts.push(input.note);
	if (hint) parts.push(hint);
	if (requestId) parts.push(`Request ID: ${requestId}`);
	const message = redact(parts.map((p) => trimTrailingStops(p)).join('. ') + '.', secrets);

	// n8n shows the message as the headline (and in the toast) and the description under it: the
	// description adds only what the message does not say, so no sentence is shown twice.
	const description = redact(`${input.method} ${input.path} answered HTTP ${status}${code ? ` (${code})` : ''}.`, secrets);

	const sanitized: JsonObject = {
		status,
		...(title ? { title } : {}),
		...(detail ? { detail } : {}),
		...(code ? { code } : {}),
		...(requestId ? { requestId } : {}),
		...(violations.length ? { errors: violations } : {}),
	};

	const error = new NodeApiError(node, sanitized, {
		message,
		description,
		httpCode: String(status),
		itemIndex: input.itemIndex,
	});
	// NodeApiError rewrites messages that mention common error codes; keep ours exactly.
	error.message = message;
	error.description = description;
	error.context.requestId = requestId;
	error.context.httpCode = String(status);
	return error;
}

export interface NetworkErrorInput {
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
	/** How the timeout is named (default: the Request Timeout option). */
	timeoutName?: string;
	/** What was being sent or read, e.g. `part 3 of 12 of "scan.pdf"`. */
	label?: string;
	/** Advice in place of the default (which is about the API host and where it came from). */
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

/** The host name of a URL (empty when it does not parse). */
function hostnameOf(url: string): string {
	try {
		return new URL(url).hostname;
	} catch {
		return '';
	}
}

/**
 * Builds a NodeApiError for a request that never got an HTTP answer, naming the host and the cause,
 * then what to do, said once: nothing more when the cause explains itself (the sandbox's offline
 * guard), and no "check its spelling" for the fixed host of an Instance that nobody typed.
 */
export function buildNetworkError(node: INode, input: NetworkErrorInput): NodeApiError {
	const secrets = input.secrets ?? [];
	const tries = input.attempts > 1 ? ` (${input.attempts} attempts)` : '';
	const what = input.label ? ` while sending or reading ${input.label}` : '';
	const failure = explainConnectionFailure({
		code: input.code,
		cause: input.cause,
		typedIn: isFixedInstanceHost(hostnameOf(input.url)) ? undefined : 'the host (Instance Host or Base URL Override)',
		timeoutMs: input.timeoutMs,
		timeoutName: input.timeoutName,
	});
	const reason = input.reason ?? failure.what;
	const advice = failure.ownWords && input.reason === undefined ? '' : (input.advice ?? failure.todo);
	// The number of attempts is said once, in the parentheses above.
	const noteParts = (input.note ?? '').split('. ').filter((part) => part !== '' && !part.startsWith('Gave up after'));
	const note = noteParts.length ? ` ${trimTrailingStops(noteParts.join('. '))}.` : '';
	const message = redact(`Could not reach ${hostOf(input.url)}${what}: ${reason}${tries}.${note}${advice ? ` ${advice}` : ''}`, secrets);
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
