/** The upload benchmark's orchestrator side of its processes: running a role (a child of bench/upload.bench.ts), the servers (emulators, the bare server), the emulator's control and request log. */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

import type { LoopDelay } from './measure';
import type { ApiJson } from './raw-client';

const ROOT = join(__dirname, '..', '..');

export interface RoleResult {
	seconds: number;
	cpuSeconds: number;
	gcSeconds: number;
	idleMiB: number;
	peakAboveIdleMiB: number;
	loopDelayMs: LoopDelay;
	gcKinds: Record<string, { count: number; ms: number }>;
	/** CPU time of the server (emulator or bare server) during the measured work. */
	serverCpuSeconds: number;
	uploadId?: string;
}

function childEnv(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.N8N_HARNESS_USER_FOLDER;
	return env;
}

/**
 * Runs `entry` (the benchmark's own file) as a child process with `--role role`; resolves with its
 * RESULT line. BENCH_CHILD_LOG=dir appends each child's output to dir/<role>.log (for Node flags
 * that print, e.g. BENCH_NODE_FLAGS="--trace-gc --trace-incremental-marking").
 */
export function runRole(entry: string, role: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RoleResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', entry, '--role', role, ...args, ...process.argv.slice(2)], {
			cwd: ROOT,
			env: { ...childEnv(), ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let output = '';
		const log = process.env.BENCH_CHILD_LOG;
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (log) appendFileSync(join(log, `${role}.log`), chunk);
		});
		child.on('exit', (code) => {
			const line = output.split('\n').find((entry) => entry.startsWith('RESULT '));
			if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as RoleResult);
			else reject(new Error(`${role} exited with ${code}: ${output.slice(-2000)}`));
		});
	});
}

export interface Server {
	url: string;
	pid: number;
	stop: () => void;
}

/** A long-running child process that prints its address; `pattern` takes the URL from its output. */
export function startServer(args: string[], pattern: RegExp, ready: (output: string) => boolean = () => true): Promise<Server & { output: string }> {
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	return new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const url = pattern.exec(output)?.[1];
			if (url && ready(output)) resolve({ url, pid: child.pid!, output, stop: () => child.kill('SIGINT') });
		});
		child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
	});
}

export async function startEmulator(sink: boolean): Promise<Server & { api: string; key: string }> {
	const args = ['--import', 'tsx', 'dev/emulator/cli.ts', '--port', '0', '--delay', '0', ...(sink ? ['--storage-sink'] : [])];
	const server = await startServer(args, /API URL:\s+(\S+)/, (output) => /API key:\s+\S+/.test(output) && /Ctrl-C/.test(output));
	return { ...server, api: server.url, key: /API key:\s+(\S+)/.exec(server.output)![1] };
}

export async function control(api: string, method: string, path: string): Promise<ApiJson> {
	const response = await fetch(`${api}/__emulator${path}`, { method });
	return await response.json();
}

/** First part PUT arriving to last part PUT answered, as the emulator logged them. */
export async function partsPhaseSeconds(api: string): Promise<number> {
	const { requests } = await control(api, 'GET', '/requests?host=storage&method=PUT');
	const parts = (requests as Array<{ time: string; durationMs?: number; status: number }>).filter((entry) => entry.status === 200);
	if (parts.length === 0) throw new Error('the emulator logged no part PUT');
	const start = Math.min(...parts.map((entry) => Date.parse(entry.time)));
	const end = Math.max(...parts.map((entry) => Date.parse(entry.time) + (entry.durationMs ?? 0)));
	// The log's arrival times have millisecond resolution: a tiny upload still gets a non-zero phase.
	return Math.max(end - start, 1) / 1000;
}
