/** Idempotency-Key on the API's write routes: a replay answers the first answer, a reuse with another request is refused. */
import { createHash } from 'node:crypto';
import { canonicalJson, type JsonResponse } from './http-util';
import { ApiError, validationError } from './problem';
import type { RequestContext } from './router';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Runs `handler` once per Idempotency-Key (per workspace, for 24 hours); without the header, runs it. */
export async function withIdempotency(ctx: RequestContext, handler: (ctx: RequestContext) => JsonResponse | Promise<JsonResponse>): Promise<JsonResponse> {
	const header = ctx.req.headers['idempotency-key'];
	const key = Array.isArray(header) ? header[0] : header;
	if (key === undefined) return handler(ctx);
	if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
		throw validationError([
			{ code: key.length === 0 ? 'INVALID_VALUE' : 'TOO_LONG', detail: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters; got ${key.length}.`, parameter: 'Idempotency-Key' },
		]);
	}
	const { state, clock } = ctx.core;
	const storeKey = `${ctx.workspace.id}\n${key}`;
	const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${canonicalJson(ctx.body ?? null)}`).digest('hex');
	const now = clock.now();
	const existing = state.idempotency.get(storeKey);
	if (existing && existing.createdAtMs + IDEMPOTENCY_TTL_MS > now) {
		if (existing.fingerprint !== fingerprint) {
			throw validationError([
				{ code: 'IDEMPOTENCY_KEY_REUSED', detail: 'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.', parameter: 'Idempotency-Key' },
			]);
		}
		if (existing.inFlight) {
			throw new ApiError(409, 'A request with this Idempotency-Key is still being processed; retry shortly.', undefined, { code: 'CONFLICT' });
		}
		return {
			status: existing.status ?? 200,
			body: existing.body,
			headers: { ...existing.headers, 'idempotent-replayed': 'true' },
		};
	}
	const record = { fingerprint, createdAtMs: now, inFlight: true };
	state.idempotency.set(storeKey, record);
	try {
		const response = await handler(ctx);
		if (response.status >= 200 && response.status < 300) {
			state.idempotency.set(storeKey, { ...record, inFlight: false, status: response.status, body: response.body, headers: response.headers ?? {} });
		} else {
			state.idempotency.delete(storeKey);
		}
		return response;
	} catch (error) {
		state.idempotency.delete(storeKey);
		throw error;
	}
}
