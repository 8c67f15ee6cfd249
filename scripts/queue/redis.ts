/**
 * Redis for queue mode: Debian's `redis-server` (7.0 here), run as a child process with its own
 * port, folder and append-only file under the cache; never the system service.
 *
 * - `ensureRedis()` finds `redis-server` ($QUEUE_REDIS_SERVER, PATH, /usr/bin, /usr/sbin); when it is missing and this
 *   process is root, installs it with `apt-get install -y redis-server`; otherwise says how.
 * - `startRedis()` starts it on 127.0.0.1 in the foreground, in its own process group, and waits
 *   until it accepts connections; `stop()` sends SIGTERM (Redis saves and exits).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { supervise } from './child';

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
	log('installing redis-server (apt-get install -y redis-server)');
	const install = spawnSync('apt-get', ['install', '-y', 'redis-server'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	if (install.status !== 0) throw new Error(`apt-get install -y redis-server failed:\n${(install.stdout + install.stderr).slice(-3000)}`);
	const installed = findRedisServer();
	if (!installed) throw new Error('apt-get installed redis-server but it is not on PATH, /usr/bin or /usr/sbin');
	return installed;
}

export interface RedisOptions {
	/** The redis-server binary (ensureRedis()). */
	binary: string;
	/** Folder for its append-only file and log (created). */
	dir: string;
	port: number;
}

export interface RedisServer {
	host: string;
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

export async function startRedis(options: RedisOptions): Promise<RedisServer> {
	fs.mkdirSync(options.dir, { recursive: true });
	const logFile = path.join(options.dir, 'redis.log');
	const child: ChildProcess = spawn(
		options.binary,
		[
			'--port', String(options.port),
			'--bind', '127.0.0.1',
			'--protected-mode', 'yes',
			'--dir', options.dir,
			'--daemonize', 'no',
			'--appendonly', 'yes',
			'--save', '',
			'--logfile', logFile,
		],
		{ cwd: options.dir, stdio: 'ignore', detached: true },
	);
	const { stop, hasExited } = supervise(child, 'SIGTERM', 'SIGKILL');

	const deadline = Date.now() + 30_000;
	while (!(await answersPing(options.port))) {
		if (hasExited() || Date.now() > deadline) {
			await stop();
			const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '';
			throw new Error(`redis-server did not start on port ${options.port} (${hasExited() ? 'it exited' : 'timeout'}):\n${tail}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return { host: '127.0.0.1', port: options.port, pid: child.pid!, logFile, stop };
}

/** Sends PING in the inline protocol and waits for +PONG. */
export function answersPing(port: number, host = '127.0.0.1'): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, host);
		let answer = '';
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}
