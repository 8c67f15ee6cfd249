/**
 * Redis for queue mode: Debian's `redis-server` (7.0 here), run as a child process with its own
 * port, folder and append-only file under the cache; never the system service.
 *
 * - `ensureRedis()` finds `redis-server` ($QUEUE_REDIS_SERVER, PATH, /usr/bin, /usr/sbin); when it is missing and this
 *   process is root, installs it with `apt-get install -y redis-server` without leaving Debian's
 *   own redis-server service running or enabled (`redisServicePlan()`: a policy-rc.d that forbids
 *   starting services during the install when the system has none, then `systemctl disable --now`
 *   under systemd, else `update-rc.d redis-server disable` and the init script's `stop`); otherwise says how.
 * - `startRedis()` starts it on 127.0.0.1 only, with a password (`requirepass`, from a 0600
 *   redis.conf in its 0700 folder, never on the command line), in the foreground, in its own
 *   process group, and waits until it answers an authenticated PING; `stop()` sends SIGTERM
 *   (Redis saves and exits).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { privateDir, spawnPrivate, writePrivateFile } from '../sandbox-state';
import { supervise } from './child';

export const POLICY_RC_D = '/usr/sbin/policy-rc.d';
/** A policy-rc.d that forbids maintainer scripts to start any service (exit 101: "action forbidden"). */
export const FORBID_SERVICES_POLICY = '#!/bin/sh\n# written by n8n-nodes-document-extraction scripts/queue/redis.ts for one apt-get install; removed after it\nexit 101\n';

export interface RedisServiceStep {
	why: string;
	command: string[];
}

/**
 * What keeps Debian's redis-server service from running after `apt-get install redis-server`:
 * `writePolicy` (a policy-rc.d forbidding service starts during the install, when the system has
 * none of its own; Docker images have one already) and the steps after the install.
 */
export function redisServicePlan(system: { systemd: boolean; policyRcdExists: boolean }): { writePolicy: boolean; after: RedisServiceStep[] } {
	const after: RedisServiceStep[] = system.systemd
		? [{ why: 'the package enables and starts redis-server.service under systemd', command: ['systemctl', 'disable', '--now', 'redis-server'] }]
		: [
				{ why: 'the package links the init script into the runlevels', command: ['update-rc.d', 'redis-server', 'disable'] },
				{ why: 'in case a policy-rc.d of the system let the install start it', command: ['/etc/init.d/redis-server', 'stop'] },
			];
	return { writePolicy: !system.policyRcdExists, after };
}

export function findRedisServer(): string | undefined {
	if (process.env.QUEUE_REDIS_SERVER) return process.env.QUEUE_REDIS_SERVER;
	const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
	for (const dir of dirs) {
		const candidate = path.join(dir, 'redis-server');
		if (dir && fs.existsSync(candidate)) return candidate;
	}
	return undefined;
}

export async function ensureRedis(log: (line: string) => void = () => undefined): Promise<string> {
	const found = findRedisServer();
	if (found) return found;
	if (process.getuid?.() !== 0) {
		throw new Error('redis-server is not installed: install it (Debian/Ubuntu: sudo apt-get install -y redis-server) or set QUEUE_REDIS_SERVER to its path');
	}
	log('installing redis-server (apt-get install -y redis-server), without starting or enabling its system service');
	const plan = redisServicePlan({ systemd: fs.existsSync('/run/systemd/system'), policyRcdExists: fs.existsSync(POLICY_RC_D) });
	if (plan.writePolicy) fs.writeFileSync(POLICY_RC_D, FORBID_SERVICES_POLICY, { mode: 0o755 });
	let install;
	try {
		install = spawnSync('apt-get', ['install', '-y', 'redis-server'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	} finally {
		if (plan.writePolicy) fs.rmSync(POLICY_RC_D, { force: true });
	}
	if (install.status !== 0) throw new Error(`apt-get install -y redis-server failed:\n${(install.stdout + install.stderr).slice(-3000)}`);
	for (const step of plan.after) {
		const result = spawnSync(step.command[0], step.command.slice(1), { encoding: 'utf8' });
		log(`${step.command.join(' ')} (${step.why}): exit ${result.status ?? result.error?.message}`);
	}
	const installed = findRedisServer();
	if (!installed) throw new Error('apt-get installed redis-server but it is not on PATH, /usr/bin or /usr/sbin');
	return installed;
}

export interface RedisOptions {
	/** The redis-server binary (ensureRedis()). */
	binary: string;
	/** Folder for its append-only file, config and log (created 0700). */
	dir: string;
	port: number;
	/** `requirepass` (default: a new random one). */
	password?: string;
}

export interface RedisServer {
	host: string;
	port: number;
	/** What clients send with AUTH (n8n: QUEUE_BULL_REDIS_PASSWORD). */
	password: string;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

/** The redis.conf startRedis writes (0600): loopback only, a password, the append-only file in `dir`. */
export function redisConfig(options: { dir: string; port: number; password: string; logFile: string }): string {
	if (!/^[0-9A-Za-z_-]+$/.test(options.password)) throw new Error('the Redis password may hold letters, digits, _ and - only');
	return [
		`port ${options.port}`,
		'bind 127.0.0.1',
		'protected-mode yes',
		`requirepass ${options.password}`,
		`dir ${JSON.stringify(options.dir)}`,
		'daemonize no',
		'appendonly yes',
		'save ""',
		`logfile ${JSON.stringify(options.logFile)}`,
		'',
	].join('\n');
}

export async function startRedis(options: RedisOptions): Promise<RedisServer> {
	privateDir(options.dir);
	const logFile = path.join(options.dir, 'redis.log');
	const password = options.password ?? randomBytes(24).toString('hex');
	const configFile = path.join(options.dir, 'redis.conf');
	writePrivateFile(configFile, redisConfig({ dir: options.dir, port: options.port, password, logFile }));
	// umask 077: its log and append-only files are 0600 too.
	const child: ChildProcess = spawnPrivate(options.binary, [configFile], { cwd: options.dir, stdio: 'ignore', detached: true });
	const { stop, hasExited } = supervise(child, 'SIGTERM', 'SIGKILL');

	const deadline = Date.now() + 30_000;
	while (!(await answersPing(options.port, '127.0.0.1', password))) {
		if (hasExited() || Date.now() > deadline) {
			await stop();
			const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '';
			throw new Error(`redis-server did not start on port ${options.port} (${hasExited() ? 'it exited' : 'timeout'}):\n${tail}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return { host: '127.0.0.1', port: options.port, password, pid: child.pid!, logFile, stop };
}

/** Sends PING (after AUTH when a password is given) in the inline protocol and waits for +PONG. */
export function answersPing(port: number, host = '127.0.0.1', password?: string): Promise<boolean> {
	return redisAnswer(port, host, password ? [`AUTH ${password}`, 'PING'] : ['PING']).then((answer) => answer.endsWith('+PONG\r\n'));
}

/** Sends inline commands and resolves with everything Redis answered once it answered each (or closed, or 1 s passed). */
export function redisAnswer(port: number, host: string, commands: string[]): Promise<string> {
	return new Promise((resolve) => {
		const socket = net.connect(port, host);
		let answer = '';
		const done = () => {
			socket.destroy();
			resolve(answer);
		};
		socket.setTimeout(1000, done);
		socket.on('error', done);
		socket.on('close', done);
		socket.on('connect', () => socket.write(commands.map((command) => `${command}\r\n`).join('')));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.split('\r\n').length > commands.length) done();
		});
	});
}
