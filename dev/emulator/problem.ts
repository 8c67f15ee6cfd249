/** application/problem+json errors, with the legacy keys message/error/statusCode. */

export const ERRORS_BASE = 'https://api.orion.file.ai/errors';

export interface FieldViolation {
	code: string;
	detail: string;
	pointer?: string;
	parameter?: string;
}

interface ProblemKind {
	slug: string;
	title: string;
	code: string;
}

const KINDS: Record<number, ProblemKind> = {
	400: { slug: 'bad-request', title: 'Bad Request', code: 'BAD_REQUEST' },
	401: { slug: 'unauthorized', title: 'Unauthorized', code: 'UNAUTHORIZED' },
	403: { slug: 'forbidden', title: 'Forbidden', code: 'FORBIDDEN' },
	404: { slug: 'not-found', title: 'Not Found', code: 'NOT_FOUND' },
	405: { slug: 'method-not-allowed', title: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' },
	409: { slug: 'conflict', title: 'Conflict', code: 'CONFLICT' },
	413: { slug: 'payload-too-large', title: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' },
	415: { slug: 'unsupported-media-type', title: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' },
	422: { slug: 'validation-failed', title: 'Validation Failed', code: 'VALIDATION_FAILED' },
	429: { slug: 'rate-limit-exceeded', title: 'Too Many Requests', code: 'RATE_LIMIT_EXCEEDED' },
	500: { slug: 'internal-error', title: 'Internal Server Error', code: 'INTERNAL_ERROR' },
	501: { slug: 'not-implemented', title: 'Not Implemented', code: 'NOT_IMPLEMENTED' },
	502: { slug: 'bad-gateway', title: 'Bad Gateway', code: 'BAD_GATEWAY' },
	503: { slug: 'service-unavailable', title: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' },
	504: { slug: 'gateway-timeout', title: 'Gateway Timeout', code: 'GATEWAY_TIMEOUT' },
};

export function problemKind(status: number): ProblemKind {
	return KINDS[status] ?? { slug: `http-${status}`, title: `HTTP ${status}`, code: `HTTP_${status}` };
}

/** Thrown by handlers; turned into a problem+json response by the dispatcher. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly detail: string,
		readonly errors?: FieldViolation[],
		readonly extra: { retryAfter?: number; code?: string } = {},
	) {
		super(detail);
	}
}

export function validationError(violations: FieldViolation[]): ApiError {
	const detail = violations.map((violation) => violation.detail).join('; ');
	return new ApiError(422, detail, violations);
}

export function notFound(detail: string): ApiError {
	return new ApiError(404, detail);
}

export function badRequest(detail: string): ApiError {
	return new ApiError(400, detail);
}

export function problemBody(
	error: ApiError,
	instance: string,
	requestId: string,
): Record<string, unknown> {
	const kind = problemKind(error.status);
	const body: Record<string, unknown> = {
		type: `${ERRORS_BASE}/${kind.slug}`,
		title: kind.title,
		status: error.status,
		detail: error.detail,
		instance,
		code: error.extra.code ?? kind.code,
		requestId,
	};
	if (error.errors && error.errors.length > 0) body.errors = error.errors;
	if (error.extra.retryAfter !== undefined) body.retryAfter = error.extra.retryAfter;
	body.message = error.detail;
	body.error = kind.title;
	body.statusCode = error.status;
	return body;
}
