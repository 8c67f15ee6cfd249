import { ManualClock, startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem } from './test-helpers';

describe('idempotency', () => {
	let emu: Emulator;
	let clock: ManualClock;
	beforeAll(async () => {
		clock = new ManualClock(Date.UTC(2026, 4, 1));
		emu = await startEmulator({ processingDelayMs: 0, clock });
	});
	afterAll(() => emu.close());

	const upload = { fileName: 'a.txt', fileType: 'text/plain' };

	test('the same key and body replay the original response with Idempotent-Replayed: true', async () => {
		const first = await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'idem-1' } });
		expect(first.headers.get('idempotent-replayed')).toBeNull();
		const uploadsBefore = emu.state.uploads.size;
		const replay = await call(emu, 'POST', '/files/upload', { body: { fileType: 'text/plain', fileName: 'a.txt' }, headers: { 'idempotency-key': 'idem-1' } });
		expect(replay.status).toBe(200);
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(replay.body).toEqual(first.body);
		expect(emu.state.uploads.size).toBe(uploadsBefore);
	});

	test('the same key with a different body answers 422', async () => {
		await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'idem-2' } });
		const reuse = await call(emu, 'POST', '/files/upload', { body: { ...upload, fileName: 'b.txt' }, headers: { 'idempotency-key': 'idem-2' } });
		expectProblem(reuse, 422, 'VALIDATION_FAILED');
		expect(reuse.body.errors[0]).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', parameter: 'Idempotency-Key' });
		const otherEndpoint = await call(emu, 'POST', '/directories', { body: { name: 'x' }, headers: { 'idempotency-key': 'idem-2' } });
		expect(otherEndpoint.body.errors[0].code).toBe('IDEMPOTENCY_KEY_REUSED');
	});

	test('a key over 255 characters answers 422; 255 is fine', async () => {
		const long = await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'k'.repeat(256) } });
		expectProblem(long, 422, 'VALIDATION_FAILED');
		expect(long.body.errors[0]).toMatchObject({ code: 'TOO_LONG', parameter: 'Idempotency-Key' });
		expect((await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'k'.repeat(255) } })).status).toBe(200);
	});

	test('keys expire after 24 hours (clock)', async () => {
		const first = await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'idem-3' } });
		clock.advance(24 * 3600_000 - 1);
		expect((await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'idem-3' } })).headers.get('idempotent-replayed')).toBe('true');
		clock.advance(1);
		const fresh = await call(emu, 'POST', '/files/upload', { body: upload, headers: { 'idempotency-key': 'idem-3' } });
		expect(fresh.headers.get('idempotent-replayed')).toBeNull();
		expect(fresh.body.uploadId).not.toBe(first.body.uploadId);
	});

	test('errors are not stored: a corrected retry with the same key runs', async () => {
		const bad = await call(emu, 'POST', '/directories', { body: {}, headers: { 'idempotency-key': 'idem-4' } });
		expect(bad.status).toBe(422);
		const retry = await call(emu, 'POST', '/directories', { body: {}, headers: { 'idempotency-key': 'idem-4' } });
		expect(retry.headers.get('idempotent-replayed')).toBeNull();
	});

	test('keys are per workspace', async () => {
		const a = await call(emu, 'POST', '/directories', { body: { name: 'shared' }, headers: { 'idempotency-key': 'idem-5' } });
		const b = await call(emu, 'POST', '/directories', { key: emu.keys.workspaceB, body: { name: 'shared' }, headers: { 'idempotency-key': 'idem-5' } });
		expect(b.headers.get('idempotent-replayed')).toBeNull();
		expect(b.body.directory.id).not.toBe(a.body.directory.id);
	});

	test('DELETE /files replays too, so a retried delete reports the same result', async () => {
		const missing = '00000000-0000-4000-8000-000000000000';
		const first = await call(emu, 'DELETE', '/files', { body: { fileIds: [missing] }, headers: { 'idempotency-key': 'idem-6' } });
		const replay = await call(emu, 'DELETE', '/files', { body: { fileIds: [missing] }, headers: { 'idempotency-key': 'idem-6' } });
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(replay.body).toEqual(first.body);
	});

	test('preview ignores the key', async () => {
		const a = await call(emu, 'POST', '/files/preview', { body: { s3Path: 'x' }, headers: { 'idempotency-key': 'p'.repeat(300) } });
		expect(a.body.errors[0].pointer).toBe('/s3Path');
	});
});

describe('rate limit and faults', () => {
	let emu: Emulator;
	let clock: ManualClock;
	beforeAll(async () => {
		clock = new ManualClock(Date.UTC(2026, 4, 1));
		emu = await startEmulator({ processingDelayMs: 0, clock, rateLimit: { limit: 3, windowMs: 10_000 } });
	});
	afterAll(() => emu.close());

	test('over the per-key budget: 429 with retryAfter and Retry-After; other keys unaffected; window follows the clock', async () => {
		for (let index = 0; index < 3; index++) expect((await call(emu, 'GET', '/subscription')).status).toBe(200);
		clock.advance(2_500);
		const limited = await call(emu, 'GET', '/subscription');
		expectProblem(limited, 429, 'RATE_LIMIT_EXCEEDED');
		expect(limited.body.retryAfter).toBe(8);
		expect(limited.headers.get('retry-after')).toBe('8');
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).status).toBe(200);
		clock.advance(7_500);
		expect((await call(emu, 'GET', '/subscription')).status).toBe(200);
		emu.setRateLimit(undefined);
		for (let index = 0; index < 5; index++) expect((await call(emu, 'GET', '/subscription')).status).toBe(200);
	});

	test('failNext answers the status count times for matching requests only', async () => {
		emu.faults.failNext({ method: 'GET', path: '/files', count: 2, status: 503 });
		expect((await call(emu, 'GET', '/subscription')).status).toBe(200);
		const first = await call(emu, 'GET', '/files');
		expectProblem(first, 503, 'SERVICE_UNAVAILABLE');
		expect((await call(emu, 'GET', '/files')).status).toBe(503);
		expect((await call(emu, 'GET', '/files')).status).toBe(200);
		expect(emu.requests.filter((entry) => entry.fault === 'fail')).toHaveLength(2);
	});

	test('failNext with 429 and retryAfter, matched by RegExp, acts before auth', async () => {
		emu.faults.failNext({ path: /\/uploads\//, status: 429, retryAfter: 3 });
		const reply = await call(emu, 'GET', '/uploads/00000000-0000-4000-8000-000000000000', { key: null });
		expectProblem(reply, 429, 'RATE_LIMIT_EXCEEDED');
		expect(reply.body.retryAfter).toBe(3);
		expect(reply.headers.get('retry-after')).toBe('3');
	});

	test('delayNext holds matching requests while others pass', async () => {
		emu.faults.delayNext({ path: '/subscription', delayMs: 300 });
		const finished: string[] = [];
		const delayed = call(emu, 'GET', '/subscription').then((reply) => finished.push(`subscription ${reply.status}`));
		await new Promise((resolve) => setTimeout(resolve, 20));
		await call(emu, 'GET', '/project/setting').then((reply) => finished.push(`setting ${reply.status}`));
		await delayed;
		expect(finished).toEqual(['setting 200', 'subscription 200']);
		expect(emu.requests.find((entry) => entry.path === '/prod/v1/subscription' && entry.fault === 'delay')).toBeDefined();
	});

	test('resetConnectionNext destroys the socket of an API request', async () => {
		emu.faults.resetConnectionNext({ method: 'POST', path: '/directories' });
		await expect(call(emu, 'POST', '/directories', { body: { name: 'never' } })).rejects.toThrow();
		expect([...emu.state.directories.values()].some((directory) => directory.name === 'never')).toBe(false);
		expect((await call(emu, 'POST', '/directories', { body: { name: 'after' } })).status).toBe(200);
	});

	test("phase 'after': the request is handled, the reply lost; a retry with the same Idempotency-Key replays it", async () => {
		const body = { fileName: 'lost.txt', fileType: 'text/plain' };
		const uploadsBefore = emu.state.uploads.size;
		emu.faults.failNext({ method: 'POST', path: '/files/upload', status: 503, phase: 'after' });
		const lost = await call(emu, 'POST', '/files/upload', { body, headers: { 'idempotency-key': 'lost-1' } });
		expectProblem(lost, 503, 'SERVICE_UNAVAILABLE');
		expect(emu.state.uploads.size).toBe(uploadsBefore + 1);
		const retry = await call(emu, 'POST', '/files/upload', { body, headers: { 'idempotency-key': 'lost-1' } });
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect(emu.state.uploads.size).toBe(uploadsBefore + 1);

		emu.faults.resetConnectionNext({ method: 'POST', path: '/directories', phase: 'after' });
		await expect(call(emu, 'POST', '/directories', { body: { name: 'reset-after' }, headers: { 'idempotency-key': 'lost-2' } })).rejects.toThrow();
		expect([...emu.state.directories.values()].filter((directory) => directory.name === 'reset-after')).toHaveLength(1);
		const again = await call(emu, 'POST', '/directories', { body: { name: 'reset-after' }, headers: { 'idempotency-key': 'lost-2' } });
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect([...emu.state.directories.values()].filter((directory) => directory.name === 'reset-after')).toHaveLength(1);
	});

	test('a storage fault answers S3-style XML with Retry-After', async () => {
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 's.txt', fileType: 'text/plain' } });
		emu.faults.failNext({ host: 'storage', method: 'PUT', status: 503, retryAfter: 1 });
		const failed = await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: S\n' });
		expect(failed.status).toBe(503);
		expect(failed.headers.get('retry-after')).toBe('1');
		expect(await failed.text()).toContain('<Code>SlowDown</Code>');
		expect((await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: S\n' })).status).toBe(200);
	});

	test('pending() lists faults and clear() removes them', async () => {
		emu.faults.failNext({ path: '/never', count: 4, status: 500 });
		expect(emu.faults.pending().fail).toEqual([expect.objectContaining({ path: '/never', count: 4, status: 500 })]);
		emu.faults.clear();
		expect(emu.faults.pending()).toEqual({ fail: [], delay: [], reset: [], redirect: [], hang: [], rewrite: [], trickle: [], huge: [], ignorePage: [], partPlan: [], edit: [], repeatId: [] });
	});

	test('405 for a known path with the wrong method', async () => {
		expectProblem(await call(emu, 'PUT', '/files'), 405, 'METHOD_NOT_ALLOWED');
	});

	test('a non-JSON body answers 415', async () => {
		const reply = await call(emu, 'POST', '/directories', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expectProblem(reply, 415, 'UNSUPPORTED_MEDIA_TYPE');
	});
});
