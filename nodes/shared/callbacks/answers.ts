import type { IDataObject } from 'n8n-workflow';

import { CALLBACK_LIMITS } from '../limits';

/**
 * How both callback paths (Upload's wait, the Callback Trigger) answer the service, one set of
 * answers for the same situations (docs/dev/callback-wait.md, "Answers"):
 * - 200: handled (noted, confirmed, emitted, a duplicate, ignored);
 * - 400: the call cannot be a callback (its body, its URL); 401: the wrong secret;
 * - 404: nothing waits for it here (no waiting Upload, an upload the API does not know);
 * - 503 with Retry-After (CALLBACK_LIMITS.retryAfterSeconds): not now, call again: the API says the
 *   upload has not finished, cannot be asked, was asked moments ago, or enough checks run at once.
 * "Not now" is a 5xx on purpose: the service retries a callback up to 5 times with exponential
 * backoff (docs/dev/api-contract.md), and a 5xx is what every retrying sender retries, where a 409
 * or 429 may be taken as final (and n8n answers 409 itself for an execution that has resumed).
 */
export const RETRY_LATER = 503;

/** The part of n8n's (express) response a callback path answers with. */
export interface Answerable {
	headersSent: boolean;
	status(code: number): { json(body: unknown): unknown };
	setHeader(name: string, value: string): unknown;
}

/** Answers a call, once (a response already sent is left alone); a 503 carries Retry-After. */
export function answerCall(response: Answerable, status: number, body: IDataObject): void {
	if (response.headersSent) return;
	if (status === RETRY_LATER) response.setHeader('Retry-After', String(CALLBACK_LIMITS.retryAfterSeconds));
	response.status(status).json(body);
}
