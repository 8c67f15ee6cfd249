import { startEmulator, waitForRequest, type Emulator, type RequestLogEntry } from '../../dev/emulator/index';
import { call, observe, uploadAndGetFile } from './test-helpers';

function directoryNamed(emu: Emulator, name: string) {
	return [...emu.state.directories.values()].filter((directory) => directory.name === name);
}

function postDirectory(emu: Emulator, name: string, forMs = 400) {
	const body = JSON.stringify({ name });
	return observe(`${emu.apiUrl}/prod/v1/directories`, {
		method: 'POST',
		headers: { 'x-api-key': emu.keys.readWrite, 'content-type': 'application/json' },
		body,
		forMs,
	});
}

describe('hang faults', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test("'no-answer' (default): the body is read, nothing is sent, nothing changes; the entry settles at 0 when the client gives up", async () => {
		emu.faults.hangNext({ method: 'POST', path: '/directories' });
		const settled = waitForRequest(emu, (entry) => entry.fault === 'hang' && entry.durationMs !== undefined);
		const seen = await postDirectory(emu, 'never-answered');
		expect(seen.outcome).toBe('open');
		expect(seen.status).toBeUndefined();
		const entry = await settled;
		expect(entry).toMatchObject({ host: 'api', method: 'POST', path: '/prod/v1/directories', status: 0, bodyBytes: JSON.stringify({ name: 'never-answered' }).length });
		expect(directoryNamed(emu, 'never-answered')).toHaveLength(0);
		expect((await call(emu, 'POST', '/directories', { body: { name: 'answered' } })).status).toBe(200);
	});

	test("'stall-body': handled, then the status line, the real Content-Length and half the body; the socket stays open", async () => {
		emu.faults.hangNext({ method: 'POST', path: '/directories', mode: 'stall-body' });
		const seen = await postDirectory(emu, 'stalled');
		expect(seen.outcome).toBe('open');
		expect(seen.status).toBe(200);
		const declared = Number(seen.headers?.['content-length']);
		expect(declared).toBeGreaterThan(0);
		expect(seen.body.length).toBe(Math.floor(declared / 2));
		expect(seen.body.toString('utf8')).toMatch(/^\{"success":true,"directory":\{"id":"[0-9a-f]{24}","name":"stalled"/);
		expect(directoryNamed(emu, 'stalled')).toHaveLength(1);
		const entry = await waitForRequest(emu, (candidate) => candidate.fault === 'hang' && candidate.path === '/prod/v1/directories' && candidate.status === 200);
		expect(entry.requestId).toBe(seen.headers?.['x-request-id']);
	});

	test("'stall-body' with afterBytes sends exactly that many body bytes", async () => {
		const whole = await observe(`${emu.apiUrl}/prod/v1/project/setting`, { headers: { 'x-api-key': emu.keys.readWrite }, forMs: 5000 });
		expect(whole.outcome).toBe('ended');
		emu.faults.hangNext({ method: 'GET', path: '/project/setting', mode: 'stall-body', afterBytes: 5 });
		const seen = await observe(`${emu.apiUrl}/prod/v1/project/setting`, { headers: { 'x-api-key': emu.keys.readWrite }, forMs: 300 });
		expect(seen).toMatchObject({ status: 200, outcome: 'open' });
		expect(seen.body).toEqual(whole.body.subarray(0, 5));
		expect(Number(seen.headers?.['content-length'])).toBe(whole.body.length);
	});

	test("'close-body': the same bytes, then the socket is destroyed before the declared length", async () => {
		emu.faults.hangNext({ method: 'POST', path: '/directories', mode: 'close-body', afterBytes: 10 });
		const seen = await postDirectory(emu, 'cut', 5000);
		expect(seen).toMatchObject({ status: 200, outcome: 'closed' });
		expect(seen.body.length).toBe(10);
		expect(Number(seen.headers?.['content-length'])).toBeGreaterThan(10);
		expect(directoryNamed(emu, 'cut')).toHaveLength(1);
	});

	test('a storage GET (preview download) sends the headers and the first afterBytes bytes of the object, then stalls or closes', async () => {
		const content = `Invoice Number: HANG-1\n${'x'.repeat(200_000)}\n`;
		const file = await uploadAndGetFile(emu, 'hang.txt', content);
		const preview = await call(emu, 'POST', '/files/preview', { body: { s3Path: file.fileStoragePath } });
		emu.faults.hangNext({ host: 'storage', method: 'GET', mode: 'stall-body', afterBytes: 70_000 });
		const stalled = await observe(preview.body.signedUrl, { forMs: 500 });
		expect(stalled).toMatchObject({ status: 200, outcome: 'open' });
		expect(Number(stalled.headers?.['content-length'])).toBe(Buffer.byteLength(content));
		expect(stalled.body.toString('utf8')).toBe(content.slice(0, 70_000));

		emu.faults.hangNext({ host: 'storage', method: 'GET', mode: 'close-body' });
		const closed = await observe(preview.body.signedUrl, { forMs: 5000 });
		expect(closed).toMatchObject({ status: 200, outcome: 'closed' });
		expect(closed.body.toString('utf8')).toBe(content.slice(0, Math.floor(Buffer.byteLength(content) / 2)));

		const whole = await observe(preview.body.signedUrl, { forMs: 5000 });
		expect(whole.outcome).toBe('ended');
		expect(whole.body.toString('utf8')).toBe(content);
	});

	test("a storage PUT: 'no-answer' stores nothing; 'stall-body' stores and processes the file (its empty body leaves the answer complete)", async () => {
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'put.txt', fileType: 'text/plain' } });
		const bytes = 'Invoice Number: PUT-HANG\n';
		emu.faults.hangNext({ host: 'storage', method: 'PUT' });
		const unanswered = await observe(upload.body.presignedUploadURL, { method: 'PUT', body: bytes, forMs: 300 });
		expect(unanswered.outcome).toBe('open');
		expect(unanswered.status).toBeUndefined();
		expect(emu.state.uploads.get(upload.body.uploadId)?.fileIds).toEqual([]);
		const logged = await waitForRequest(emu, (entry) => entry.host === 'storage' && entry.method === 'PUT' && entry.fault === 'hang');
		expect(logged.bodyBytes).toBe(bytes.length);

		emu.faults.hangNext({ host: 'storage', method: 'PUT', mode: 'stall-body' });
		const stalled = await observe(upload.body.presignedUploadURL, { method: 'PUT', body: bytes, forMs: 300 });
		expect(stalled).toMatchObject({ status: 200, outcome: 'ended' });
		await emu.idle();
		expect(emu.state.uploads.get(upload.body.uploadId)?.fileIds).toHaveLength(1);
	});

	test('over HTTP: POST /__emulator/faults/hang', async () => {
		const set = await fetch(`${emu.apiUrl}/__emulator/faults/hang`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ method: 'GET', path: '/project/setting', mode: 'stall-body', afterBytes: 1 }),
		});
		expect(set.status).toBe(200);
		expect(emu.faults.pending().hang).toEqual([expect.objectContaining({ path: '/project/setting', mode: 'stall-body', afterBytes: 1, count: 1 })]);
		const seen = await observe(`${emu.apiUrl}/prod/v1/project/setting`, { headers: { 'x-api-key': emu.keys.readWrite }, forMs: 300 });
		expect(seen).toMatchObject({ status: 200, outcome: 'open' });
		expect(seen.body.toString('utf8')).toBe('{');
		const invalid = await fetch(`${emu.apiUrl}/__emulator/faults/hang`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'forever' }) });
		expect(invalid.status).toBe(400);
	});
});

describe('close() with requests held open by hang faults', () => {
	test('finishes without waiting for the held requests: no client has to give up, each sees its connection close', async () => {
		const emu = await startEmulator({ processingDelayMs: 0 });
		emu.faults.hangNext({ host: 'api', path: '/subscription' });
		emu.faults.hangNext({ host: 'api', path: '/project/setting', mode: 'stall-body' });
		emu.faults.hangNext({ host: 'trap' });
		const headers = { 'x-api-key': emu.keys.readWrite };
		// A client gives up on its own after 20 s ('open'): counted, not timed. close() that waited
		// for its held requests would resolve only after all three had given up.
		let gaveUpBeforeClose = 0;
		let closeResolved = false;
		const watching = [
			observe(`${emu.apiUrl}/prod/v1/subscription`, { headers, forMs: 20_000 }),
			observe(`${emu.apiUrl}/prod/v1/project/setting`, { headers, forMs: 20_000 }),
			observe(`${emu.trapUrl}/anything`, { forMs: 20_000 }),
		].map(async (observed) => {
			const seen = await observed;
			if (seen.outcome === 'open' && !closeResolved) gaveUpBeforeClose++;
			return seen;
		});
		await waitForRequest(emu, (entry) => entry.path === '/prod/v1/subscription');
		await waitForRequest(emu, (entry) => entry.path === '/prod/v1/project/setting' && entry.status === 200);
		await waitForRequest(emu, (entry) => entry.host === 'trap');
		await emu.close();
		closeResolved = true;
		expect(gaveUpBeforeClose).toBe(0);
		const outcomes = await Promise.all(watching);
		expect(outcomes.map((seen) => seen.outcome)).toEqual(['closed', 'closed', 'closed']);
	});
});

describe('events and waitForRequest', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test("'request' fires on arrival with the fault already set, 'response' when the status is settled", async () => {
		const arrivals: Array<Pick<RequestLogEntry, 'host' | 'path' | 'status' | 'fault'>> = [];
		const answers: Array<Pick<RequestLogEntry, 'host' | 'path' | 'status'>> = [];
		const onRequest = (entry: RequestLogEntry) => arrivals.push({ host: entry.host, path: entry.path, status: entry.status, fault: entry.fault });
		const onResponse = (entry: RequestLogEntry) => answers.push({ host: entry.host, path: entry.path, status: entry.status });
		emu.events.on('request', onRequest);
		emu.events.on('response', onResponse);
		try {
			emu.faults.failNext({ path: '/files', status: 503 });
			expect((await call(emu, 'GET', '/files')).status).toBe(503);
			expect((await call(emu, 'GET', '/subscription')).status).toBe(200);
			await fetch(`${emu.trapUrl}/t`);
			await waitForRequest(emu, (entry) => entry.host === 'trap' && entry.status === 200);
		} finally {
			emu.events.off('request', onRequest);
			emu.events.off('response', onResponse);
		}
		expect(arrivals).toEqual([
			{ host: 'api', path: '/prod/v1/files', status: 0, fault: 'fail' },
			{ host: 'api', path: '/prod/v1/subscription', status: 0, fault: undefined },
			{ host: 'trap', path: '/t', status: 0, fault: undefined },
		]);
		expect(answers).toEqual([
			{ host: 'api', path: '/prod/v1/files', status: 503 },
			{ host: 'api', path: '/prod/v1/subscription', status: 200 },
			{ host: 'trap', path: '/t', status: 200 },
		]);
	});

	test("a reset connection settles at status 0 with a 'response' event", async () => {
		emu.faults.resetConnectionNext({ method: 'POST', path: '/directories', afterBytes: 0 });
		const settled = new Promise<RequestLogEntry>((resolve) => emu.events.once('response', resolve));
		await expect(call(emu, 'POST', '/directories', { body: { name: 'reset' } })).rejects.toThrow();
		expect(await settled).toMatchObject({ fault: 'reset', status: 0, durationMs: expect.any(Number) });
	});

	test('waitForRequest resolves with an entry already in the log', async () => {
		await call(emu, 'GET', '/file-type');
		const entry = await waitForRequest(emu, (candidate) => candidate.path === '/prod/v1/file-type');
		expect(entry).toMatchObject({ method: 'GET', status: 200 });
	});

	test('waitForRequest resolves with a request arriving later, or one whose status settles later', async () => {
		const arriving = waitForRequest(emu, (entry) => entry.path === '/prod/v1/workflows/0123456789abcdef01234567');
		const settling = waitForRequest(emu, (entry) => entry.path === '/prod/v1/project/setting' && entry.status === 200 && entry.fault === 'delay');
		emu.faults.delayNext({ path: '/project/setting', delayMs: 100 });
		await Promise.all([call(emu, 'GET', '/workflows/0123456789abcdef01234567'), call(emu, 'GET', '/project/setting')]);
		expect((await arriving).method).toBe('GET');
		expect((await settling).durationMs).toBeGreaterThanOrEqual(90);
		expect(emu.events.listenerCount('request')).toBe(0);
		expect(emu.events.listenerCount('response')).toBe(0);
	});

	test('waitForRequest rejects with a clear message after timeoutMs and removes its listeners', async () => {
		await expect(waitForRequest(emu, (entry) => entry.path === '/never', { timeoutMs: 50 })).rejects.toThrow(
			/^waitForRequest: no request matched within 50 ms \(\d+ logged, the last: .*api GET \/prod\/v1\/project\/setting 200 \(delay\)\)$/,
		);
		expect(emu.events.listenerCount('request')).toBe(0);
		expect(emu.events.listenerCount('response')).toBe(0);
	});
});
