/** /__emulator/* on the API host: request log, faults, clock, keys, rate limit, state peeks.
 * Only the emulator answers these paths; they need no API key. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isControllable } from './clock';
import { callbackFaultProblem, type CallbackFaultSpec } from './callback-faults';
import type { EmulatorCore } from './core';
import { CONTROL_PREFIX } from './core';
import type { FailFault, FaultMatch, FaultPhase, HangMode, HostName, RedirectStatus } from './faults';
import { readBody, sendJson, type RequestUrl } from './http-util';
import { SEEDED_KEYS } from './seed';
import type { DeleteAnswerShape } from './types';

function toRegExp(source: unknown, flags: unknown): RegExp | undefined {
	return typeof source === 'string' ? new RegExp(source, typeof flags === 'string' ? flags : '') : undefined;
}

function matchSpec(body: Record<string, unknown>): FaultMatch & { phase?: FaultPhase } {
	return {
		method: typeof body.method === 'string' ? body.method : undefined,
		path: toRegExp(body.pathRegex, body.pathRegexFlags) ?? (typeof body.path === 'string' ? body.path : undefined),
		host: body.host === 'api' || body.host === 'storage' || body.host === 'trap' ? (body.host as HostName) : undefined,
		count: typeof body.count === 'number' ? body.count : undefined,
		phase: body.phase === 'after' ? 'after' : undefined,
	};
}

function failSpec(body: Record<string, unknown>): FailFault {
	const spec: FailFault = {
		...matchSpec(body),
		status: typeof body.status === 'number' ? body.status : undefined,
		retryAfter: typeof body.retryAfter === 'number' ? body.retryAfter : undefined,
		detail: typeof body.detail === 'string' ? body.detail : undefined,
		retryAfterHeader: typeof body.retryAfterHeader === 'string' ? body.retryAfterHeader : undefined,
		problem: body.problem && typeof body.problem === 'object' && !Array.isArray(body.problem) ? (body.problem as Record<string, unknown>) : undefined,
		rawBody: typeof body.rawBody === 'string' ? body.rawBody : undefined,
	};
	// JSON cannot carry undefined: '(omit)' asks for a body without retryAfter
	if ('retryAfterBody' in body) spec.retryAfterBody = body.retryAfterBody;
	return spec;
}

const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];
const HANG_MODES: readonly string[] = ['no-answer', 'stall-body', 'close-body'];
const DELETE_ANSWERS: readonly string[] = ['detailed', 'spec'];

export function installControl(core: EmulatorCore): void {
	core.controlHandler = async (req: IncomingMessage, res: ServerResponse, url: RequestUrl) => {
		const method = req.method ?? 'GET';
		const route = url.pathname.slice(CONTROL_PREFIX.length) || '/';
		const raw = await readBody(req, 1024 * 1024, () => undefined);
		let body: Record<string, unknown> = {};
		if (raw.length > 0) {
			try {
				body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
			} catch {
				sendJson(res, { status: 400, body: { error: 'invalid JSON' } }, 'control');
				return;
			}
		}
		const reply = (status: number, payload: unknown) => sendJson(res, { status, body: payload }, 'control');
		const key = `${method} ${route}`;
		switch (key) {
			case 'GET /':
			case 'GET /health':
				return reply(200, { ok: true, apiUrl: core.apiUrl, storageUrl: core.storageUrl, trapUrl: core.trapUrl, storageSink: core.options.storageSink });
			case 'GET /keys':
				return reply(200, { keys: SEEDED_KEYS });
			case 'GET /requests': {
				const query = url.query;
				const since = Number(query.since ?? 0);
				const entries = core.requests.filter(
					(entry) => entry.sequence > since && (query.host === undefined || entry.host === query.host) && (query.method === undefined || entry.method === query.method),
				);
				return reply(200, { requests: entries });
			}
			case 'DELETE /requests':
				core.requests.length = 0;
				return reply(200, { success: true });
			case 'GET /faults':
				return reply(200, core.faults.pending());
			case 'DELETE /faults':
				core.faults.clear();
				return reply(200, { success: true });
			case 'POST /faults/fail':
				core.faults.failNext(failSpec(body));
				return reply(200, { success: true });
			case 'POST /faults/delay':
				core.faults.delayNext({ ...matchSpec(body), delayMs: typeof body.delayMs === 'number' ? body.delayMs : 1000 });
				return reply(200, { success: true });
			case 'POST /faults/reset':
				core.faults.resetConnectionNext({ ...matchSpec(body), afterBytes: typeof body.afterBytes === 'number' ? body.afterBytes : undefined });
				return reply(200, { success: true });
			case 'POST /faults/redirect': {
				if (body.status !== undefined && !REDIRECT_STATUSES.includes(body.status as number)) return reply(400, { error: `status must be one of ${REDIRECT_STATUSES.join(', ')}` });
				if (body.location !== undefined && typeof body.location !== 'string') return reply(400, { error: 'location must be a string' });
				core.faults.redirectNext({ ...matchSpec(body), status: body.status as RedirectStatus | undefined, location: body.location });
				return reply(200, { success: true });
			}
			case 'POST /faults/hang': {
				if (body.mode !== undefined && !HANG_MODES.includes(body.mode as string)) return reply(400, { error: `mode must be one of ${HANG_MODES.join(', ')}` });
				core.faults.hangNext({ ...matchSpec(body), mode: body.mode as HangMode | undefined, afterBytes: typeof body.afterBytes === 'number' ? body.afterBytes : undefined });
				return reply(200, { success: true });
			}
			case 'POST /faults/rewrite-urls':
				if (typeof body.url !== 'string') return reply(400, { error: 'url (a string) is required' });
				core.faults.rewriteUrlsNext({ ...matchSpec(body), url: body.url });
				return reply(200, { success: true });
			case 'POST /faults/trickle': {
				if (body.direction !== undefined && body.direction !== 'answer' && body.direction !== 'request') return reply(400, { error: 'direction must be answer or request' });
				core.faults.trickleNext({
					...matchSpec(body),
					direction: body.direction as 'answer' | 'request' | undefined,
					bytesPerSecond: typeof body.bytesPerSecond === 'number' ? body.bytesPerSecond : undefined,
					chunkBytes: typeof body.chunkBytes === 'number' ? body.chunkBytes : undefined,
				});
				return reply(200, { success: true });
			}
			case 'POST /faults/huge-answer':
				if (typeof body.bytes !== 'number' || body.bytes < 0) return reply(400, { error: 'bytes (a number) is required' });
				core.faults.hugeAnswerNext({ ...matchSpec(body), bytes: body.bytes, withContentLength: body.withContentLength === true });
				return reply(200, { success: true });
			case 'POST /faults/ignore-page':
				core.faults.ignorePageNext(matchSpec(body));
				return reply(200, { success: true });
			case 'POST /faults/repeat-id':
				core.faults.repeatIdNext(matchSpec(body));
				return reply(200, { success: true });
			case 'POST /faults/expire-presigned':
				return reply(200, { success: true, expired: core.faults.expirePresignedUrls() });
			case 'GET /clock':
				return reply(200, { now: core.clock.now(), iso: new Date(core.clock.now()).toISOString(), controllable: isControllable(core.clock) });
			case 'POST /clock': {
				const clock = core.clock;
				if (!isControllable(clock)) return reply(409, { error: 'the injected clock cannot be moved' });
				if (typeof body.advanceMs === 'number') clock.advance(body.advanceMs);
				if (typeof body.setMs === 'number') clock.set(body.setMs);
				if (typeof body.set === 'string') clock.set(Date.parse(body.set));
				return reply(200, { now: clock.now(), iso: new Date(clock.now()).toISOString() });
			}
			case 'POST /rate-limit':
				core.rateLimit = typeof body.limit === 'number' ? { limit: body.limit, windowMs: typeof body.windowMs === 'number' ? body.windowMs : undefined } : undefined;
				core.resetRateLimitWindows();
				return reply(200, { rateLimit: core.rateLimit ?? null });
			case 'POST /keys/default-callback': {
				if (typeof body.apiKey !== 'string' || !core.state.keys.has(body.apiKey)) return reply(404, { error: 'unknown apiKey' });
				core.state.setDefaultCallbackUrl(body.apiKey, typeof body.callbackURL === 'string' ? body.callbackURL : undefined);
				return reply(200, { success: true });
			}
			case 'POST /files/protect': {
				const fileIds = body.fileIds;
				if (!Array.isArray(fileIds) || !fileIds.every((id) => typeof id === 'string')) return reply(400, { error: 'fileIds must be an array of strings' });
				core.state.protectFiles(fileIds as string[], typeof body.detail === 'string' ? body.detail : undefined);
				return reply(200, { success: true, protected: [...core.state.protectedFiles.keys()] });
			}
			case 'DELETE /files/protect':
				core.state.protectedFiles.clear();
				return reply(200, { success: true });
			case 'POST /delete-answer':
				if (!DELETE_ANSWERS.includes(body.shape as string)) return reply(400, { error: `shape must be one of ${DELETE_ANSWERS.join(', ')}` });
				core.deleteAnswer = body.shape as DeleteAnswerShape;
				return reply(200, { shape: core.deleteAnswer });
			case 'GET /multipart': {
				// A multipart upload (by its id, or by the uploadId of GET /uploads) with each received part's ETag and size.
				const { id, uploadId } = url.query;
				const multipart = [...core.state.multiparts.values()].find((record) => record.id === id || (uploadId !== undefined && record.uploadId === uploadId));
				if (!multipart) return reply(404, { error: 'no such multipart upload (give id or uploadId)' });
				const parts = [...multipart.parts.entries()].sort(([left], [right]) => left - right).map(([partNumber, part]) => ({ partNumber, eTag: part.etag, size: part.size }));
				const { id: multipartId, key, totalSize, partSize, totalParts, completed } = multipart;
				return reply(200, { id: multipartId, uploadId: multipart.uploadId, key, totalSize, partSize, totalParts, completed, parts });
			}
			case 'GET /callbacks': {
				// Optionally only those of one upload (by the payload's uploadId).
				const { uploadId } = url.query;
				const callbacks = uploadId === undefined ? core.state.callbacks : core.state.callbacks.filter((delivery) => delivery.payload.uploadId === uploadId);
				return reply(200, { callbacks });
			}
			case 'DELETE /callbacks':
				core.state.callbacks.length = 0;
				return reply(200, { success: true });
			case 'POST /callbacks/faults': {
				const problem = callbackFaultProblem(body);
				if (problem) return reply(400, { error: problem });
				const fault = core.callbackFaults.add(body as unknown as CallbackFaultSpec);
				return reply(200, { success: true, id: fault.id });
			}
			case 'GET /callbacks/faults':
				return reply(200, { faults: core.callbackFaults.pending() });
			case 'DELETE /callbacks/faults':
				core.callbackFaults.clear();
				return reply(200, { success: true });
			case 'POST /processing-delay':
				if (typeof body.delayMs !== 'number' || !Number.isFinite(body.delayMs) || body.delayMs < 0) return reply(400, { error: 'delayMs (a number, 0 or more) is required' });
				core.processor.setProcessingDelay(body.delayMs);
				return reply(200, { processingDelayMs: body.delayMs });
			case 'GET /idle':
				await core.state.idle();
				return reply(200, { idle: true });
			default:
				return reply(404, { error: `unknown control path ${method} ${url.pathname}` });
		}
	};
}
