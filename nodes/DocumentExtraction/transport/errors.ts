import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** The API's problem+json body (see api-spec "Errors"), including the deprecated legacy keys. */
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

const REDACTED = '[redacted]';

/** The forms in which a secret can appear in a text: as is, URL-encoded, JSON-escaped. */
function secretForms(secret: string): string[] {
	const forms = new Set([secret]);
	try {
		forms.add(encodeURIComponent(secret));
	} catch {
		// a lone surrogate cannot be URL-encoded, so it cannot appear encoded either
	}
	forms.add(JSON.stringify(secret).slice(1, -1));
	return [...forms].filter((form) => form !== '').sort((left, right) => right.length - left.length);
}

/** Replaces every occurrence of every secret (whatever its length) in `text`. */
export function redact(text: string, secrets: Iterable<string> = []): string {
	let result = text;
	for (const secret of secrets) {
		if (!secret) continue;
		for (const form of secretForms(secret)) {
			if (result.includes(form)) result = result.split(form).join(REDACTED);
		}
	}
	return result;
}

/** redact() through every string (and object key) of a JSON-like value. */
function redactDeep<T>(value: T, secrets: string[], depth = 0): T {
	if (secrets.length === 0 || depth > 20) return value;
	if (typeof value === 'string') return redact(value, secrets) as T;
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secrets, depth + 1)) as T;
	if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
		const out: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
			out[redact(key, secrets)] = redactDeep(entry, secrets, depth + 1);
		}
		return out as T;
	}
	return value;
}

/** Whether any string in a JSON-like value holds any of the secrets (a cheap check first). */
function containsSecret(value: unknown, secrets: string[]): boolean {
	if (secrets.length === 0) return false;
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
	return secrets.some((secret) => secretForms(secret).some((form) => text.includes(form)));
}

/** Output items with every secret removed from their JSON (binary data is not looked at). */
export function withoutSecrets(items: INodeExecutionData[], secrets: string[]): INodeExecutionData[] {
	if (secrets.length === 0) return items;
	return items.map((item) => (containsSecret(item.json, secrets) ? { ...item, json: redactDeep(item.json, secrets) } : item));
}

/**
 * Removes the secrets from every part of an error that n8n shows, logs or stores with the
 * execution: message, description, the messages list, context, the error response, the cause
 * and the stack.
 */
export function scrubError<E extends Error>(error: E, secrets: string[]): E {
	if (secrets.length === 0) return error;
	const target = error as E & {
		description?: string | null;
		messages?: string[];
		context?: IDataObject;
		errorResponse?: unknown;
	};
	target.message = redact(target.message ?? '', secrets);
	if (typeof target.description === 'string') target.description = redact(target.description, secrets);
	if (Array.isArray(target.messages)) target.messages = target.messages.map((m) => redact(String(m), secrets));
	if (target.context && typeof target.context === 'object') {
		for (const [key, value] of Object.entries(target.context)) {
			target.context[key] = redactDeep(value, secrets) as IDataObject[string];
		}
	}
	if (target.errorResponse !== undefined) {
		target.errorResponse = containsSecret(target.errorResponse, secrets)
			? redactDeep(target.errorResponse, secrets)
			: target.errorResponse;
	}
	const cause = (target as { cause?: unknown }).cause;
	if (cause instanceof Error) {
		if (containsSecret(`${cause.message}\n${cause.stack ?? ''}`, secrets)) {
			Object.defineProperty(target, 'cause', {
				value: { name: cause.name, message: redact(cause.message, secrets) },
				configurable: true,
				writable: true,
			});
		}
	} else if (cause !== undefined && containsSecret(cause, secrets)) {
		Object.defineProperty(target, 'cause', { value: redactDeep(cause, secrets), configurable: true, writable: true });
	}
	if (typeof target.stack === 'string') target.stack = redact(target.stack, secrets);
	return error;
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
function clip(text: string | undefined, max = 500): string | undefined {
	if (text === undefined) return undefined;
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

function asProblem(body: unknown): Problem {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as Problem;
	return {};
}

/** A short human text of a non-JSON error body (an HTML page from a proxy, a storage XML error). */
export function summarizeText(text: string): string | undefined {
	const xmlMessage = /<Message>([^<]{1,300})<\/Message>/i.exec(text)?.[1];
	const xmlCode = /<Code>([^<]{1,100})<\/Code>/i.exec(text)?.[1];
	if (xmlCode || xmlMessage) return [xmlCode, xmlMessage].filter(Boolean).join(': ');
	const plain = text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	if (!plain) return undefined;
	return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

export function describeViolation(violation: Violation): string {
	const where = violation.pointer
		? `field ${clip(str(violation.pointer), 200)}`
		: violation.parameter
			? `parameter ${clip(str(violation.parameter), 200)}`
			: 'request';
	const what = clip(str(violation.detail), 300) ?? 'is invalid';
	const code = clip(str(violation.code), 60);
	return `${where}: ${what}${code ? ` (${code})` : ''}`;
}

/** Builds a NodeApiError whose message a person understands from an HTTP error answer. */
export function buildApiError(node: INode, input: ApiErrorInput): NodeApiError {
	const secrets = input.secrets ?? [];
	const clean = (value: string | undefined) => (value === undefined ? undefined : redact(value, secrets));
	const problem = asProblem(input.body);
	const textBody = typeof input.body === 'string' ? summarizeText(input.body) : undefined;
	const status = input.statusCode;

	const title = clean(clip(str(problem.title) ?? str(problem.error) ?? str(input.statusMessage), 200));
	const detail = clean(clip(str(problem.detail) ?? str(problem.message) ?? textBody));
	const headline = title && detail && title !== detail ? `${title}: ${detail}` : (detail ?? title);
	const code = clean(clip(str(problem.code), 60));
	const requestId = clean(
		clip(str(problem.requestId) ?? str(input.headers?.['x-request-id']) ?? str(input.headers?.['x-amzn-requestid']), 100),
	);
	const violations = (Array.isArray(problem.errors) ? problem.errors.slice(0, 20) : []).map((violation) =>
		redact(describeViolation(violation && typeof violation === 'object' ? violation : {}), secrets),
	);
	const hint = hintFor(status, `${title ?? ''} ${detail ?? ''}`);

	const statusPart = `HTTP ${status}${code ? ` ${code}` : ''}`;
	const parts = [`${(headline ?? 'The API refused the request').replace(/[.\s]+$/, '')} (${statusPart})`];
	if (violations.length) parts.push(`Invalid: ${violations.join('; ')}`);
	if (input.note) parts.push(input.note);
	if (hint) parts.push(hint);
	if (requestId) parts.push(`Request ID: ${requestId}`);
	const message = redact(parts.map((p) => p.replace(/[.\s]+$/, '')).join('. ') + '.', secrets);

	const descriptionLines = [
		`${input.method} ${input.path} answered HTTP ${status}${code ? ` (${code})` : ''}.`,
		...violations.map((v) => `- ${v}`),
		...(input.note ? [input.note] : []),
		...(hint ? [hint] : []),
		...(requestId ? [`Request ID: ${requestId}`] : []),
	];
	const description = redact(descriptionLines.join('\n'), secrets);

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
	/** What was being sent or read, e.g. `part 3 of 12 of "scan.pdf"`. */
	label?: string;
	/** Advice in place of the default (which is about the API host). */
	advice?: string;
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
	const message = redact(
		`Could not reach ${hostOf(input.url)}${what}: ${explainNetworkCode(input.code, input.timeoutMs)}${tries}. ${advice}`,
		secrets,
	);
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

/** The URL without its query string: the signature of a presigned URL is a bearer secret. */
export function redactQuery(url: string): string {
	const queryStart = url.indexOf('?');
	return queryStart === -1 ? url : `${url.slice(0, queryStart)}?…`;
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
