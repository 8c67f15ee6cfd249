/**
 * The guard preloaded into the sandbox's n8n (dev/n8n/loopback-guard.cjs) refuses every
 * connection to another host before any DNS lookup, and says so in its own words: the code
 * ESANDBOXOFFLINE and a message that the sandbox is offline and how to start it online (what the
 * node's error and the credential test show). Run in a child process, as n8n runs it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { onlineCommand } from '../../dev/start-message';

const GUARD = path.join(__dirname, '..', '..', 'dev', 'n8n', 'loopback-guard.cjs');

/** Runs an HTTPS GET to `url` in a child with the guard preloaded; returns the error it ended with. */
function getThroughGuard(url: string, env: Record<string, string>): { code?: string; message?: string } {
	const script = `
		require('node:https').get(${JSON.stringify(url)}, () => console.log(JSON.stringify({ answered: true })))
			.on('error', (error) => console.log(JSON.stringify({ code: error.code, message: error.message })));`;
	const result = spawnSync(process.execPath, ['--require', GUARD, '-e', script], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
	return JSON.parse(result.stdout.trim().split('\n').pop()!) as { code?: string; message?: string };
}

describe('the sandbox offline: a connection to the service is refused in words that say so', () => {
	let dir: string;
	let logFile: string;

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-offline-guard-'));
		logFile = path.join(dir, 'outbound-attempts.log');
	});

	afterEach(() => {
		fs.rmSync(dir, { recursive: true, force: true });
	});

	test('npm start: code ESANDBOXOFFLINE, and the message names the host and `npm start -- --online`', () => {
		const error = getThroughGuard('https://api.orion.file.ai/prod/v1/subscription', { LOOPBACK_GUARD_LOG: logFile, LOOPBACK_GUARD_ONLINE_HINT: onlineCommand('npm start') });

		expect(error.code).toBe('ESANDBOXOFFLINE');
		expect(error.message).toBe(
			'The sandbox is offline: start it with npm start -- --online to reach api.orion.file.ai. It may connect only to this machine (127.0.0.1), so the connection to api.orion.file.ai:443 was refused.',
		);
		expect(fs.readFileSync(logFile, 'utf8')).toMatch(/ refused api\.orion\.file\.ai:443\n$/);
	});

	test('queue mode names its own command', () => {
		const error = getThroughGuard('https://api.orion.file.ai/', { LOOPBACK_GUARD_ONLINE_HINT: onlineCommand('npm run start:queue') });
		expect(error.message).toMatch(/^The sandbox is offline: start it with npm run start:queue -- --online to reach api\.orion\.file\.ai\./);
	});

	test('a test instance (no hint): the same code, and a message that does not send anyone to --online', () => {
		const error = getThroughGuard('https://api.orion.file.ai/', {});
		expect(error.code).toBe('ESANDBOXOFFLINE');
		expect(error.message).toBe('This n8n runs offline (a test instance): it may connect only to this machine (127.0.0.1), so the connection to api.orion.file.ai:443 was refused.');
	});
});
