/**
 * DNS-rebinding defence: the emulator, the scripted chat model and n8n (through the preload
 * dev/n8n/host-guard.cjs) answer only requests addressed to localhost, 127.x or [::1]. Requests are
 * sent to 127.0.0.1 with the Host header a rebinding page's requests would carry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';

import { startEmulator, type Emulator } from '../../dev/emulator';
import { FOREIGN_HOST_STATUS } from '../../dev/host-check';
import { isLoopbackHostHeader } from '../../dev/loopback-host.cjs';
import { startScriptedModel, type ScriptedModel } from '../../dev/model/scripted-model';

const HOST_GUARD = path.join(__dirname, '..', '..', 'dev', 'n8n', 'host-guard.cjs');

const ACCEPTED = [undefined, 'localhost', 'localhost:5678', 'LOCALHOST:5678', 'localhost.:5678', '127.0.0.1', '127.0.0.1:8787', '127.1.2.3:80', '[::1]', '[::1]:5678'];
const REFUSED = [
	'evil.example',
	'evil.example:5678',
	'localhost.evil.example:5678',
	'127.0.0.1.nip.io:5678',
	'attacker.localhost:5678',
	'10.0.0.1:5678',
	'0.0.0.0:5678',
	'[::ffff:7f00:1]:5678',
	'127.0.0.256:5678',
	'127.0.0.1:notaport',
	'localhost:',
	'[::1',
	'',
];

/** A request to 127.0.0.1:port with the given Host header; resolves with the status and body. */
function requestWithHost(port: number, host: string, requestPath = '/'): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request({ host: '127.0.0.1', port, path: requestPath, method: 'GET', headers: { host }, agent: false }, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk.toString()));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
		});
		request.on('error', reject);
		request.end();
	});
}

/** A WebSocket-style upgrade request with the given Host header; resolves with the first line of the answer. */
function upgradeWithHost(port: number, host: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () =>
			socket.write(`GET /push HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`),
		);
		let answer = '';
		socket.on('data', (chunk: Buffer) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) {
				socket.destroy();
				resolve(answer.split('\r\n')[0]);
			}
		});
		socket.on('error', reject);
	});
}

describe('the Host rule (dev/loopback-host.cjs, which n8n, the emulator and the scripted model apply)', () => {
	test.each(ACCEPTED.map((host) => [host]))('accepts %j', (host) => {
		expect(isLoopbackHostHeader(host)).toBe(true);
	});

	test.each(REFUSED.map((host) => [host]))('refuses %j', (host) => {
		expect(isLoopbackHostHeader(host)).toBe(false);
	});

	test('a name given as extra (the address a server is bound to) is accepted', () => {
		expect(isLoopbackHostHeader('192.168.1.5:8787', ['192.168.1.5'])).toBe(true);
	});
});

describe('the emulator refuses a request addressed to another host', () => {
	let emulator: Emulator;
	let port: number;

	beforeAll(async () => {
		emulator = await startEmulator({ processingDelayMs: 0 });
		port = Number(new URL(emulator.apiUrl).port);
	});

	afterAll(async () => {
		await emulator.close();
	});

	test('its control (/__emulator/keys) answers 421 with a sentence saying why, and gives no key', async () => {
		const answer = await requestWithHost(port, `rebind.evil.example:${port}`, '/__emulator/keys');
		expect(answer.status).toBe(FOREIGN_HOST_STATUS);
		expect(answer.body).toContain('The Document Extraction emulator answers only requests addressed to localhost, 127.0.0.1 or [::1]');
		expect(answer.body).toContain(`"rebind.evil.example:${port}"`);
		expect(answer.body).toContain('DNS rebinding');
		expect(answer.body).not.toContain(emulator.keys.readWrite);
	});

	test('its API answers 421 and logs the attempt with that status, doing nothing else', async () => {
		emulator.requests.length = 0;
		const answer = await requestWithHost(port, 'evil.example', '/prod/v1/files');
		expect(answer.status).toBe(FOREIGN_HOST_STATUS);
		expect(emulator.requests.map((entry) => [entry.host, entry.path, entry.status])).toEqual([['api', '/prod/v1/files', FOREIGN_HOST_STATUS]]);
	});

	test('its storage host refuses too', async () => {
		const storagePort = Number(new URL(emulator.storageUrl).port);
		expect((await requestWithHost(storagePort, 'evil.example')).status).toBe(FOREIGN_HOST_STATUS);
	});

	test.each([['127.0.0.1'], ['localhost'], ['[::1]']])('addressed to %s (with the port) it answers as usual', async (name) => {
		const answer = await requestWithHost(port, `${name}:${port}`, '/__emulator/health');
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ ok: true });
	});
});

describe('the scripted chat model refuses a request addressed to another host', () => {
	let model: ScriptedModel;
	let port: number;

	beforeAll(async () => {
		model = await startScriptedModel();
		port = Number(new URL(model.baseUrl).port);
	});

	afterAll(async () => {
		await model.close();
	});

	test('421 with a sentence saying why; addressed to localhost it answers', async () => {
		const refused = await requestWithHost(port, 'evil.example', '/v1/models');
		expect(refused.status).toBe(FOREIGN_HOST_STATUS);
		expect(refused.body).toContain('The scripted chat model answers only requests addressed to localhost, 127.0.0.1 or [::1]');
		const answered = await requestWithHost(port, `localhost:${port}`, '/v1/models');
		expect(answered.status).toBe(200);
	});
});

describe('n8n\'s servers, through the preload dev/n8n/host-guard.cjs', () => {
	let child: ChildProcess;
	let port: number;

	beforeAll(async () => {
		// A plain HTTP server with an upgrade handler, as n8n's (express and its push WebSocket), with the preload n8n gets.
		const script = `
			const http = require('node:http');
			const server = http.createServer((req, res) => res.end('served'));
			server.on('upgrade', (req, socket) => socket.end('HTTP/1.1 101 Switching Protocols\\r\\n\\r\\n'));
			server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
		child = spawn(process.execPath, ['--require', HOST_GUARD, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
		port = await new Promise<number>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
	});

	afterAll(() => {
		child.kill();
	});

	test('a request addressed to another host gets 421 and the sentence; the handler never runs', async () => {
		const answer = await requestWithHost(port, `rebind.evil.example:${port}`, '/rest/login');
		expect(answer.status).toBe(421);
		expect(answer.body).toContain('This n8n (the local sandbox) answers only requests addressed to localhost, 127.0.0.1 or [::1]');
		expect(answer.body).not.toContain('served');
	});

	test('an upgrade (push WebSocket) addressed to another host gets 421 on its socket', async () => {
		expect(await upgradeWithHost(port, 'evil.example')).toBe('HTTP/1.1 421 Misdirected Request');
		expect(await upgradeWithHost(port, `localhost:${port}`)).toBe('HTTP/1.1 101 Switching Protocols');
	});

	test.each([['127.0.0.1'], ['localhost'], ['[::1]']])('addressed to %s it is served', async (name) => {
		expect(await requestWithHost(port, `${name}:${port}`)).toEqual({ status: 200, body: 'served' });
	});
});
