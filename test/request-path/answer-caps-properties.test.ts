/**
 * The one HTTP attempt (nodes/shared/transport/http.ts `send`) reads what the service sends with
 * byte caps. Over generated answers (any status, a Content-Length that is right, short, long,
 * huge, negative or not a number, bodies in chunks of any size, as a stream, a string or a buffer,
 * a body that breaks off), with n8n's helper replaced by one that hands the generated answer over
 * and counts every byte pulled from it:
 *  - what is pulled from a successful answer is at most the cap plus the one chunk that crossed it,
 *    and none of it when its Content-Length already says it is too large;
 *  - what is pulled from an error answer is at most 64 KB plus one chunk, and none of a redirect;
 *  - what `send` returns holds at most the cap (the error cap for an error answer); an answer
 *    within the cap comes back whole and unchanged;
 *  - an answer past its cap is closed (destroyed), never drained; `send` never throws.
 * Fixed seed in `npm test`; FUZZ_RUNS / FUZZ_SEED (npm run fuzz) for long runs.
 */
import fc from 'fast-check';

import { ANSWER_LIMITS } from '../../nodes/shared/limits';
import type { ApiContext } from '../../nodes/shared/run/context';
import { send } from '../../nodes/shared/transport/http';
import { TransferWatch } from '../../nodes/shared/transport/watch';
import { LONG_RUN, fuzzParameters } from '../fuzz/runs';

interface GeneratedAnswer {
	statusCode: number;
	contentLength: 'right' | 'absent' | 'short' | 'long' | 'huge' | 'negative' | 'text' | 'two values';
	shape: 'stream' | 'string' | 'buffer' | 'none';
	chunks: number[];
	breaksAfter?: number;
	cap: number;
}

const answers: fc.Arbitrary<GeneratedAnswer> = fc.record(
	{
		statusCode: fc.oneof(
			fc.constantFrom(200, 201, 204, 206, 301, 302, 303, 307, 308, 400, 401, 403, 404, 408, 413, 422, 429, 500, 501, 502, 503, 504, 599),
			fc.integer({ min: 100, max: 999 }),
		),
		contentLength: fc.constantFrom('right', 'absent', 'short', 'long', 'huge', 'negative', 'text', 'two values'),
		shape: fc.constantFrom('stream', 'stream', 'stream', 'string', 'buffer', 'none'),
		chunks: fc.array(fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 48 * 1024 })), { maxLength: 12 }),
		breaksAfter: fc.nat({ max: 12 }),
		cap: fc.oneof(fc.integer({ min: 0, max: 2048 }), fc.integer({ min: 1, max: 200 * 1024 })),
	},
	{ requiredKeys: ['statusCode', 'contentLength', 'shape', 'chunks', 'cap'] },
);

/** An async-iterable body that counts what is pulled from it (no read-ahead), as a socket would be read. */
class CountingBody implements AsyncIterable<Buffer> {
	pulled = 0;
	largestChunk = 0;
	destroyed = false;

	constructor(
		private readonly chunks: Buffer[],
		private readonly breaksAfter: number | undefined,
	) {
		for (const chunk of chunks) this.largestChunk = Math.max(this.largestChunk, chunk.length);
	}

	destroy(): void {
		this.destroyed = true;
	}

	async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
		for (const [index, chunk] of this.chunks.entries()) {
			if (this.destroyed) return;
			if (this.breaksAfter !== undefined && index === this.breaksAfter) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			this.pulled += chunk.length;
			yield chunk;
		}
	}
}

function contentLengthOf(kind: GeneratedAnswer['contentLength'], total: number): unknown {
	switch (kind) {
		case 'right':
			return String(total);
		case 'absent':
			return undefined;
		case 'short':
			return String(Math.max(0, Math.floor(total / 2)));
		case 'long':
			return String(total * 2 + 1);
		case 'huge':
			return '99999999999999999999';
		case 'negative':
			return '-1';
		case 'text':
			return 'many';
		case 'two values':
			return [String(total), '1'];
	}
}

const NODE = { id: 'n', name: 'Document Extraction', type: 'documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} };

describe('one HTTP attempt reads any answer within its byte caps', () => {
	it('pulls at most the cap plus one chunk, returns at most the cap, and closes what passes it', async () => {
		await fc.assert(
			fc.asyncProperty(answers, async (generated) => {
				const chunks = generated.chunks.map((size, index) => Buffer.alloc(size, 97 + (index % 26)));
				const whole = Buffer.concat(chunks);
				const counting = new CountingBody(chunks, generated.shape === 'stream' ? generated.breaksAfter : undefined);
				const body = generated.shape === 'stream' ? counting : generated.shape === 'string' ? whole.toString('latin1') : generated.shape === 'buffer' ? whole : undefined;
				const contentLength = contentLengthOf(generated.contentLength, whole.length);
				const headers = contentLength === undefined ? {} : { 'content-length': contentLength };
				const context = {
					getNode: () => NODE,
					helpers: { httpRequest: async () => ({ statusCode: generated.statusCode, headers, body }) },
				} as unknown as ApiContext;
				const watch = new TransferWatch({ deadlineMs: 60_000 });
				let result;
				try {
					result = await send(context, { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {}, watch, answer: { mode: 'buffer', maxBytes: generated.cap } });
				} finally {
					watch.stop();
				}

				const status = generated.statusCode;
				const success = status >= 200 && status < 300;
				const redirect = status >= 300 && status < 400;
				const cap = success ? generated.cap : ANSWER_LIMITS.errorBodyBytes;
				// Pulled: never past the cap by more than the chunk that crossed it.
				expect(counting.pulled).toBeLessThanOrEqual(cap + counting.largestChunk);
				if (redirect) expect(counting.pulled).toBe(0);
				const announced = Number(Array.isArray(contentLength) ? NaN : contentLength);
				if (success && Number.isFinite(announced) && announced > generated.cap) {
					expect(counting.pulled).toBe(0);
					expect(result).toMatchObject({ ok: false, failure: 'too-large' });
				}
				const readable = generated.shape !== 'stream' || generated.breaksAfter === undefined || generated.breaksAfter >= chunks.length;
				if (result.ok) {
					// Returned: within the cap, and an answer within it whole.
					expect(result.answer.bytes.length).toBeLessThanOrEqual(cap);
					if (!redirect && body !== undefined && whole.length <= cap) expect(result.answer.bytes.equals(whole)).toBe(true);
					if (!redirect && body !== undefined && whole.length > cap) expect(result.answer.truncated).toBe(true);
				} else if (result.failure === 'too-large') {
					expect(success).toBe(true);
					if (generated.shape === 'stream') expect(counting.destroyed || counting.pulled === 0).toBe(true);
				} else {
					// Only a body that breaks off fails otherwise: as a network failure.
					expect(readable).toBe(false);
					expect(result.failure).toBe('network');
				}
				// A body past the cap is closed, not drained.
				if (generated.shape === 'stream' && whole.length > cap && readable && !redirect) {
					expect(counting.destroyed).toBe(true);
				}
			}),
			fuzzParameters(400),
		);
	}, LONG_RUN ? 3_600_000 : 60_000);
});
