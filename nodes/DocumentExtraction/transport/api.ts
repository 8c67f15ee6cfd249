import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_PATH_PREFIX } from '../../../credentials/hosts';
import { CREDENTIAL_TYPE, connectionFor } from './connection';
import type { ApiContext } from './context';
import { buildApiError, buildNetworkError, buildRedirectError, redact } from './errors';
import type { AttemptResult } from './retry';
import {
	isCancelled,
	isTransientNetworkError,
	isTransientStatus,
	networkErrorCode,
	retryAfterMs,
	withRetries,
} from './retry';
import { budgetFor, limitsOf, gateFor, secretsOf, waitDeadlineOf } from './scope';

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
	/** The item the call is for: named in errors, and whose options and wait budget apply. */
	itemIndex?: number;
	/**
	 * No attempt starts and no retry wait ends after this moment (epoch ms), and an attempt's
	 * timeout never reaches past it: e.g. the Wait Timeout of Wait for Completion, a poll's budget.
	 */
	deadline?: number;
	/** Says what the deadline is, for the error when it ends the call. */
	deadlineNote?: string;
}

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	/** The parsed JSON answer; {} when the answer had no body. */
	body: IDataObject;
}

interface RawResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
	statusMessage?: string;
}

function parseBody(raw: RawResponse): unknown {
	const { body } = raw;
	if (typeof body !== 'string') return body;
	const contentType = String(raw.headers['content-type'] ?? '');
	if (body.trim() === '') return {};
	if (/json/i.test(contentType) || /^\s*[[{]/.test(body)) {
		try {
			return JSON.parse(body) as unknown;
		} catch {
			return body;
		}
	}
	return body;
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
	this: ApiContext,
	request: ApiRequest,
): Promise<ApiResponse> {
	const { base, secrets, credentials } = await connectionFor(this, request.itemIndex);
	const path = `${API_PATH_PREFIX}${request.path}`;
	const url = `${base.url}${path}`;
	const { requestTimeoutMs } = limitsOf(this, request.itemIndex);

	const headers: IDataObject = { Accept: 'application/json, application/problem+json' };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
	const repeatable = isRetrySafe(request);

	const attempt = async (attemptNumber: number, timeoutMs: number): Promise<AttemptResult<ApiResponse>> => {
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			headers: { ...headers },
			qs: request.qs,
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: timeoutMs,
		};

		let raw: RawResponse;
		try {
			raw = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credentials },
			)) as RawResponse;
		} catch (error) {
			const code = networkErrorCode(error);
			// A fresh error: the one n8n's helper threw holds the request (and its key) as its cause.
			const giveUp = (note?: string) =>
				buildNetworkError(this.getNode(), {
					method: request.method,
					url,
					code,
					cause: `${redact((error as Error).message ?? 'unknown error', secretsOf(this).concat(secrets))}${note ? `\n${note}` : ''}`,
					attempts: attemptNumber,
					itemIndex: request.itemIndex,
					secrets,
					timeoutMs,
				});
			if (isCancelled(this)) return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp } };
			return {
				ok: false,
				failure: { kind: 'failed', repeatable: repeatable && isTransientNetworkError(error), giveUp },
			};
		}

		const headersOut = (raw.headers ?? {}) as IDataObject;
		const body = parseBody({ ...raw, headers: headersOut });
		const status = raw.statusCode;
		if (status >= 200 && status < 300) {
			return {
				ok: true,
				value: {
					statusCode: status,
					headers: headersOut,
					body: (body && typeof body === 'object' ? body : {}) as IDataObject,
				},
			};
		}
		if (status >= 300 && status < 400) {
			const redirect = buildRedirectError(this.getNode(), {
				statusCode: status,
				location: headersOut.location,
				what: `The API (${request.method} ${path})`,
				itemIndex: request.itemIndex,
				secrets,
				advice: REDIRECT_ADVICE,
			});
			return { ok: false, failure: { kind: 'failed', repeatable: false, giveUp: () => redirect } };
		}
		const giveUp = (note?: string) =>
			buildApiError(this.getNode(), {
				statusCode: status,
				statusMessage: raw.statusMessage,
				body,
				headers: headersOut,
				method: request.method,
				path,
				itemIndex: request.itemIndex,
				secrets,
				note,
			});
		if (status === 429) {
			return {
				ok: false,
				failure: {
					kind: 'rate-limited',
					retryAfterMs: retryAfterMs(body as IDataObject, headersOut),
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
			context: this,
			budget: budgetFor(this, request.itemIndex),
			gate: gateFor(this),
			gateRefusal: (waitMs) =>
				buildApiError(this.getNode(), {
					statusCode: 429,
					body: {
						detail: `Another request of this run was answered HTTP 429, and the pause it asked for (${Math.ceil(waitMs / 1000)} s more) is longer than this item may still wait`,
					},
					method: request.method,
					path,
					itemIndex: request.itemIndex,
					secrets,
				}),
			requestTimeoutMs,
			deadline: request.deadline,
			deadlineNote: request.deadlineNote,
			waitDeadline: waitDeadlineOf(this),
		},
		attempt,
	);
}

/** apiRequestWithResponse, returning only the parsed body. */
export async function apiRequest(this: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const response = await apiRequestWithResponse.call(this, request);
	return response.body;
}

export interface PageOf {
	items: IDataObject[];
	/** Total number of items across pages, when the API says. */
	total?: number;
}

export interface PaginationOptions {
	/** Reads the items (and total) of one page from a response body. */
	extract: (body: IDataObject) => PageOf;
	/** Stop after this many items; undefined returns all. */
	limit?: number;
	/** Items per request; the API's default and maximum page size is 100. */
	pageSize?: number;
	/** Safety stop for an API that keeps answering full pages. */
	maxPages?: number;
}

/** Reads `body[key]` as the page items and `body.count` as the total (the API's list shape). */
export function listAt(key: string): (body: IDataObject) => PageOf {
	return (body) => ({
		items: Array.isArray(body[key]) ? (body[key] as IDataObject[]) : [],
		total: typeof body.count === 'number' ? body.count : undefined,
	});
}

/**
 * Page/limit pagination for Return All and Limit: requests page 1, 2, … with `limit` = page size
 * until a page comes back short or empty, the total is reached, or `limit` items are collected.
 */
export async function apiRequestAllItems(
	this: ApiContext,
	request: ApiRequest,
	options: PaginationOptions,
): Promise<IDataObject[]> {
	const pageSize = Math.max(1, Math.min(options.pageSize ?? 100, 100));
	const maxPages = options.maxPages ?? 100000;
	const results: IDataObject[] = [];
	for (let page = 1; page <= maxPages; page++) {
		const wanted = options.limit === undefined ? pageSize : options.limit - results.length;
		if (wanted <= 0) break;
		const body = await apiRequest.call(this, {
			...request,
			qs: { ...(request.qs ?? {}), page, limit: pageSize },
		});
		const { items, total } = options.extract(body);
		results.push(...items.slice(0, wanted));
		if (items.length < pageSize) break;
		if (total !== undefined && page * pageSize >= total) break;
	}
	return results;
}

/** Raised by code that found the API's answer unusable (a shape the specification rules out). */
export function unexpectedResponse(
	context: ApiContext,
	what: string,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	const secrets = secretsOf(context);
	const shown = redact(JSON.stringify(body) ?? '', secrets).slice(0, 500);
	return new NodeApiError(context.getNode(), { unexpected: shown } as JsonObject, {
		message: `The API answered ${what} in an unexpected shape`,
		description: shown,
		itemIndex,
	});
}
