import { request } from 'node:http';
import { keyLeaks, requestsCarrying, startEmulator, waitForRequest, type Emulator } from '../../dev/emulator/index';
import { call, type Json } from './test-helpers';

async function control(emu: Emulator, path: string, body: unknown): Promise<{ status: number; body: Json }> {
	const response = await fetch(`${emu.apiUrl}/__emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: response.status, body: await response.json() };
}

/** A GET with headers fetch would refuse or merge (repeated names). */
function rawGet(url: string, headers: Record<string, string | string[]>): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = request(url, { headers, agent: false }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end();
	});
}

describe('the trap host', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('answers 200 {"trap": true} to anything and logs it with host trap', async () => {
		expect(emu.trapUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(emu.trapUrl).not.toBe(emu.apiUrl);
		expect(emu.trapUrl).not.toBe(emu.storageUrl);
		const reply = await fetch(`${emu.trapUrl}/some/where?a=1&b=x%20y`, { method: 'POST', headers: { 'X-Custom': 'Value' }, body: 'hello' });
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await reply.json()).toEqual({ trap: true });
		const entry = await waitForRequest(emu, (candidate) => candidate.host === 'trap' && candidate.path === '/some/where' && candidate.status === 200);
		expect(entry).toMatchObject({ method: 'POST', query: { a: '1', b: 'x y' }, rawQuery: 'a=1&b=x%20y', bodyBytes: 5, headers: { 'x-custom': 'Value' } });
		expect(entry.rawHeaders).toEqual(expect.arrayContaining(['X-Custom', 'Value']));
	});

	test('a fault may target it', async () => {
		emu.faults.failNext({ host: 'trap', status: 503 });
		expect((await fetch(`${emu.trapUrl}/x`)).status).toBe(503);
		expect((await fetch(`${emu.trapUrl}/x`)).status).toBe(200);
		expect(emu.requests.filter((entry) => entry.host === 'trap' && entry.fault === 'fail')).toHaveLength(1);
	});

	test('startEmulator({ trapPort }) picks its port', async () => {
		const other = await startEmulator({ processingDelayMs: 0, trapPort: 0 });
		const port = Number(new URL(other.trapUrl).port);
		await other.close();
		const fixed = await startEmulator({ processingDelayMs: 0, trapPort: port });
		try {
			expect(fixed.trapUrl).toBe(`http://127.0.0.1:${port}`);
		} finally {
			await fixed.close();
		}
	});
});

describe('redirect fault', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('default: 302 to the trap host with the same path and query; the request is not handled', async () => {
		emu.faults.redirectNext({ method: 'GET', path: '/files' });
		const reply = await fetch(`${emu.apiUrl}/prod/v1/files?limit=5&sortOrder=DESC`, { headers: { 'x-api-key': emu.keys.readWrite }, redirect: 'manual' });
		expect(reply.status).toBe(302);
		expect(reply.headers.get('location')).toBe(`${emu.trapUrl}/prod/v1/files?limit=5&sortOrder=DESC`);
		const entry = await waitForRequest(emu, (candidate) => candidate.fault === 'redirect' && candidate.status === 302);
		expect(entry).toMatchObject({ host: 'api', path: '/prod/v1/files' });
		expect((await call(emu, 'GET', '/files')).status).toBe(200);
	});

	test('a client that follows it carries the key to the trap; keyLeaks sees it', async () => {
		emu.requests.length = 0;
		emu.faults.redirectNext({ path: '/subscription' });
		const reply = await fetch(`${emu.apiUrl}/prod/v1/subscription`, { headers: { 'x-api-key': emu.keys.readWrite } });
		expect(await reply.json()).toEqual({ trap: true });
		const leaks = keyLeaks(emu, emu.keys.readWrite);
		expect(leaks).toEqual([expect.objectContaining({ host: 'trap', path: '/prod/v1/subscription' })]);
		expect(requestsCarrying(emu, emu.keys.readWrite).map((entry) => entry.host)).toEqual(['api', 'trap']);
	});

	test('status and location are chosen; a POST redirected creates nothing', async () => {
		const uploadsBefore = emu.state.uploads.size;
		emu.faults.redirectNext({ method: 'POST', path: '/files/upload', status: 307, location: 'https://elsewhere.example.com/upload' });
		const reply = await fetch(`${emu.apiUrl}/prod/v1/files/upload`, {
			method: 'POST',
			headers: { 'x-api-key': emu.keys.readWrite, 'content-type': 'application/json' },
			body: JSON.stringify({ fileName: 'a.txt', fileType: 'text/plain' }),
			redirect: 'manual',
		});
		expect(reply.status).toBe(307);
		expect(reply.headers.get('location')).toBe('https://elsewhere.example.com/upload');
		expect(emu.state.uploads.size).toBe(uploadsBefore);
	});

	test('on the storage host: a redirected PUT stores nothing; a client following a 307 sends the bytes to the trap', async () => {
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'r.txt', fileType: 'text/plain' } });
		const url = new URL(upload.body.presignedUploadURL);
		emu.faults.redirectNext({ host: 'storage', method: 'PUT', status: 307 });
		const manual = await fetch(url, { method: 'PUT', body: 'Invoice Number: R-1\n', redirect: 'manual' });
		expect(manual.status).toBe(307);
		expect(manual.headers.get('location')).toBe(`${emu.trapUrl}${url.pathname}${url.search}`);
		expect(emu.state.uploads.get(upload.body.uploadId)?.fileIds).toEqual([]);

		emu.faults.redirectNext({ host: 'storage', method: 'PUT', status: 307 });
		const followed = await fetch(url, { method: 'PUT', body: 'Invoice Number: R-1\n' });
		expect(await followed.json()).toEqual({ trap: true });
		const atTrap = await waitForRequest(emu, (entry) => entry.host === 'trap' && entry.method === 'PUT' && entry.status === 200);
		expect(atTrap).toMatchObject({ path: url.pathname, rawQuery: url.search.slice(1), bodyBytes: 'Invoice Number: R-1\n'.length });
		expect(emu.state.uploads.get(upload.body.uploadId)?.fileIds).toEqual([]);
	});

	test('over HTTP: POST /__emulator/faults/redirect', async () => {
		expect((await control(emu, '/faults/redirect', { path: '/project/setting', status: 308, location: '/elsewhere' })).status).toBe(200);
		expect(emu.faults.pending().redirect).toEqual([expect.objectContaining({ path: '/project/setting', status: 308, location: '/elsewhere', count: 1 })]);
		const reply = await fetch(`${emu.apiUrl}/prod/v1/project/setting`, { redirect: 'manual' });
		expect(reply.status).toBe(308);
		expect(reply.headers.get('location')).toBe('/elsewhere');
		expect((await control(emu, '/faults/redirect', { status: 200 })).status).toBe(400);
	});
});

describe('rewritten presigned URLs', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('upload: {trap}{path}?{query}; the upload exists and the original URL still works', async () => {
		emu.faults.rewriteUrlsNext({ path: '/files/upload', url: '{trap}{path}?{query}' });
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'w.txt', fileType: 'text/plain' } });
		const rewritten: string = reply.body.presignedUploadURL;
		expect(rewritten.startsWith(`${emu.trapUrl}/dex-emulator-uploads/`)).toBe(true);
		expect(rewritten).toContain('X-Amz-Signature=');
		expect(emu.state.uploads.has(reply.body.uploadId)).toBe(true);
		const original = emu.storageUrl + rewritten.slice(emu.trapUrl.length);
		expect((await fetch(original, { method: 'PUT', body: 'Invoice Number: W-1\n' })).status).toBe(200);
		await emu.idle();
		expect(emu.state.uploads.get(reply.body.uploadId)?.fileIds).toHaveLength(1);
		expect(emu.requests.find((entry) => entry.path === '/prod/v1/files/upload' && entry.fault === 'rewrite')).toBeDefined();
	});

	test('{original}, {path} and {query} are the parts of the URL issued', async () => {
		emu.faults.rewriteUrlsNext({ path: '/files/upload', url: 'x:{original}|{path}|{query}' });
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'p.txt', fileType: 'text/plain' } });
		const [original, path, query] = (reply.body.presignedUploadURL as string).slice(2).split('|');
		const parsed = new URL(original);
		expect(parsed.origin).toBe(emu.storageUrl);
		expect(path).toBe(parsed.pathname);
		expect(query).toBe(parsed.search.slice(1));
	});

	test('multipart: every part URL', async () => {
		emu.faults.rewriteUrlsNext({ path: '/files/upload/multipart', url: 'ftp://127.0.0.1/x' });
		const reply = await call(emu, 'POST', '/files/upload/multipart', { body: { fileName: 'big.txt', fileType: 'text/plain', fileSize: 12, partSizeLimit: 5 } });
		expect(reply.body.presignedUrls).toHaveLength(3);
		expect(reply.body.presignedUrls.map((part: Json) => part.presignedUrl)).toEqual(['ftp://127.0.0.1/x', 'ftp://127.0.0.1/x', 'ftp://127.0.0.1/x']);
		expect(emu.state.multiparts.has(reply.body.id)).toBe(true);
	});

	test('preview and batch preview: signedUrl and every signedUrls entry', async () => {
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'v.txt', fileType: 'text/plain' } });
		await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: V-1\n' });
		await emu.idle();
		const s3Path = upload.body.s3Path;
		emu.faults.rewriteUrlsNext({ path: '/files/preview', url: 'http://user:pass@127.0.0.1:1/x' });
		expect((await call(emu, 'POST', '/files/preview', { body: { s3Path } })).body).toEqual({ signedUrl: 'http://user:pass@127.0.0.1:1/x' });
		emu.faults.rewriteUrlsNext({ path: '/files/preview/batch', url: 'javascript:alert(1)' });
		const batch = await call(emu, 'POST', '/files/preview/batch', { body: { s3Paths: [s3Path, s3Path] } });
		expect(batch.body).toEqual({ signedUrls: [{ s3Path, signedUrl: 'javascript:alert(1)' }, { s3Path, signedUrl: 'javascript:alert(1)' }] });
		const untouched = await call(emu, 'POST', '/files/preview', { body: { s3Path } });
		expect(untouched.body.signedUrl.startsWith(`${emu.storageUrl}/`)).toBe(true);
	});

	test('an idempotent replay answers the URL actually issued', async () => {
		const body = { fileName: 'i.txt', fileType: 'text/plain' };
		emu.faults.rewriteUrlsNext({ path: '/files/upload', url: '{trap}/stolen' });
		const first = await call(emu, 'POST', '/files/upload', { body, headers: { 'idempotency-key': 'rewrite-1' } });
		expect(first.body.presignedUploadURL).toBe(`${emu.trapUrl}/stolen`);
		const replay = await call(emu, 'POST', '/files/upload', { body, headers: { 'idempotency-key': 'rewrite-1' } });
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(replay.body.uploadId).toBe(first.body.uploadId);
		expect(replay.body.presignedUploadURL.startsWith(`${emu.storageUrl}/`)).toBe(true);
	});

	test('a rewrite waits for an API request: storage requests and unanswered requests do not use it up', async () => {
		const earlier = await call(emu, 'POST', '/files/upload', { body: { fileName: 'e.txt', fileType: 'text/plain' } });
		emu.faults.rewriteUrlsNext({ url: 'ftp://127.0.0.1/y' });
		expect((await fetch(earlier.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: E\n' })).status).toBe(200);
		expect(emu.faults.pending().rewrite).toHaveLength(1);
		emu.faults.failNext({ path: '/files/upload', status: 500 });
		expect((await call(emu, 'POST', '/files/upload', { body: { fileName: 'f.txt', fileType: 'text/plain' } })).status).toBe(500);
		expect(emu.faults.pending().rewrite).toHaveLength(1);
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'g.txt', fileType: 'text/plain' } });
		expect(reply.body.presignedUploadURL).toBe('ftp://127.0.0.1/y');
	});

	test('over HTTP: POST /__emulator/faults/rewrite-urls', async () => {
		expect((await control(emu, '/faults/rewrite-urls', { method: 'POST', path: '/files/upload', url: '{trap}{path}' })).status).toBe(200);
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'h.txt', fileType: 'text/plain' } });
		expect(reply.body.presignedUploadURL).toMatch(new RegExp(`^${emu.trapUrl}/dex-emulator-uploads/[^?]+$`));
		expect((await control(emu, '/faults/rewrite-urls', { path: '/files/upload' })).status).toBe(400);
	});
});

describe('requestsCarrying and keyLeaks', () => {
	let emu: Emulator;
	const secret = 'dex_test_secret_0123456789';
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());
	beforeEach(() => {
		emu.requests.length = 0;
	});

	test('finds the secret in any header, the path or the query, raw or percent-encoded, on any host', async () => {
		await fetch(`${emu.trapUrl}/in-header`, { headers: { 'x-anything': `Bearer ${secret}` } });
		await fetch(`${emu.trapUrl}/files/${secret}/x`);
		await fetch(`${emu.trapUrl}/in-query?token=${secret}`);
		await fetch(`${emu.trapUrl}/in-encoded-query?token=${encodeURIComponent(secret).replace(/_/g, '%5F')}`);
		await fetch(`${emu.storageUrl}/in-storage`, { headers: { 'x-api-key': secret } });
		await fetch(`${emu.trapUrl}/clean`, { headers: { 'x-api-key': 'something-else' } });
		const found = requestsCarrying(emu, secret).map((entry) => `${entry.host} ${entry.path}`);
		expect(found).toEqual([`trap /in-header`, `trap /files/${secret}/x`, `trap /in-query`, `trap /in-encoded-query`, `storage /in-storage`]);
	});

	test('URL credentials (Basic authorization) and a repeated header that the parsed headers drop', async () => {
		const basic = Buffer.from(`user:${secret}`).toString('base64');
		expect(await rawGet(`${emu.trapUrl}/basic`, { authorization: `Basic ${basic}` })).toBe(200);
		expect(await rawGet(`${emu.trapUrl}/repeated`, { authorization: ['Bearer harmless', secret] })).toBe(200);
		const repeated = emu.requests.find((entry) => entry.path === '/repeated');
		expect(repeated?.headers.authorization).toBe('Bearer harmless');
		expect(requestsCarrying(emu, secret).map((entry) => entry.path)).toEqual(['/basic', '/repeated']);
	});

	test('keyLeaks: only requests to hosts other than the API', async () => {
		const key = emu.keys.readWrite;
		await call(emu, 'GET', '/subscription');
		expect(keyLeaks(emu, key)).toEqual([]);
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'k.txt', fileType: 'text/plain' } });
		await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: K\n', headers: { 'x-api-key': key } });
		await fetch(`${emu.trapUrl}/t`, { headers: { 'x-api-key': key } });
		expect(keyLeaks(emu, key).map((entry) => entry.host)).toEqual(['storage', 'trap']);
		expect(requestsCarrying(emu, key).map((entry) => entry.host)).toEqual(['api', 'api', 'storage', 'trap']);
	});

	test('an empty secret is refused', () => {
		expect(() => requestsCarrying(emu, '')).toThrow(/must not be empty/);
	});
});
