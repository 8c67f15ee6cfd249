/**
 * Queue mode's Redis (dev/n8n/queue/redis.ts): bound to 127.0.0.1 only, with a password that is
 * in a 0600 config file and never on the command line; and installing redis-server leaves no
 * system service running or enabled.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { spawnSync } from 'node:child_process';

import { freePort } from '../../dev/n8n/n8n-env';
import { FORBID_SERVICES_POLICY, answersPing, redisConfig, redisServicePlan, startRedis } from '../../dev/n8n/queue/redis';

describe('the Redis queue mode starts', () => {
	test('its config: port, 127.0.0.1 only, protected mode, the password, data and log in its folder', () => {
		const config = redisConfig({ dir: '/data/redis', port: 6400, password: 'ab12cd', logFile: '/data/redis/redis.log' });
		expect(config.split('\n')).toEqual([
			'port 6400',
			'bind 127.0.0.1',
			'protected-mode yes',
			'requirepass ab12cd',
			'dir "/data/redis"',
			'daemonize no',
			'appendonly yes',
			'save ""',
			'logfile "/data/redis/redis.log"',
			'',
		]);
	});

	test('a password that could break the config line is refused', () => {
		expect(() => redisConfig({ dir: '/d', port: 1, password: 'a b\nrequirepass x', logFile: '/d/l' })).toThrow(/letters, digits/);
	});

	test('startRedis gives redis-server nothing but its config file (0600, in a 0700 folder) and waits for an authenticated PONG', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-redis-'));
		// A stand-in for redis-server: records its arguments, reads the config it is given, answers AUTH and PING as Redis does.
		const fake = path.join(dir, 'fake-redis-server');
		fs.writeFileSync(
			fake,
			`#!${process.execPath}
const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(path.join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2)));
const config = fs.readFileSync(process.argv[2], 'utf8');
const port = Number(/^port (\\d+)$/m.exec(config)[1]);
const password = /^requirepass (\\S+)$/m.exec(config)[1];
require('node:net').createServer((socket) => {
	let authed = false;
	socket.on('data', (chunk) => {
		for (const line of chunk.toString().split('\\r\\n').filter(Boolean)) {
			if (line.startsWith('AUTH ')) { authed = line.slice(5) === password; socket.write(authed ? '+OK\\r\\n' : '-WRONGPASS\\r\\n'); }
			else if (line === 'PING') socket.write(authed ? '+PONG\\r\\n' : '-NOAUTH Authentication required.\\r\\n');
		}
	});
}).listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`,
			{ mode: 0o755 },
		);
		const redisDir = path.join(dir, 'redis');
		const redis = await startRedis({ binary: fake, dir: redisDir, port: await freePort(), password: 'feedc0ffee' });
		try {
			const configFile = path.join(redisDir, 'redis.conf');
			expect(JSON.parse(fs.readFileSync(path.join(dir, 'argv.json'), 'utf8'))).toEqual([configFile]);
			expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
			expect(fs.statSync(redisDir).mode & 0o777).toBe(0o700);
			expect(redis.password).toBe('feedc0ffee');
			expect(await answersPing(redis.port)).toBe(false);
			expect(await answersPing(redis.port, '127.0.0.1', 'wrong')).toBe(false);
			expect(await answersPing(redis.port, '127.0.0.1', 'feedc0ffee')).toBe(true);
		} finally {
			await redis.stop();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('installing redis-server leaves no system service running or enabled', () => {
	test('under systemd: systemctl disable --now redis-server after the install', () => {
		const plan = redisServicePlan({ systemd: true, policyRcdExists: false });
		expect(plan.writePolicy).toBe(true);
		expect(plan.after.map((step) => step.command)).toEqual([['systemctl', 'disable', '--now', 'redis-server']]);
	});

	test('without systemd (containers): the runlevel links disabled and the init script told to stop', () => {
		const plan = redisServicePlan({ systemd: false, policyRcdExists: true });
		expect(plan.writePolicy).toBe(false);
		expect(plan.after.map((step) => step.command)).toEqual([
			['update-rc.d', 'redis-server', 'disable'],
			['/etc/init.d/redis-server', 'stop'],
		]);
	});

	test('the temporary policy-rc.d forbids every service start (exit 101)', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-policy-'));
		try {
			const file = path.join(dir, 'policy-rc.d');
			fs.writeFileSync(file, FORBID_SERVICES_POLICY, { mode: 0o755 });
			expect(spawnSync(file, ['redis-server', 'start']).status).toBe(101);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});
