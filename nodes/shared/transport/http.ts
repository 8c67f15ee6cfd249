import type {
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import type { ApiContext } from '../run/context';
import { ANSWER_LIMITS } from '../limits';
import type { AbortReason, TransferWatch } from './watch';

/**
 * One HTTP attempt, for API calls and storage transfers alike: the only place that calls n8n's
 * HTTP helpers. API calls go through httpRequestWithAuthentication (the credential attaches the
 * key); storage calls through httpRequest, without the credential. Neither follows a redirect.
 * The attempt is bounded by its TransferWatch (deadline, idle time, low-speed limit, stop), and
 * the answer is read with a byte cap: a successful answer up to `maxBytes` (or handed over as a
 * stream, still watched), an error answer up to ANSWER_LIMITS.errorBodyBytes, a redirect not at
 * all. Past a cap, reading stops and the connection is closed: the rest is never buffered.
 */

export const CREDENTIAL_TYPE = 'documentExtractionApi';

interface SendOptions {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	headers: IDataObject;
	/** A JSON value (sent as JSON), or bytes for storage. */
	body?: IDataObject | IDataObject[] | Buffer | NodeJS.ReadableStream;
	/** API calls: the credential, read once, that n8n's helper attaches; storage calls: none. */
	credentials?: ICredentialsDecrypted;
	watch: TransferWatch;
	/** How a successful answer is returned: read whole (up to maxBytes), or as a stream. */
	answer: { mode: 'buffer'; maxBytes: number } | { mode: 'stream' };
}

export interface Answer {
	statusCode: number;
	statusMessage?: string;
	headers: IDataObject;
	/** The bytes read (error answers, buffered answers); empty for a redirect. */
	bytes: Buffer;
	/** A successful answer in stream mode, watched by the attempt's TransferWatch. */
	stream?: NodeJS.ReadableStream;
	/** An error answer longer than errorBodyBytes: only its beginning was read. */
	truncated?: boolean;
}

export type SendResult =
	| { ok: true; answer: Answer }
	| { ok: false; failure: 'network'; error: unknown }
	| { ok: false; failure: 'aborted'; reason: AbortReason }
	| { ok: false; failure: 'too-large'; limitBytes: number; statusCode: number; headers: IDataObject };

interface RawResponse {
	body: unknown;
	headers?: IDataObject;
	statusCode: number;
	statusMessage?: string;
}

interface ReadableLike {
	destroy?: (error?: Error) => void;
}

function destroy(body: unknown): void {
	(body as ReadableLike | undefined)?.destroy?.();
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Buffer | string> {
	return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

/** Reads a stream up to `maxBytes`; past it, stops and closes the stream. */
async function readCapped(body: unknown, maxBytes: number, keepHead: boolean): Promise<{ bytes: Buffer; truncated: boolean }> {
	if (typeof body === 'string') {
		const bytes = Buffer.from(body);
		return { bytes: bytes.subarray(0, maxBytes), truncated: bytes.length > maxBytes };
	}
	if (Buffer.isBuffer(body)) return { bytes: body.subarray(0, maxBytes), truncated: body.length > maxBytes };
	if (!isAsyncIterable(body)) return { bytes: Buffer.alloc(0), truncated: false };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		if (size + buffer.length > maxBytes) {
			destroy(body);
			if (!keepHead) {
				// Past the cap of a successful answer nothing of it is used: let it go at once
				// instead of copying what was read (which would double the memory at the cap).
				chunks.length = 0;
				return { bytes: Buffer.alloc(0), truncated: true };
			}
			chunks.push(buffer.subarray(0, maxBytes - size));
			size = maxBytes;
			return { bytes: Buffer.concat(chunks, size), truncated: true };
		}
		chunks.push(buffer);
		size += buffer.length;
	}
	return { bytes: Buffer.concat(chunks, size), truncated: false };
}

/**
 * The request options for n8n's helper. The attempt's abort signal is pinned on the object (a
 * getter and a setter that ignores writes) because n8n's httpRequestWithAuthentication overwrites
 * `requestOptions.abortSignal` with the execution's stop signal (`this.getExecutionCancelSignal()`)
 * before sending, and axios then gets only that one (`convertN8nRequestToAxios`):
 * - n8n 2.41.1 (n8n-core 2.41.1): httpRequestWithAuthentication in
 *   n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/authentication.js;
 * - n8n 1.123.81 (n8n-core 1.122.48): httpRequestWithAuthentication in
 *   n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js.
 * A plain property would let the deadline end our wait (the race in send) but not the request: its
 * connection would stay open until the execution is stopped or the server answers, one more per
 * attempt. The watch listens to the stop signal itself, so Stop still ends the request.
 * httpRequest (storage calls) leaves the signal alone. Guarded on both versions by
 * test/node/request-abort-signal.test.ts and test/e2e/abort-signal-suite.ts: a canary that fails
 * when n8n no longer replaces the signal, and a test that fails without this pin.
 */
function requestOptionsFor(options: SendOptions): IHttpRequestOptions {
	const isBytes = Buffer.isBuffer(options.body) || (options.body !== undefined && isAsyncIterable(options.body));
	const request: IHttpRequestOptions = {
		method: options.method,
		url: options.url,
		qs: options.qs,
		headers: { ...options.headers },
		body: options.body as IHttpRequestOptions['body'],
		json: !isBytes,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
	};
	const signal = options.watch.signal;
	Object.defineProperty(request, 'abortSignal', {
		get: () => signal,
		set: () => {},
		enumerable: true,
		configurable: true,
	});
	return request;
}

/** Sends one attempt and reads its answer within the watch's bounds and the byte caps. */
export async function send(context: ApiContext, options: SendOptions): Promise<SendResult> {
	const { watch } = options;
	if (watch.reason) return { ok: false, failure: 'aborted', reason: watch.reason };
	const request = requestOptionsFor(options);
	const sent = (
		options.credentials
			? context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, request, {
					credentialsDecrypted: options.credentials,
				})
			: context.helpers.httpRequest(request)
	) as Promise<RawResponse>;

	let raw: RawResponse;
	try {
		// The race ends the attempt at its bound even where a helper did not take the signal.
		raw = await Promise.race([sent, watch.aborted()]);
	} catch (error) {
		// An answer that arrives after the attempt was given up is closed unread.
		sent.then((late) => destroy(late?.body), () => undefined);
		if (watch.reason) return { ok: false, failure: 'aborted', reason: watch.reason };
		return { ok: false, failure: 'network', error };
	}
	watch.touch();
	const headers = (raw.headers ?? {}) as IDataObject;
	const statusCode = raw.statusCode;
	const answer = (bytes: Buffer, extra: Partial<Answer> = {}): SendResult => ({
		ok: true,
		answer: { statusCode, statusMessage: raw.statusMessage, headers, bytes, ...extra },
	});

	if (statusCode >= 300 && statusCode < 400) {
		destroy(raw.body);
		return answer(Buffer.alloc(0));
	}
	const success = statusCode >= 200 && statusCode < 300;
	if (success && options.answer.mode === 'stream') {
		watch.watch(raw.body);
		return answer(Buffer.alloc(0), { stream: raw.body as NodeJS.ReadableStream });
	}
	const maxBytes = success && options.answer.mode === 'buffer' ? options.answer.maxBytes : ANSWER_LIMITS.errorBodyBytes;
	const announced = Number(headers['content-length']);
	if (success && Number.isFinite(announced) && announced > maxBytes) {
		destroy(raw.body);
		return { ok: false, failure: 'too-large', limitBytes: maxBytes, statusCode, headers };
	}
	watch.watch(raw.body);
	try {
		// An error answer keeps its head (for the message); a successful one past its cap is dropped.
		const { bytes, truncated } = await readCapped(raw.body, maxBytes, !success);
		if (success && truncated) {
			return { ok: false, failure: 'too-large', limitBytes: maxBytes, statusCode, headers };
		}
		return answer(bytes, { truncated });
	} catch (error) {
		destroy(raw.body);
		if (watch.reason) return { ok: false, failure: 'aborted', reason: watch.reason };
		return { ok: false, failure: 'network', error };
	}
}
