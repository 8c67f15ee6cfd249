import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ANSWER_LIMITS } from './limits';
import { redact } from './secrets';

/** The API's problem+json body (see api-spec "Errors"), including the deprecated legacy keys. */
interface Problem {
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

interface ApiErrorInput {
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
function clip(text: string | undefined, max = 500): string | undefined {
	if (text === undefined) return undefined;
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

function asProblem(body: unknown): Problem {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as Problem;
	return {};
}

/** Removes trailing full stops and white space, in one pass from the end (no regular expression). */
export function trimTrailingStops(text: string): string {
	let end = text.length;
	while (end > 0) {
		const char = text.charCodeAt(end - 1);
		// '.', space, tab, line feed, carriage return, form feed, vertical tab
		if (char === 0x2e || char === 0x20 || (char >= 0x09 && char <= 0x0d)) end -= 1;
		else break;
	}
	return text.slice(0, end);
}

/** Markup removed and white space folded, in one linear pass over the text. */
function withoutMarkup(text: string): string {
	let out = '';
	let inTag = false;
	let pendingSpace = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inTag) {
			if (char === '>') {
				inTag = false;
				pendingSpace = true;
			}
			continue;
		}
		if (char === '<') {
			inTag = true;
			pendingSpace = true;
			continue;
		}
		const code = char.charCodeAt(0);
		if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0) {
			pendingSpace = true;
			continue;
		}
		if (pendingSpace && out !== '') out += ' ';
		pendingSpace = false;
		out += char;
	}
	return out;
}

/** The text between <name> and </name>, the first time it occurs (found with indexOf, not a pattern). */
function xmlElement(text: string, name: string, maxLength: number): string | undefined {
	const lower = text.toLowerCase();
	const open = lower.indexOf(`<${name.toLowerCase()}>`);
	if (open === -1) return undefined;
	const start = open + name.length + 2;
	const close = lower.indexOf(`</${name.toLowerCase()}>`, start);
	if (close === -1 || close === start || close - start > maxLength) return undefined;
	const value = text.slice(start, close);
	return value.includes('<') ? undefined : value;
}

/**
 * A short human text of a non-JSON error body (an HTML page from a proxy, a storage XML error).
 * Only the first ANSWER_LIMITS.summarisedTextBytes characters are looked at, each once.
 */
export function summarizeText(text: string): string | undefined {
	const head = text.length > ANSWER_LIMITS.summarisedTextBytes ? text.slice(0, ANSWER_LIMITS.summarisedTextBytes) : text;
	const xmlMessage = xmlElement(head, 'Message', 300);
	const xmlCode = xmlElement(head, 'Code', 100);
	if (xmlCode || xmlMessage) return [xmlCode, xmlMessage].filter(Boolean).join(': ');
	const plain = withoutMarkup(head);
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
	const parts = [`${trimTrailingStops(headline ?? 'The API refused the request')} (${statusPart})`];
	if (violations.length) parts.push(`Invalid: ${violations.join('; ')}`);
	if (input.note) parts.push(input.note);
	if (hint) parts.push(hint);
	if (requestId) parts.push(`Request ID: ${requestId}`);
	const message = redact(parts.map((p) => trimTrailingStops(p)).join('. ') + '.', secrets);

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
