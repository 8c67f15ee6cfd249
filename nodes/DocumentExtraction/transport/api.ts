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
import { pause } from './context';
import { buildApiError, buildNetworkError } from './errors';
import type { RetryPolicy } from './retry';
import {
	backoffDelayMs,
	isTransientNetworkError,
	isTransientStatus,
	networkErrorCode,
	retryAfterSeconds,
	retryPolicyFor,
} from './retry';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /prod/v1, starting with a slash, e.g. `/files/upload`. */
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/**
	 * Sent as the Idempotency-Key header. A write with a key is repeated after a 5xx or network
	 * error (the API replays the first answer); a write without one never is. Build it with
	 * idempotencyKey() so every retry of the call sends the same key.
	 */
	idempotencyKey?: string;
	/**
	 * The call only reads, although its method is POST (the API answers it fresh every time and
	 * ignores Idempotency-Key, e.g. query execution and preview links): repeated after a 5xx or
	 * network error like a GET.
	 */
	safeToRepeat?: boolean;
	/** The item the call is for: named in errors and used to read the item's options. */
	itemIndex?: number;
	/** Overrides of the retry policy (otherwise defaults plus the node's Max Rate-Limit Wait). */
	retry?: Partial<RetryPolicy>;
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
 * Safe to repeat after a 5xx or a lost connection: reads (by method or marked safeToRepeat), and
 * writes that carry a key.
 */
function isRetrySafe(request: ApiRequest): boolean {
	return (
		['GET', 'HEAD', 'OPTIONS'].includes(request.method) ||
		Boolean(request.safeToRepeat) ||
		Boolean(request.idempotencyKey)
	);
}

/**
 * The one gateway to the Document Extraction API. Sends JSON with the credential's key, parses
 * JSON and problem+json, waits out 429s within the node's Max Rate-Limit Wait, repeats retry-safe
 * requests after 5xx and network errors with exponential backoff and jitter, and turns every
 * failure into a NodeApiError a person can act on (never containing the API key).
 * The host and the key come from one read of the credential (see connection.ts), which n8n's
 * helper is given instead of reading it again.
 */
export async function apiRequestWithResponse(
	this: ApiContext,
	request: ApiRequest,
): Promise<ApiResponse> {
	const { baseUrl, secrets, credentials } = await connectionFor(this, request.itemIndex);
	const policy = retryPolicyFor(this, request.itemIndex, request.retry);
	const path = `${API_PATH_PREFIX}${request.path}`;
	const url = `${baseUrl}${path}`;

	const headers: IDataObject = { Accept: 'application/json, application/problem+json' };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;

	let rateLimitWaitedSeconds = 0;
	let transientRetries = 0;
	let attempts = 0;
	/** After a 5xx or a network error: waits and says to try again, or says to give up. */
	const backOffForRetry = async (): Promise<boolean> => {
		if (!isRetrySafe(request) || transientRetries >= policy.maxTransientRetries) return false;
		await pause(this, backoffDelayMs(transientRetries, policy));
		transientRetries++;
		return true;
	};

	for (;;) {
		attempts++;
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			headers: { ...headers },
			qs: request.qs,
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
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
			if (isTransientNetworkError(error) && (await backOffForRetry())) continue;
			// A fresh error: the one n8n's helper threw holds the request (and its key) as its cause.
			throw buildNetworkError(this.getNode(), {
				method: request.method,
				url,
				code: networkErrorCode(error),
				cause: (error as Error).message ?? 'unknown error',
				attempts,
				itemIndex: request.itemIndex,
				secrets,
			});
		}

		const headersOut = (raw.headers ?? {}) as IDataObject;
		const body = parseBody({ ...raw, headers: headersOut });
		const status = raw.statusCode;
		const apiError = (note?: string) =>
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

		if (status >= 200 && status < 300) {
			return {
				statusCode: status,
				headers: headersOut,
				body: (body && typeof body === 'object' ? body : {}) as IDataObject,
			};
		}

		if (status === 429) {
			const waitSeconds =
				retryAfterSeconds(body as IDataObject, headersOut) ??
				backoffDelayMs(transientRetries, policy) / 1000;
			if (rateLimitWaitedSeconds + waitSeconds <= policy.maxRateLimitWaitSeconds) {
				await pause(this, waitSeconds * 1000);
				rateLimitWaitedSeconds += waitSeconds;
				continue;
			}
			throw apiError(
				`Waiting another ${Math.ceil(waitSeconds)} s would exceed the Max Rate-Limit Wait of ${policy.maxRateLimitWaitSeconds} s (already waited ${Math.round(rateLimitWaitedSeconds)} s)`,
			);
		}

		if (isTransientStatus(status) && (await backOffForRetry())) continue;

		throw apiError(attempts > 1 ? `Failed after ${attempts} attempts` : undefined);
	}
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
	return new NodeApiError(context.getNode(), (body ?? {}) as JsonObject, {
		message: `The API answered ${what} in an unexpected shape`,
		description: JSON.stringify(body)?.slice(0, 500),
		itemIndex,
	});
}
