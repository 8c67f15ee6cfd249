/** The API host's dispatcher: API key, rate limit, the route table, path parameters, the JSON body, then the route (through Idempotency-Key where the route honours it). */
import type { IncomingMessage } from 'node:http';
import { MAX_JSON_BODY_BYTES, readBody, type JsonResponse, type RequestUrl } from './http-util';
import { isObjectId, isUuid } from './ids';
import { withIdempotency } from './idempotency';
import { ApiError, validationError } from './problem';
import { compile, type CompiledRoute, type RequestContext, type Route, type RouteServices } from './router';
import type { ApiKeyRecord } from './types';

export const API_PREFIX = '/prod/v1';

export interface RateLimitOptions {
	/** Requests allowed per key per window. */
	limit: number;
	/** Window length in ms (default 1000); windows follow the emulator clock. */
	windowMs?: number;
}

export class ApiDispatcher {
	rateLimit: RateLimitOptions | undefined;
	/** Per-key fixed windows: key -> window start and count. */
	private windows = new Map<string, { startMs: number; count: number }>();
	private routes: CompiledRoute[] = [];

	constructor(
		private readonly services: RouteServices,
		rateLimit: RateLimitOptions | undefined,
	) {
		this.rateLimit = rateLimit;
	}

	addRoutes(routes: Route[]): void {
		this.routes.push(...routes.map(compile));
	}

	resetRateLimitWindows(): void {
		this.windows.clear();
	}

	async dispatch(req: IncomingMessage, url: RequestUrl, requestId: string, onBytes: (bytes: number) => void): Promise<JsonResponse> {
		const method = req.method ?? 'GET';
		if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
			throw new ApiError(404, `No such endpoint: ${method} ${url.pathname}. Every path starts with ${API_PREFIX}.`);
		}
		const { state } = this.services;
		const apiKey = this.authenticate(req);
		this.checkRateLimit(apiKey.key);
		state.purgeExpired();
		const routePath = url.pathname.slice(API_PREFIX.length);
		const { route, params, pathKnown } = this.match(method, routePath);
		if (!route) {
			if (pathKnown) throw new ApiError(405, `Method ${method} is not allowed on ${url.pathname}.`, undefined, { code: 'METHOD_NOT_ALLOWED' });
			throw new ApiError(404, `No such endpoint: ${method} ${url.pathname}.`);
		}
		if (route.write && apiKey.mode === 'read-only') {
			throw new ApiError(403, 'Access denied: this API key is in read-only mode and cannot make changes.', undefined, { code: 'FORBIDDEN' });
		}
		validateParams(route, params);
		const body = route.body ? await readJsonBody(req, onBytes) : undefined;
		const ctx: RequestContext = {
			core: this.services,
			req,
			method,
			path: url.pathname,
			params,
			query: url.query,
			body,
			apiKey,
			workspace: state.workspace(apiKey.workspaceId),
			requestId,
		};
		if (!route.idempotent) return route.handler(ctx);
		return withIdempotency(ctx, (context) => route.handler(context));
	}

	private authenticate(req: IncomingMessage): ApiKeyRecord {
		const header = req.headers['x-api-key'];
		const key = Array.isArray(header) ? header[0] : header;
		if (!key) throw new ApiError(401, 'The x-api-key header is missing. Send your API key in the x-api-key header.', undefined, { code: 'UNAUTHORIZED' });
		const record = this.services.state.keys.get(key);
		if (!record) throw new ApiError(401, 'The API key is invalid.', undefined, { code: 'UNAUTHORIZED' });
		if (!record.active) throw new ApiError(403, 'Access denied: the API key is inactive.', undefined, { code: 'FORBIDDEN' });
		return record;
	}

	private checkRateLimit(key: string): void {
		const limit = this.rateLimit;
		if (!limit) return;
		const windowMs = limit.windowMs ?? 1000;
		const now = this.services.clock.now();
		let window = this.windows.get(key);
		if (!window || now >= window.startMs + windowMs) {
			window = { startMs: now, count: 0 };
			this.windows.set(key, window);
		}
		window.count += 1;
		if (window.count > limit.limit) {
			const retryAfter = Math.max(1, Math.ceil((window.startMs + windowMs - now) / 1000));
			throw new ApiError(429, `Rate limit of ${limit.limit} requests per ${windowMs} ms exceeded; retry after ${retryAfter} s.`, undefined, { retryAfter });
		}
	}

	private match(method: string, routePath: string): { route?: CompiledRoute; params: Record<string, string>; pathKnown: boolean } {
		let pathKnown = false;
		for (const route of this.routes) {
			const match = route.regex.exec(routePath);
			if (!match) continue;
			pathKnown = true;
			if (route.method !== method) continue;
			const params: Record<string, string> = {};
			route.names.forEach((name, index) => {
				params[name] = decodeURIComponent(match[index + 1]);
			});
			return { route, params, pathKnown };
		}
		return { params: {}, pathKnown };
	}
}

function validateParams(route: CompiledRoute, params: Record<string, string>): void {
	const violations = [];
	for (const [name, kind] of Object.entries(route.params ?? {})) {
		const value = params[name];
		if (kind === 'uuid' && !isUuid(value)) {
			violations.push({ code: 'INVALID_FORMAT', detail: `${name} must be a UUID; got "${value}".`, parameter: name });
		}
		if (kind === 'objectId' && !isObjectId(value)) {
			violations.push({ code: 'INVALID_FORMAT', detail: `${name} must be a 24-character hexadecimal id; got "${value}".`, parameter: name });
		}
	}
	if (violations.length > 0) throw validationError(violations);
}

async function readJsonBody(req: IncomingMessage, onBytes: (bytes: number) => void): Promise<unknown> {
	const raw = await readBody(req, MAX_JSON_BODY_BYTES, onBytes);
	if (raw.length === 0) return undefined;
	const contentType = String(req.headers['content-type'] ?? '');
	if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
		throw new ApiError(415, `The request body must be JSON with Content-Type application/json; got "${contentType || 'none'}".`);
	}
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		throw new ApiError(400, 'The request body is not valid JSON.');
	}
}
