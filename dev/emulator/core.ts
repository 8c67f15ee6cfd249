/** The emulator's engine: three HTTP listeners (API, storage and the trap host); each request is
 * checked (Host), logged, given its injected fault, then handed to the API dispatcher
 * (api-dispatch.ts), the storage host (storage.ts) or the trap. */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiDispatcher, type RateLimitOptions } from './api-dispatch';
import { CallbackFaults } from './callback-faults';
import { CallbackSender } from './callbacks';
import type { Clock } from './clock';
import { iso } from './clock';
import { cutResponse, repeatFirstListed, resetMidBody, rewritePartPlan, rewritePresignedUrls, sendFault, sendHugeAnswer, sendRedirect, trickleRequest, trickleResponse } from './fault-answers';
import { Faults, type HostName } from './faults';
import { parseRequestUrl, problemResponse, sendJson, sleep, type JsonResponse, type RequestUrl } from './http-util';
import { newUuid } from './ids';
import { ObjectStore } from './object-store';
import { FOREIGN_HOST_STATUS, refuseForeignHost } from '../host-check';
import { isLoopbackHostHeader } from '../loopback-host.cjs';
import { ApiError } from './problem';
import { Processor } from './processing';
import { faultLabel, type EmulatorEvents, type RequestLogEntry } from './request-log';
import type { Route } from './router';
import { EmulatorState } from './state';
import { Presigner, StorageHost } from './storage';
import type { DeleteAnswerShape } from './types';

export const CONTROL_PREFIX = '/__emulator';

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
	/** Faults of the callbacks the emulator sends (delayed, duplicated, …). */
	readonly callbackFaults = new CallbackFaults();
	readonly processor: Processor;
	readonly storageHost: StorageHost;
	readonly events = new EventEmitter<EmulatorEvents>();
	readonly api: ApiDispatcher;
	deleteAnswer: DeleteAnswerShape;
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
		this.callbacks = new CallbackSender(this.state, { retries: options.callbackRetries, retryBaseMs: options.callbackRetryBaseMs, timeoutMs: 30000 }, this.callbackFaults);
		this.processor = new Processor(this.state, this.store, this.callbacks, { processingDelayMs: options.processingDelayMs }, this.callbackFaults);
		this.storageHost = new StorageHost(this.state, this.clock, this.store, this.processor, { requireContentLength: options.requireContentLength, sink: options.storageSink });
		this.api = new ApiDispatcher(this, options.rateLimit);
		this.deleteAnswer = options.deleteAnswer;
		this.events.setMaxListeners(100);
	}

	addRoutes(routes: Route[]): void {
		this.api.addRoutes(routes);
	}

	/** The per-key rate limit of the API (undefined: none). */
	get rateLimit(): RateLimitOptions | undefined {
		return this.api.rateLimit;
	}

	set rateLimit(limit: RateLimitOptions | undefined) {
		this.api.rateLimit = limit;
	}

	resetRateLimitWindows(): void {
		this.api.resetRateLimitWindows();
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
			remotePort: req.socket.remotePort,
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
			resetMidBody(req, taken.reset, onBytes);
			return;
		}
		const requestId = newUuid();
		entry.requestId = requestId;
		const failAfter = taken.fail?.phase === 'after' && host === 'api';
		if (taken.fail && !failAfter) {
			if (typeof taken.fail.retryAfter === 'number') entry.retryAfter = taken.fail.retryAfter;
			req.on('data', (chunk: Buffer) => onBytes(chunk.length));
			req.resume();
			sendFault(host, res, taken.fail, url.pathname, requestId);
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
			response = await this.api.dispatch(req, url, requestId, onBytes);
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
			sendFault(host, res, taken.fail, url.pathname, requestId);
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
