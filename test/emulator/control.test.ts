import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, type Json } from './test-helpers';

async function control(emu: Emulator | string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
	const base = typeof emu === 'string' ? emu : emu.apiUrl;
	const response = await fetch(`${base}/__emulator${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: await response.json() };
}

describe('control path /__emulator (for out-of-process tests)', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('health and keys need no API key', async () => {
		expect(await control(emu, 'GET', '/health')).toEqual({ status: 200, body: { ok: true, apiUrl: emu.apiUrl, storageUrl: emu.storageUrl, trapUrl: emu.trapUrl, storageSink: false } });
		expect((await control(emu, 'GET', '/keys')).body.keys).toEqual(emu.keys);
	});

	test('requests: read since a sequence, filter by host, clear; control calls are not logged', async () => {
		await control(emu, 'DELETE', '/requests');
		await call(emu, 'GET', '/subscription');
		await call(emu, 'GET', '/files');
		const all = await control(emu, 'GET', '/requests?host=api');
		expect(all.body.requests.map((entry: Json) => entry.path)).toEqual(['/prod/v1/subscription', '/prod/v1/files']);
		expect(all.body.requests[0]).toMatchObject({ host: 'api', method: 'GET', status: 200, bodyBytes: 0, headers: { 'x-api-key': emu.keys.readWrite } });
		const since = await control(emu, 'GET', `/requests?since=${all.body.requests[0].sequence}`);
		expect(since.body.requests.map((entry: Json) => entry.path)).toEqual(['/prod/v1/files']);
	});

	test('faults over HTTP: fail (path regex), delay, reset, expire, list, clear', async () => {
		await control(emu, 'POST', '/faults/fail', { method: 'GET', pathRegex: '^/prod/v1/file-type$', status: 500, count: 1 });
		expect((await control(emu, 'GET', '/faults')).body.fail).toHaveLength(1);
		expect((await call(emu, 'GET', '/file-type')).status).toBe(500);
		expect((await call(emu, 'GET', '/file-type')).status).toBe(200);

		await control(emu, 'POST', '/faults/fail', { path: '/subscription', status: 429, retryAfter: 4 });
		const limited = await call(emu, 'GET', '/subscription');
		expect(limited.body.retryAfter).toBe(4);

		await control(emu, 'POST', '/faults/reset', { method: 'POST', path: '/directories' });
		await expect(call(emu, 'POST', '/directories', { body: { name: 'x' } })).rejects.toThrow();

		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain' } });
		expect((await control(emu, 'POST', '/faults/expire-presigned')).body.expired).toBeGreaterThan(0);
		expect((await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'x' })).status).toBe(403);

		await control(emu, 'POST', '/faults/delay', { path: '/never', delayMs: 10, count: 3 });
		expect((await control(emu, 'GET', '/faults')).body.delay).toEqual([expect.objectContaining({ path: '/never', count: 3, delayMs: 10 })]);
		await control(emu, 'DELETE', '/faults');
		expect((await control(emu, 'GET', '/faults')).body).toEqual({ fail: [], delay: [], reset: [], redirect: [], hang: [], rewrite: [], trickle: [], huge: [], ignorePage: [], partPlan: [], edit: [], repeatId: [] });
	});

	test('clock: read and move; expiry follows', async () => {
		const before = (await control(emu, 'GET', '/clock')).body;
		expect(before.controllable).toBe(true);
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain' } });
		const moved = await control(emu, 'POST', '/clock', { advanceMs: 301_000 });
		expect(moved.body.now).toBeGreaterThanOrEqual(before.now + 301_000);
		expect((await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'x' })).status).toBe(403);
	});

	test('rate limit and default callback over HTTP; idle and callbacks', async () => {
		await control(emu, 'POST', '/rate-limit', { limit: 1, windowMs: 60_000 });
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).status).toBe(200);
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).status).toBe(429);
		await control(emu, 'POST', '/rate-limit', {});
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).status).toBe(200);

		expect((await control(emu, 'POST', '/keys/default-callback', { apiKey: emu.keys.readWrite, callbackURL: 'https://default.example.com/h' })).status).toBe(200);
		const upload = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain' } });
		expect(upload.body.callbackURLSource).toBe('api_key');
		await fetch(upload.body.presignedUploadURL, { method: 'PUT', body: 'Invoice Number: CB\n' });
		expect((await control(emu, 'GET', '/idle')).body).toEqual({ idle: true });
		const callbacks = (await control(emu, 'GET', '/callbacks')).body.callbacks;
		expect(callbacks.some((entry: Json) => entry.url === 'https://default.example.com/h' && entry.payload.step === 'processing_finished')).toBe(true);
		await control(emu, 'POST', '/keys/default-callback', { apiKey: emu.keys.readWrite });
		expect((await control(emu, 'POST', '/keys/default-callback', { apiKey: 'nope' })).status).toBe(404);
	});

	test('unknown control paths answer 404', async () => {
		expect((await control(emu, 'GET', '/nothing')).status).toBe(404);
	});
});

describe('npm run emulator (cli.ts)', () => {
	test('prints the API URL and a usable key, serves until stopped', async () => {
		const cli = join(__dirname, '..', '..', 'dev', 'emulator', 'cli.ts');
		const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
		const child = spawn(tsx, [cli, '--port', '0', '--delay', '0'], { env: { ...process.env, EMULATOR_STORAGE_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
		try {
			let output = '';
			const apiUrl = await new Promise<string>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 30_000);
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					const match = /API URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
					if (match && output.includes('Ctrl-C')) {
						clearTimeout(timer);
						resolve(match[1]);
					}
				});
				child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
			});
			const key = /API key:\s+(\S+)/.exec(output)?.[1] as string;
			const reply = await fetch(`${apiUrl}/prod/v1/subscription`, { headers: { 'x-api-key': key } });
			expect(reply.status).toBe(200);
			expect((await control(apiUrl, 'GET', '/health')).body.ok).toBe(true);
		} finally {
			const exited = new Promise((resolve) => child.on('exit', resolve));
			child.kill('SIGINT');
			await exited;
		}
	});
});
