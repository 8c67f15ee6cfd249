import { startEmulator, type Emulator, type FailFault } from '../../dev/emulator/index';
import { call, expectProblem, type Json } from './test-helpers';

describe('exact 429 / Retry-After shapes of fail faults', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	async function failOnce(fault: Omit<FailFault, 'path' | 'status'>) {
		emu.faults.failNext({ path: '/subscription', status: 429, ...fault });
		const reply = await call(emu, 'GET', '/subscription');
		expectProblem(reply, 429, 'RATE_LIMIT_EXCEEDED');
		return reply;
	}

	test('without the new fields, retryAfter sets both as before', async () => {
		const reply = await failOnce({ retryAfter: 7 });
		expect(reply.body.retryAfter).toBe(7);
		expect(reply.headers.get('retry-after')).toBe('7');
		const bare = await failOnce({});
		expect('retryAfter' in bare.body).toBe(false);
		expect(bare.headers.get('retry-after')).toBeNull();
	});

	test.each<[string, unknown]>([
		['a number', 3],
		['zero', 0],
		['a negative number', -5],
		['a fraction', 0.25],
		['a string', 'soon'],
		['a numeric string', '3'],
		['null', null],
		['an object', { seconds: 3 }],
	])('retryAfterBody %s is put in the body as is', async (_name, value) => {
		const reply = await failOnce({ retryAfterBody: value });
		expect(reply.body.retryAfter).toEqual(value);
		expect(reply.headers.get('retry-after')).toBeNull();
	});

	test("retryAfterBody undefined (key present) or '(omit)' leaves retryAfter out, even with retryAfter set", async () => {
		for (const fault of [{ retryAfterBody: undefined }, { retryAfterBody: '(omit)' }, { retryAfter: 4, retryAfterBody: '(omit)' }]) {
			const reply = await failOnce(fault);
			expect(Object.keys(reply.body)).not.toContain('retryAfter');
		}
	});

	test.each(['0', '-5', 'soon', '1.5', '', 'Wed, 21 Oct 2015 07:28:00 GMT', new Date(Date.now() + 3_600_000).toUTCString()])(
		'retryAfterHeader %j is sent exactly',
		async (text) => {
			const reply = await failOnce({ retryAfterHeader: text });
			expect(reply.headers.get('retry-after')).toBe(text);
			expect('retryAfter' in reply.body).toBe(false);
		},
	);

	test("one new field given: the other still follows retryAfter; '(omit)' drops the header", async () => {
		const bodyOnly = await failOnce({ retryAfter: 5, retryAfterBody: 'soon' });
		expect(bodyOnly.body.retryAfter).toBe('soon');
		expect(bodyOnly.headers.get('retry-after')).toBe('5');
		const headerOnly = await failOnce({ retryAfter: 5, retryAfterHeader: '-1' });
		expect(headerOnly.body.retryAfter).toBe(5);
		expect(headerOnly.headers.get('retry-after')).toBe('-1');
		const noHeader = await failOnce({ retryAfter: 5, retryAfterHeader: '(omit)' });
		expect(noHeader.body.retryAfter).toBe(5);
		expect(noHeader.headers.get('retry-after')).toBeNull();
	});

	test('the storage host (S3-style XML) honours retryAfterHeader', async () => {
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'r.txt', fileType: 'text/plain' } });
		emu.faults.failNext({ host: 'storage', method: 'PUT', status: 503, retryAfter: 9, retryAfterHeader: 'soon' });
		const failed = await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'x' });
		expect(failed.status).toBe(503);
		expect(failed.headers.get('retry-after')).toBe('soon');
		expect(await failed.text()).toContain('<Code>SlowDown</Code>');
	});

	test('over HTTP: retryAfterBody (any JSON value, "(omit)") and retryAfterHeader in POST /__emulator/faults/fail', async () => {
		const post = (body: Json) => fetch(`${emu.apiUrl}/__emulator/faults/fail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		expect((await post({ path: '/subscription', status: 429, retryAfterBody: null, retryAfterHeader: 'Wed, 21 Oct 2015 07:28:00 GMT' })).status).toBe(200);
		const first = await call(emu, 'GET', '/subscription');
		expect(first.body.retryAfter).toBeNull();
		expect(first.headers.get('retry-after')).toBe('Wed, 21 Oct 2015 07:28:00 GMT');
		await post({ path: '/subscription', status: 429, retryAfter: 2, retryAfterBody: '(omit)' });
		const second = await call(emu, 'GET', '/subscription');
		expect('retryAfter' in second.body).toBe(false);
		expect(second.headers.get('retry-after')).toBe('2');
		await post({ path: '/subscription', status: 429, retryAfterBody: -3 });
		expect((await call(emu, 'GET', '/subscription')).body.retryAfter).toBe(-3);
	});
});
