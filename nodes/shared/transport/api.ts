import type { IDataObject, IHttpRequestMethods, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_PATH_PREFIX } from '../../../credentials/hosts';
import { TEXT_LIMITS } from '../limits';
import { jsonText } from '../text';
import type { Deadline } from '../run/waitBudget';
import { cancelledError, isCancelled } from '../run/cancel';
import { connectionFor } from './connection';
import type { ApiContext } from '../run/context';
import type { RequestPolicy } from '../run/policy';
import { buildApiError, buildNetworkError, buildRedirectError, tooLargeError } from './errors';
import { send } from './http';
import type { AttemptLimits, AttemptResult } from './retry';
import { isTransientNetworkError, isTransientStatus, networkErrorCode, retryAfterMs } from './failures';
import { withRetries } from './retry';
import { redact } from './secrets';
import { secretsOf } from '../run/scope';
import { TransferWatch } from './watch';

/**
 * A smaller cap than Max Answer Size for one answer, with its own error: the room a list read page
 * by page has left under Max List Size (the paging guard's bytesLeft).
 */
export interface AnswerCap {
	maxBytes: number;
	/** The error when the answer brings more (reading stopped at maxBytes, nothing of it kept). */
	tooLarge: () => Error;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /prod/v1, starting with a slash, e.g. `/files/upload`. */
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/**
	 * Sent as the Idempotency-Key header. A write with a key is repeated after a 5xx, network
	 * error or timeout (the API replays the first answer); a write without one never is. Build it
	 * with idempotencyKey() so every retry of the call sends the same key.
	 */
	idempotencyKey?: string;
	/**
	 * The call only reads, although its method is POST (the API answers it fresh every time and
	 * ignores Idempotency-Key, e.g. query execution and preview links): repeated after a 5xx or
	 * network error like a GET.
	 */
	safeToRepeat?: boolean;
	/** The bounds of the item (the poll, the editor lookup) the call is for; its item is named in errors. */
	policy: RequestPolicy;
	/**
	 * No attempt starts and no retry wait ends after this moment, and an attempt's time never
	 * reaches past it: e.g. the Wait Timeout of Wait for Completion.
	 */
	deadline?: Deadline;
	/** Read the answer only up to this cap, when it is below Max Answer Size. */
	answerCap?: AnswerCap;
}

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	/** The parsed JSON answer; {} when the answer had no body. */
	body: IDataObject;
	/** The bytes of the answer read (what a list read page by page counts against Max List Size). */
	bytes: number;
}

/** The answer's JSON; the text itself when it is not JSON; {} when it is empty. */
function parseBody(bytes: Buffer, headers: IDataObject): unknown {
	if (bytes.length === 0) return {};
	const text = bytes.toString('utf8');
	const contentType = String(headers['content-type'] ?? '').toLowerCase();
	const start = text.trimStart()[0];
	if (contentType.includes('json') || start === '{' || start === '[') {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return text;
		}
	}
	return text.trim() === '' ? {} : text;
}

/**
 * Safe to repeat after a 5xx, a lost connection or a timeout: reads (by method or marked
 * safeToRepeat), and writes that carry a key.
 */
function isRetrySafe(request: ApiRequest): boolean {
	return (
		['GET', 'HEAD', 'OPTIONS'].includes(request.method) ||
		Boolean(request.safeToRepeat) ||
		Boolean(request.idempotencyKey)
	);
}

const REDIRECT_ADVICE =
	'API requests carry the API key and go only to the host of the credential: set the Base URL Override to the address that answers without redirecting.';

/**
 * The one gateway to the Document Extraction API. Sends JSON with the credential's key (only to
 * the credential's API host, never following a redirect), parses JSON and problem+json, lets the
 * retry policy (retry.ts) decide every retry and wait, bounds each attempt by the Request
 * Timeout, and turns every failure into a NodeApiError a person can act on (never containing
 * the API key). The host and the key come from one read of the credential (connection.ts),
 * which n8n's helper is given instead of reading it again.
 */
export async function apiRequestWithResponse(
	context: ApiContext,
	request: ApiRequest,
): Promise<ApiResponse> {
	const { policy } = request;
	const { itemIndex } = policy;
	const { base, secrets, credentials, gate } = await connectionFor(context, itemIndex);
	const path = `${API_PATH_PREFIX}${request.path}`;
	const url = `${base.url}${path}`;

	const headers: IDataObject = { Accept: 'application/json, application/problem+json' };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
	const repeatable = isRetrySafe(request);
	const cap = request.answerCap !== undefined && request.answerCap.maxBytes < policy.maxAnswerBytes ? request.answerCap : undefined;
	const maxAnswerBytes = cap ? Math.max(0, Math.floor(cap.maxBytes)) : policy.maxAnswerBytes;

	const attempt = async ({ attemptNumber, timeoutMs }: AttemptLimits): Promise<AttemptResult<ApiResponse>> => {
		const watch = new TransferWatch({ deadlineMs: timeoutMs, cancelSignal: policy.cancelSignal });
		let result;
		try {
			result = await send(context, {
				method: request.method,
				url,
				qs: request.qs,
				headers,
				body: request.body,
				credentials,
				watch,
				answer: { mode: 'buffer', maxBytes: maxAnswerBytes },
			});
		} finally {
			watch.stop();
		}
		if (!result.ok && (result.failure === 'network' || result.failure === 'aborted')) {
			if (isCancelled(context) || (result.failure === 'aborted' && result.reason === 'cancelled')) {
				return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp: () => cancelledError(context) } };
			}
			const timedOut = result.failure === 'aborted';
			const error = result.failure === 'network' ? result.error : undefined;
			// A fresh error: the one n8n's helper threw holds the request (and its key) as its cause.
			const giveUp = (note?: string) =>
				buildNetworkError(context.getNode(), {
					method: request.method,
					url,
					code: timedOut ? 'TIMEOUT' : networkErrorCode(error),
					cause: `${timedOut ? `no complete answer within ${Math.round(timeoutMs / 1000)} s` : redact((error as Error)?.message ?? 'unknown error', secretsOf(context).concat(secrets))}${note ? `\n${note}` : ''}`,
					attempts: attemptNumber,
					itemIndex,
					secrets,
					timeoutMs,
					timeoutName: policy.names.requestTimeout,
					note,
				});
			return {
				ok: false,
				failure: { kind: 'failed', repeatable: repeatable && (timedOut || isTransientNetworkError(error)), giveUp },
			};
		}
		if (!result.ok) {
			const tooLarge = result;
			const giveUp = () =>
				cap ? cap.tooLarge() : tooLargeError(context.getNode(), {
					what: `The API's answer to ${request.method} ${path}`,
					limitBytes: tooLarge.limitBytes,
					itemIndex,
				});
			return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp } };
		}

		const { answer } = result;
		const status = answer.statusCode;
		const body = parseBody(answer.bytes, answer.headers);
		if (status >= 200 && status < 300) {
			return {
				ok: true,
				value: {
					statusCode: status,
					headers: answer.headers,
					body: (body && typeof body === 'object' ? body : {}) as IDataObject,
					bytes: answer.bytes.length,
				},
			};
		}
		if (status >= 300 && status < 400) {
			const redirect = buildRedirectError(context.getNode(), {
				statusCode: status,
				location: answer.headers.location,
				what: `The API (${request.method} ${path})`,
				itemIndex,
				secrets,
				advice: REDIRECT_ADVICE,
			});
			return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp: () => redirect } };
		}
		const giveUp = (note?: string) =>
			buildApiError(context.getNode(), {
				statusCode: status,
				statusMessage: answer.statusMessage,
				body,
				headers: answer.headers,
				method: request.method,
				path,
				itemIndex,
				secrets,
				note,
			});
		if (status === 429) {
			return {
				ok: false,
				failure: {
					kind: 'rate-limited',
					retryAfterMs: retryAfterMs(body as IDataObject, answer.headers),
					giveUp,
				},
			};
		}
		return {
			ok: false,
			failure: { kind: 'failed', repeatable: repeatable && isTransientStatus(status), giveUp },
		};
	};

	return await withRetries(
		{
			context,
			policy,
			gate,
			gateRefusal: (waitMs) =>
				buildApiError(context.getNode(), {
					statusCode: 429,
					body: {
						detail: `Another request with this API key was answered HTTP 429, and the pause it asked for (${Math.ceil(waitMs / 1000)} s more) is longer than ${policy.budget.holder} may still wait`,
					},
					method: request.method,
					path,
					itemIndex,
					secrets,
				}),
			deadline: request.deadline,
		},
		attempt,
	);
}

/** apiRequestWithResponse, returning only the parsed body. */
export async function apiRequest(context: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const response = await apiRequestWithResponse(context, request);
	return response.body;
}

/** Raised by code that found the API's answer unusable: a field the node relies on (docs/dev/api-contract.md#conventions) is missing. */
export function unexpectedResponse(
	context: ApiContext,
	what: string,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	const secrets = secretsOf(context);
	// Enough text that a secret starting within the part shown is whole when it is redacted.
	const longestSecret = secrets.reduce((longest, secret) => Math.max(longest, secret.length), 0);
	const text = jsonText(body, TEXT_LIMITS.unexpectedAnswerChars + longestSecret);
	const shown = redact(text, secrets).slice(0, TEXT_LIMITS.unexpectedAnswerChars);
	return new NodeApiError(context.getNode(), { unexpected: shown } as JsonObject, {
		message: `The API answered ${what} in an unexpected shape`,
		description: shown,
		itemIndex,
	});
}
