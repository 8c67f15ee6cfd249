import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

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

const STATUS_HINTS: Record<number, string> = {
	400: 'The request was malformed: check the parameters named above.',
	401: 'Check the API key in the Document Extraction credential: it is missing, mistyped or revoked.',
	403: 'The API key is read-only or inactive: activate it, or use a key with write access for this operation (project settings of the dashboard).',
	404: 'Check the ID: the resource does not exist in the workspace of this API key, or was deleted.',
	422: 'Correct the values named above and run the node again.',
	429: 'The API is rate limiting this key: raise "Max Rate-Limit Wait" in the node options, or send fewer requests at a time.',
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
		? `field ${violation.pointer}`
		: violation.parameter
			? `parameter ${violation.parameter}`
			: 'request';
	const what = str(violation.detail) ?? 'is invalid';
	return `${where}: ${what}${violation.code ? ` (${violation.code})` : ''}`;
}

export function redact(text: string, secrets: string[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result;
}

/** Builds a NodeApiError whose message a person understands from an HTTP error answer. */
export function buildApiError(node: INode, input: ApiErrorInput): NodeApiError {
	const problem = asProblem(input.body);
	const textBody = typeof input.body === 'string' ? summarizeText(input.body) : undefined;
	const status = input.statusCode;

	const title = str(problem.title) ?? str(problem.error) ?? str(input.statusMessage);
	const detail = str(problem.detail) ?? str(problem.message) ?? textBody;
	const headline = title && detail && title !== detail ? `${title}: ${detail}` : (detail ?? title);
	const code = str(problem.code);
	const requestId =
		str(problem.requestId) ?? str(input.headers?.['x-request-id']) ?? str(input.headers?.['x-amzn-requestid']);
	const violations = Array.isArray(problem.errors) ? problem.errors.map(describeViolation) : [];
	const hint = hintFor(status, `${title ?? ''} ${detail ?? ''}`);

	const statusPart = `HTTP ${status}${code ? ` ${code}` : ''}`;
	const parts = [`${(headline ?? 'The API refused the request').replace(/[.\s]+$/, '')} (${statusPart})`];
	if (violations.length) parts.push(`Invalid: ${violations.join('; ')}`);
	if (input.note) parts.push(input.note);
	if (hint) parts.push(hint);
	if (requestId) parts.push(`Request ID: ${requestId}`);
	const message = redact(parts.map((p) => p.replace(/[.\s]+$/, '')).join('. ') + '.', input.secrets);

	const descriptionLines = [
		`${input.method} ${input.path} answered HTTP ${status}${code ? ` (${code})` : ''}.`,
		...violations.map((v) => `- ${v}`),
		...(input.note ? [input.note] : []),
		...(hint ? [hint] : []),
		...(requestId ? [`Request ID: ${requestId}`] : []),
	];
	const description = redact(descriptionLines.join('\n'), input.secrets);

	const sanitized: JsonObject = {
		status,
		...(title ? { title } : {}),
		...(detail ? { detail: redact(detail, input.secrets) } : {}),
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

/** Builds a NodeApiError for a request that never got an HTTP answer. */
export function buildNetworkError(
	node: INode,
	input: {
		method: string;
		url: string;
		code?: string;
		cause: string;
		attempts: number;
		itemIndex?: number;
		secrets?: string[];
	},
): NodeApiError {
	const tries = input.attempts > 1 ? ` after ${input.attempts} attempts` : '';
	const message = redact(
		`Could not reach ${input.url}${tries}${input.code ? ` (${input.code})` : ''}: ${input.cause}. Check the host in the credential and the network between n8n and the API.`,
		input.secrets,
	);
	const error = new NodeApiError(
		node,
		{ code: input.code ?? 'NETWORK_ERROR', url: input.url } as JsonObject,
		{ message, description: `${input.method} ${input.url}`, itemIndex: input.itemIndex },
	);
	error.message = message;
	error.description = redact(`${input.method} ${input.url}`, input.secrets);
	return error;
}
