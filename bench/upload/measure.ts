/** What a child process of the upload benchmark measures of its work: wall and CPU time (its own and its server's), GC, event-loop delay, peak RSS above idle; and how it reports it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

import { textFlag } from '../args';

export interface Target {
	api: string;
	key: string;
}

export function target(): Target {
	return { api: textFlag('api'), key: textFlag('key') };
}

function memoryKiB(name: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync('/proc/self/status', 'utf8');
	return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
}

/** User + system CPU seconds a process has used so far (Linux /proc; clock ticks of 10 ms). */
export function processCpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
	// After "pid (comm) ": state is field 0, utime field 11, stime field 12.
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resets the kernel's peak-RSS counter (VmHWM) of this process to its current RSS. */
function resetPeak(): void {
	writeFileSync('/proc/self/clear_refs', '5');
}

async function settle(): Promise<number> {
	const gc = (globalThis as { gc?: () => void }).gc;
	for (let round = 0; round < 3; round++) {
		gc?.();
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return memoryKiB('VmRSS') / 1024;
}

/** Event-loop delay percentiles in ms (monitorEventLoopDelay at 1 ms resolution: idle is about 1.1). */
export interface LoopDelay {
	p50: number;
	p99: number;
	max: number;
}

/**
 * Runs `work` and measures it: wall time, CPU time of this process and of the server it talks to
 * (--server-pid: the emulator or the bare server, read from /proc), its event-loop delay, and the
 * peak RSS above the idle RSS measured just before. The emulator's request log is cleared
 * first, so that it then holds the measured requests only (not the warm-up).
 */
export async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; gcSeconds: number; gcKinds: Record<string, { count: number; ms: number }>; idleMiB: number; peakAboveIdleMiB: number; loopDelayMs: LoopDelay; serverCpuSeconds: number }> {
	await fetch(`${target().api}/__emulator/requests`, { method: 'DELETE' });
	const idleMiB = await settle();
	let gcMs = 0;
	const gcKinds: Record<string, { count: number; ms: number }> = {};
	const gcObserver = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			gcMs += entry.duration;
			const kind = String((entry as unknown as { detail?: { kind?: number } }).detail?.kind);
			gcKinds[kind] ??= { count: 0, ms: 0 };
			gcKinds[kind].count++;
			gcKinds[kind].ms += entry.duration;
		}
	});
	gcObserver.observe({ entryTypes: ['gc'] });
	const profile = await startProfile();
	const loop = monitorEventLoopDelay({ resolution: 1 });
	const serverPid = Number(textFlag('server-pid'));
	resetPeak();
	const serverCpuBefore = serverPid ? processCpuSeconds(serverPid) : 0;
	const cpuBefore = process.cpuUsage();
	const started = process.hrtime.bigint();
	loop.enable();
	const result = await work();
	loop.disable();
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu = process.cpuUsage(cpuBefore);
	const serverCpuSeconds = serverPid ? processCpuSeconds(serverPid) - serverCpuBefore : 0;
	const peakMiB = memoryKiB('VmHWM') / 1024;
	const loopDelayMs = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
	await profile.stop();
	await new Promise((resolve) => setImmediate(resolve));
	gcObserver.disconnect();
	return { result, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, serverCpuSeconds, gcSeconds: gcMs / 1000, gcKinds, idleMiB, peakAboveIdleMiB: peakMiB - idleMiB, loopDelayMs };
}

/** BENCH_CPU_PROFILE=dir writes a CPU profile of the measured work (for looking into costs). */
async function startProfile(): Promise<{ stop: () => Promise<void> }> {
	const heapDir = process.env.BENCH_HEAP_SAMPLE;
	if (heapDir) return await startHeapSampling(heapDir);
	const perfDir = process.env.BENCH_PERF;
	if (perfDir) return await startPerf(perfDir);
	const dir = process.env.BENCH_CPU_PROFILE;
	if (!dir) return { stop: async () => {} };
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
	await post('Profiler.enable');
	await post('Profiler.start');
	return {
		stop: async () => {
			const { profile } = (await post('Profiler.stop')) as { profile: unknown };
			writeFileSync(join(dir, `${textFlag('role')}-${process.pid}.cpuprofile`), JSON.stringify(profile));
			session.disconnect();
		},
	};
}

/**
 * BENCH_PERF=dir records the measured work with Linux `perf record` (every thread of this process,
 * kernel time included, sampled on CPU time: what V8's profiler, which samples the main thread's
 * wall time, cannot show, e.g. page faults and the thread pool's reads). Add
 * BENCH_NODE_FLAGS=--perf-basic-prof for JavaScript function names; read it with
 * `perf report -i dir/<role>-<pid>.perf.data --no-children --sort sym`.
 */
async function startPerf(dir: string): Promise<{ stop: () => Promise<void> }> {
	const { spawn } = await import('node:child_process');
	const output = join(dir, `${textFlag('role')}-${process.pid}.perf.data`);
	const perf = spawn('perf', ['record', '-F', '1999', '-p', String(process.pid), '-o', output], { stdio: 'ignore' });
	const exited = new Promise((resolve) => perf.on('exit', resolve));
	// perf needs a moment to attach before the work starts.
	await new Promise((resolve) => setTimeout(resolve, 500));
	return {
		stop: async () => {
			perf.kill('SIGINT');
			await exited;
		},
	};
}

export function report(value: unknown): void {
	console.log(`RESULT ${JSON.stringify(value)}`);
}

/**
 * BENCH_HEAP_SAMPLE=dir writes a sampling heap profile of the measured work (where JavaScript
 * allocates, objects that the collectors freed included): open it in Chrome DevTools' Memory tab.
 */
async function startHeapSampling(dir: string): Promise<{ stop: () => Promise<void> }> {
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
	await post('HeapProfiler.enable');
	await post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	return {
		stop: async () => {
			const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
			writeFileSync(join(dir, `${textFlag('role')}-${process.pid}.heapprofile`), JSON.stringify(profile));
			session.disconnect();
		},
	};
}
