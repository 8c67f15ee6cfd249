/** The emulator's engine: three HTTP listeners (API, storage and the trap host), the dispatcher
 * with auth, rate limit, idempotency, faults, the request log and its events. */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CallbackSender } from './callbacks';
import type { Clock } from './clock';
import { iso } from './clock';
import { bodyRetryAfter, cutResponse, headerRetryAfter, repeatFirstListed, rewritePartPlan, rewritePresignedUrls, sendHugeAnswer, sendRedirect, trickleRequest, trickleResponse } from './fault-answers';
import { type FailFault, Faults, type HostName, type TakenFaults } from './faults';
import {
	canonicalJson,
	MAX_JSON_BODY_BYTES,
	parseQuery,
	problemResponse,
	readBody,
	sendJson,
	sleep,
	type JsonResponse,
} from './http-util';
import { isObjectId, isUuid, newUuid } from './ids';
import { ObjectStore } from './object-store';
import { FOREIGN_HOST_STATUS, isLoopbackHostHeader, refuseForeignHost } from './host-check';
import { ApiError, validationError } from './problem';
import { Processor } from './processing';
import { compile, type CompiledRoute, type RequestContext, type Route } from './router';
import { EmulatorState } from './state';
import { Presigner, StorageHost } from './storage';
import type { ApiKeyRecord } from './types';

export const API_PREFIX = '/prod/v1';
export const CONTROL_PREFIX = '/__emulator';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export interface RequestLogEntry {
	/** Order of arrival, starting at 1. */
	sequence: number;
	host: HostName;
	method: string;
	/** The path as received (not percent-decoded). */
	path: string;
	/** The query parameters, decoded. */
	query: Record<string, string | string[]>;
	/** The query string as received, without '?' ('' when none). */
	rawQuery: string;
	/** Request headers, names in lower case. */
	headers: Record<string, string | string[] | undefined>;
	/** Header names and values exactly as received, alternating (keeps repeated headers that `headers` drops). */
	rawHeaders: string[];
	/** Body bytes received (counted as they stream in). */
	bodyBytes: number;
	/** Response status; 0 while running or when the connection closed without an answer (reset, hang, client gone). */
	status: number;
	requestId?: string;
	/** Clock time of arrival (ISO 8601). */
	time: string;
	/** Which injected fault hit this request, if any. */
	fault?: FaultLabel;
	/** The pause a 429 answer announced (retryAfter, seconds). */
	retryAfter?: number;
	durationMs?: number;
}

export type FaultLabel = 'fail' | 'delay' | 'reset' | 'redirect' | 'hang' | 'rewrite' | 'trickle' | 'huge' | 'ignore-page' | 'edit' | 'repeat-id';

/** `detailed`: DELETE /files lists deletedFileIds; `spec`: exactly the specification's shape. */
export type DeleteAnswerShape = 'detailed' | 'spec';

export type EmulatorEvents = {
	/** A request arrived (any host), its fault already taken. */
	request: [RequestLogEntry];
	/** A request's status is settled (0 when the connection closed without an answer). */
	response: [RequestLogEntry];
};

export interface RateLimitOptions {
	/** Requests allowed per key per window. */
	limit: number;
	/** Window length in ms (default 1000); windows follow the emulator clock. */
	windowMs?: number;
}

export interface CoreOptions {
	clock: Clock;
	seed: boolean;
	dataDir: string;
	processingDelayMs: number;
	rateLimit?: RateLimitOptions;
	maxDirectoryDepth: number;
	/** Smallest part size of a multipart upload, in MB (default 5, as S3). */
	minPartSizeMB: number;
	/** Part size used when partSizeLimit is absent, in MB (default 10). */
	defaultPartSizeMB: number;
	/** Highest pageCount accepted by uploads (default 500). */
	maxPageCount: number;
	requireContentLength: boolean;
	/** Storage sink mode: PUT bodies are counted and MD5-hashed, not stored (see StorageOptions.sink). */
	storageSink: boolean;
	requestLogLimit: number;
	callbackRetries: number;
	callbackRetryBaseMs: number;
	deleteAnswer: DeleteAnswerShape;
}

export class EmulatorCore {
	readonly state: EmulatorState;
	readonly clock: Clock;
	readonly faults: Faults;
	readonly requests: RequestLogEntry[] = [];
	readonly store: ObjectStore;
	readonly presigner: Presigner;
	readonly callbacks: CallbackSender;
	readonly processor: Processor;
	readonly storageHost: StorageHost;
	readonly events = new EventEmitter<EmulatorEvents>();
	rateLimit: RateLimitOptions | undefined;
	deleteAnswer: DeleteAnswerShape;
	/** Per-key fixed windows: key -> window start and count. */
	private windows = new Map<string, { startMs: number; count: number }>();
	private routes: CompiledRoute[] = [];
	private sequence = 0;
	/** Host names besides the loopback ones that requests may be addressed to (the bound address). */
	private extraHostNames: string[] = [];
	private apiServer?: Server;
	private storageServer?: Server;
	private trapServer?: Server;
	/** Sockets of requests a hang fault holds open; close() destroys them. */
	private readonly heldSockets = new Set<Socket>();
	apiUrl = '';
	storageUrl = '';
	trapUrl = '';
	/** Handles /__emulator/* requests; set by the control module. */
	controlHandler?: (req: IncomingMessage, res: ServerResponse, url: RequestUrl) => Promise<void>;

	constructor(readonly options: CoreOptions) {
		this.clock = options.clock;
		this.state = new EmulatorState(options.clock, options.seed);
		this.store = new ObjectStore(this.state, options.dataDir);
		this.presigner = new Presigner(this.state, this.clock, () => this.storageUrl);
		this.faults = new Faults(() => this.presigner.expireAll());
		this.callbacks = new CallbackSender(this.state, { retries: options.callbackRetries, retryBaseMs: options.callbackRetryBaseMs, timeoutMs: 30000 });
		this.processor = new Processor(this.state, this.store, this.callbacks, { processingDelayMs: options.processingDelayMs });
		this.storageHost = new StorageHost(this.state, this.clock, this.store, this.processor, { requireContentLength: options.requireContentLength, sink: options.storageSink });
		this.rateLimit = options.rateLimit;
		this.deleteAnswer = options.deleteAnswer;
		this.events.setMaxListeners(100);
	}

	addRoutes(routes: Route[]): void {
		this.routes.push(...routes.map(compile));
	}

	async listen(apiPort: number, storagePort: number, host = '127.0.0.1', trapPort = 0): Promise<void> {
		await this.store.init();
		// Bound to a named address other than the loopback ones: requests addressed to it are this machine's too.
		this.extraHostNames = ['0.0.0.0', '::', ''].includes(host) ? [] : [host];
		this.apiServer = createServer((req, res) => void this.onRequest('api', req, res));
		this.storageServer = createServer((req, res) => void this.onRequest('storage', req, res));
		this.trapServer = createServer((req, res) => void this.onRequest('trap', req, res));
		for (const server of [this.apiServer, this.storageServer, this.trapServer]) {
			server.keepAliveTimeout = 65000;
			server.headersTimeout = 66000;
			server.requestTimeout = 0;
		}
		this.apiUrl = `http://${host}:${await listenOn(this.apiServer, apiPort, host)}`;
		this.storageUrl = `http://${host}:${await listenOn(this.storageServer, storagePort, host)}`;
		this.trapUrl = `http://${host}:${await listenOn(this.trapServer, trapPort, host)}`;
	}

	async close(): Promise<void> {
		this.processor.close();
		await this.store.close();
		this.callbacks.close();
		for (const socket of this.heldSockets) socket.destroy();
		this.heldSockets.clear();
		await Promise.all(
			[this.apiServer, this.storageServer, this.trapServer].map(
				(server) =>
					new Promise<void>((resolve) => {
						if (!server) return resolve();
						server.close(() => resolve());
						server.closeAllConnections();
					}),
			),
		);
	}

	private log(host: HostName, req: IncomingMessage, url: RequestUrl): RequestLogEntry {
		this.sequence += 1;
		const entry: RequestLogEntry = {
			sequence: this.sequence,
			host,
			method: req.method ?? 'GET',
			path: url.pathname,
			query: url.query,
			rawQuery: url.rawQuery,
			headers: { ...req.headers },
			rawHeaders: [...req.rawHeaders],
			bodyBytes: 0,
			status: 0,
			time: iso(this.clock.now()),
		};
		this.requests.push(entry);
		// trimmed in batches: one splice per ~1000 requests instead of one per request
		const limit = this.options.requestLogLimit;
		if (this.requests.length > limit + Math.min(1000, limit)) {
			this.requests.splice(0, this.requests.length - limit);
		}
		return entry;
	}

	private async onRequest(host: HostName, req: IncomingMessage, res: ServerResponse): Promise<void> {
		const started = process.hrtime.bigint();
		const url = parseRequestUrl(req.url ?? '/');
		if (!isLoopbackHostHeader(req.headers.host, this.extraHostNames)) {
			// Logged (status 421) so that a test watching the log sees the attempt; nothing else runs.
			const entry = this.log(host, req, url);
			refuseForeignHost(req, res, 'The Document Extraction emulator', this.extraHostNames);
			entry.status = FOREIGN_HOST_STATUS;
			entry.durationMs = Number(process.hrtime.bigint() - started) / 1e6;
			return;
		}
		if (host === 'api' && url.pathname.startsWith(CONTROL_PREFIX) && this.controlHandler) {
			try {
				await this.controlHandler(req, res, url);
			} catch (error) {
				if (!res.headersSent) sendJson(res, { status: 500, body: { error: (error as Error).message } }, 'control');
			}
			return;
		}
		const entry = this.log(host, req, url);
		const settle = (status: number) => {
			if (entry.durationMs !== undefined) return;
			entry.status = status;
			entry.durationMs = Number(process.hrtime.bigint() - started) / 1e6;
			this.events.emit('response', entry);
		};
		res.on('finish', () => settle(res.statusCode));
		// A client that has read the whole body may close the socket before 'finish' fires; the
		// response still counts as answered when the emulator had ended it.
		res.on('close', () => settle(res.writableEnded ? res.statusCode : 0));
		const onBytes = (bytes: number) => (entry.bodyBytes += bytes);
		const method = req.method ?? 'GET';
		const taken = this.faults.take(host, method, url.pathname);
		entry.fault = faultLabel(taken);
		this.events.emit('request', entry);
		if (taken.delay) await sleep(taken.delay.delayMs);
		const resetAfter = taken.reset?.phase === 'after' && host === 'api';
		if (taken.reset && !resetAfter) {
			this.resetMidBody(req, taken, onBytes);
			return;
		}
		const requestId = newUuid();
		entry.requestId = requestId;
		const failAfter = taken.fail?.phase === 'after' && host === 'api';
		if (taken.fail && !failAfter) {
			if (typeof taken.fail.retryAfter === 'number') entry.retryAfter = taken.fail.retryAfter;
			req.on('data', (chunk: Buffer) => onBytes(chunk.length));
			req.resume();
			this.sendFault(host, res, taken.fail, url.pathname, requestId);
			return;
		}
		if (taken.redirect) {
			req.on('data', (chunk: Buffer) => onBytes(chunk.length));
			sendRedirect(req, res, taken.redirect, `${this.trapUrl}${url.pathname}${url.rawQuery ? `?${url.rawQuery}` : ''}`, requestId);
			return;
		}
		if (taken.huge) {
			req.on('data', (chunk: Buffer) => onBytes(chunk.length));
			req.resume();
			sendHugeAnswer(res, taken.huge, requestId);
			return;
		}
		if (taken.trickle) {
			if ((taken.trickle.direction ?? 'answer') === 'answer') trickleResponse(res, taken.trickle);
			else trickleRequest(req, taken.trickle);
		}
		if (taken.ignorePage) {
			url.searchParams.delete('page');
			delete url.query.page;
		}
		if (taken.hang) {
			if ((taken.hang.mode ?? 'no-answer') === 'no-answer') {
				req.on('data', (chunk: Buffer) => onBytes(chunk.length));
				req.resume();
				this.hold(req.socket);
				return;
			}
			cutResponse(res, taken.hang, () => {
				this.hold(req.socket);
				settle(res.statusCode);
			});
		}
		if (host === 'trap') {
			this.answerTrap(req, res, requestId, onBytes);
			return;
		}
		if (host === 'storage') {
			try {
				await this.storageHost.handle(req, res, url, onBytes);
			} catch (error) {
				if (!res.headersSent) res.writeHead(500).end(String((error as Error).message));
			}
			return;
		}
		let response: JsonResponse;
		try {
			response = await this.dispatch(req, url, requestId, onBytes);
		} catch (error) {
			if (!(error instanceof ApiError)) {
				console.error('[emulator] unexpected error', error);
			}
			const apiError = error instanceof ApiError ? error : new ApiError(500, 'An unexpected internal error occurred.');
			response = problemResponse(apiError, url.pathname, requestId);
		}
		if (!req.complete) req.resume();
		const announced = (response.body as { retryAfter?: unknown } | undefined)?.retryAfter;
		if (response.status === 429 && typeof announced === 'number') entry.retryAfter = announced;
		if (resetAfter) {
			req.socket.destroy();
			return;
		}
		if (failAfter && taken.fail) {
			this.sendFault(host, res, taken.fail, url.pathname, requestId);
			return;
		}
		if (taken.rewrite) response = { ...response, body: rewritePresignedUrls(response.body, taken.rewrite.url, this.trapUrl) };
		if (taken.partPlan) response = { ...response, body: rewritePartPlan(response.body, taken.partPlan) };
		if (taken.edit) response = { ...response, body: taken.edit.edit(JSON.parse(JSON.stringify(response.body ?? null)) as unknown) };
		if (taken.repeatId) response = { ...response, body: repeatFirstListed(response.body) };
		sendJson(res, response, requestId);
	}

	/** The trap host reads and discards the body, then answers 200 {"trap": true}. */
	private answerTrap(req: IncomingMessage, res: ServerResponse, requestId: string, onBytes: (bytes: number) => void): void {
		req.on('data', (chunk: Buffer) => onBytes(chunk.length));
		req.on('end', () => sendJson(res, { status: 200, body: { trap: true } }, requestId));
		req.resume();
	}

	/** Keeps a socket that a hang fault leaves open until the client gives up or close(). */
	private hold(socket: Socket): void {
		this.heldSockets.add(socket);
		socket.once('close', () => this.heldSockets.delete(socket));
	}

	/** An injected failure: problem+json on the API (and trap) host, S3-style XML on the storage host. */
	private sendFault(host: HostName, res: ServerResponse, fault: FailFault, path: string, requestId: string): void {
		const status = fault.status ?? 500;
		const detail = fault.detail ?? (status === 429 ? 'Rate limit exceeded; retry later.' : `Injected fault: HTTP ${status}.`);
		const retryAfter = headerRetryAfter(fault);
		if (fault.rawBody !== undefined) {
			const headers: Record<string, string | number> = { 'content-type': 'text/html', 'content-length': Buffer.byteLength(fault.rawBody), 'x-request-id': requestId };
			if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
			res.writeHead(status, headers);
			res.end(fault.rawBody);
			return;
		}
		if (host === 'storage') {
			const code = status === 503 ? 'SlowDown' : status === 403 ? 'AccessDenied' : status >= 500 ? 'InternalError' : 'InvalidRequest';
			const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${detail}</Message><RequestId>${requestId}</RequestId></Error>`;
			const headers: Record<string, string | number> = { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) };
			if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
			res.writeHead(status, headers);
			res.end(body);
			return;
		}
		const problem = problemResponse(new ApiError(status, detail), path, requestId);
		const body = { ...(problem.body as Record<string, unknown>), ...(fault.problem ?? {}) };
		const headers: Record<string, string> = { ...problem.headers };
		for (const value of bodyRetryAfter(fault)) body.retryAfter = value;
		if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
		sendJson(res, { ...problem, body, headers }, requestId);
	}

	/** Destroys the socket once `afterBytes` body bytes arrived (at once when 0 or no body). */
	private resetMidBody(req: IncomingMessage, taken: TakenFaults, onBytes: (bytes: number) => void): void {
		const afterBytes = taken.reset?.afterBytes ?? 1;
		let received = 0;
		const declared = Number(req.headers['content-length'] ?? 0);
		const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
		if (afterBytes <= 0 || !hasBody) {
			req.socket.destroy();
			return;
		}
		req.on('data', (chunk: Buffer) => {
			received += chunk.length;
			onBytes(chunk.length);
			if (received >= afterBytes) req.socket.destroy();
		});
		req.on('end', () => req.socket.destroy());
	}

	private authenticate(req: IncomingMessage): ApiKeyRecord {
		const header = req.headers['x-api-key'];
		const key = Array.isArray(header) ? header[0] : header;
		if (!key) throw new ApiError(401, 'The x-api-key header is missing. Send your API key in the x-api-key header.', undefined, { code: 'UNAUTHORIZED' });
		const record = this.state.keys.get(key);
		if (!record) throw new ApiError(401, 'The API key is invalid.', undefined, { code: 'UNAUTHORIZED' });
		if (!record.active) throw new ApiError(403, 'Access denied: the API key is inactive.', undefined, { code: 'FORBIDDEN' });
		return record;
	}

	private checkRateLimit(key: string): void {
		const limit = this.rateLimit;
		if (!limit) return;
		const windowMs = limit.windowMs ?? 1000;
		const now = this.clock.now();
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

	resetRateLimitWindows(): void {
		this.windows.clear();
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

	private async dispatch(req: IncomingMessage, url: RequestUrl, requestId: string, onBytes: (bytes: number) => void): Promise<JsonResponse> {
		const method = req.method ?? 'GET';
		if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
			throw new ApiError(404, `No such endpoint: ${method} ${url.pathname}. Every path starts with ${API_PREFIX}.`);
		}
		const apiKey = this.authenticate(req);
		this.checkRateLimit(apiKey.key);
		this.state.purgeExpired();
		const routePath = url.pathname.slice(API_PREFIX.length);
		const { route, params, pathKnown } = this.match(method, routePath);
		if (!route) {
			if (pathKnown) throw new ApiError(405, `Method ${method} is not allowed on ${url.pathname}.`, undefined, { code: 'METHOD_NOT_ALLOWED' });
			throw new ApiError(404, `No such endpoint: ${method} ${url.pathname}.`);
		}
		if (route.write && apiKey.mode === 'read-only') {
			throw new ApiError(403, 'Access denied: this API key is in read-only mode and cannot make changes.', undefined, { code: 'FORBIDDEN' });
		}
		this.validateParams(route, params);
		const body = route.body ? await this.readJsonBody(req, onBytes) : undefined;
		const ctx: RequestContext = {
			core: this,
			req,
			method,
			path: url.pathname,
			params,
			query: url.query,
			body,
			apiKey,
			workspace: this.state.workspace(apiKey.workspaceId),
			requestId,
		};
		if (!route.idempotent) return route.handler(ctx);
		return this.withIdempotency(ctx, route);
	}

	private validateParams(route: CompiledRoute, params: Record<string, string>): void {
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

	private async readJsonBody(req: IncomingMessage, onBytes: (bytes: number) => void): Promise<unknown> {
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

	private async withIdempotency(ctx: RequestContext, route: CompiledRoute): Promise<JsonResponse> {
		const header = ctx.req.headers['idempotency-key'];
		const key = Array.isArray(header) ? header[0] : header;
		if (key === undefined) return route.handler(ctx);
		if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
			throw validationError([
				{ code: key.length === 0 ? 'INVALID_VALUE' : 'TOO_LONG', detail: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters; got ${key.length}.`, parameter: 'Idempotency-Key' },
			]);
		}
		const storeKey = `${ctx.workspace.id}\n${key}`;
		const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${canonicalJson(ctx.body ?? null)}`).digest('hex');
		const now = this.clock.now();
		const existing = this.state.idempotency.get(storeKey);
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
		this.state.idempotency.set(storeKey, record);
		try {
			const response = await route.handler(ctx);
			if (response.status >= 200 && response.status < 300) {
				this.state.idempotency.set(storeKey, { ...record, inFlight: false, status: response.status, body: response.body, headers: response.headers ?? {} });
			} else {
				this.state.idempotency.delete(storeKey);
			}
			return response;
		} catch (error) {
			this.state.idempotency.delete(storeKey);
			throw error;
		}
	}
}

/** The parts of a request target the emulator uses (cheaper than new URL per request). */
export interface RequestUrl {
	pathname: string;
	searchParams: URLSearchParams;
	query: Record<string, string | string[]>;
	/** The query string as received, without '?'. */
	rawQuery: string;
}

function parseRequestUrl(target: string): RequestUrl {
	const queryStart = target.indexOf('?');
	const rawPath = queryStart < 0 ? target : target.slice(0, queryStart);
	const rawQuery = queryStart < 0 ? '' : target.slice(queryStart + 1);
	const searchParams = new URLSearchParams(rawQuery);
	// an absolute-form target (proxy style) keeps only its path
	const pathname = /^https?:\/\//i.test(rawPath) ? rawPath.replace(/^https?:\/\/[^/]*/i, '') || '/' : rawPath || '/';
	return { pathname, searchParams, query: parseQuery(searchParams), rawQuery };
}

/** The label the request log shows: the fault that decides the answer, else a rewrite or an edit, else a delay. */
function faultLabel(taken: TakenFaults): FaultLabel | undefined {
	if (taken.reset) return 'reset';
	if (taken.fail) return 'fail';
	if (taken.redirect) return 'redirect';
	if (taken.hang) return 'hang';
	if (taken.huge) return 'huge';
	if (taken.rewrite) return 'rewrite';
	if (taken.trickle) return 'trickle';
	if (taken.partPlan) return 'rewrite';
	if (taken.ignorePage) return 'ignore-page';
	if (taken.edit) return 'edit';
	if (taken.repeatId) return 'repeat-id';
	return taken.delay ? 'delay' : undefined;
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}
