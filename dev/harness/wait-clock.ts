/**
 * A controlled clock for the package's waits. The transport takes every wait it decides (rate
 * limits, backoff, Wait for Completion's pauses, budgets and deadlines) from one object,
 * `waitClock` in nodes/shared/run/clock.ts. This replaces its `now` and `sleep` in the built package
 * that the harness loads, so a test sees each wait the node asked for, in milliseconds, without
 * spending it: time moves only when the node sleeps. Request timeouts stay real time.
 */
import { EventEmitter } from 'node:events';
import * as path from 'node:path';

import { REPO_ROOT } from './registry-paths';

interface WaitClockObject {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface FakeWaitClock {
	/** Every sleep the package asked for, in order (ms). */
	readonly sleeps: number[];
	/** The clock's current time (epoch ms); it starts at the real time of install. */
	now(): number;
	/** Moves the clock without a sleep (time spent elsewhere). */
	advance(ms: number): void;
	/** Total of all sleeps. */
	sleptMs(): number;
	/** Forgets the recorded sleeps (the time stays). */
	reset(): void;
	/**
	 * From now on a sleep does not end by itself: it waits for release(), so a test can look at the
	 * world while the node is paused (e.g. that no request goes out while a 429's wait is open).
	 */
	holdSleeps(): void;
	/** Resolves once `count` sleeps are waiting for release() (rejects after timeoutMs of real time). */
	waitForHeldSleeps(count: number, timeoutMs?: number): Promise<void>;
	/** Ends the waiting sleeps and stops holding new ones. */
	releaseSleeps(): void;
	/** Puts the real clock back. */
	restore(): void;
}

function packageWaitClock(packageDir: string): WaitClockObject {
	const modulePath = path.join(packageDir, 'dist', 'nodes', 'shared', 'run', 'clock.js');
	// The same module instance the package's nodes use: n8n-core's loader requires the package
	// through the same module registry as this file.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(modulePath) as { waitClock: WaitClockObject }).waitClock;
}

/**
 * Installs the fake clock into the built package. Call after ensureBuilt() (runNode and the other
 * entry points build first; `beforeAll(ensureBuilt)` is enough), and restore() after the test.
 */
/**
 * The package's rate-limit gates are process-wide (one per API key, as in n8n): a test that
 * replaces the clock starts, and leaves, with none, so one test's 429 never holds the next one.
 */
export function forgetPackageRateLimits(packageDir: string = REPO_ROOT): void {
	const modulePath = path.join(packageDir, 'dist', 'nodes', 'shared', 'transport', 'rateGate.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	(require(modulePath) as { forgetRateLimits: () => void }).forgetRateLimits();
}

export function installFakeWaitClock(packageDir: string = REPO_ROOT): FakeWaitClock {
	const target = packageWaitClock(packageDir);
	forgetPackageRateLimits(packageDir);
	const original = { now: target.now, sleep: target.sleep };
	let current = Date.now();
	const sleeps: number[] = [];
	const held: Array<() => void> = [];
	const events = new EventEmitter();
	let holding = false;
	target.now = () => current;
	target.sleep = async (ms, signal) => {
		if (signal?.aborted) throw new Error('aborted');
		sleeps.push(ms);
		if (holding) {
			await new Promise<void>((resolve, reject) => {
				held.push(resolve);
				signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
				events.emit('held');
			});
		}
		current += Math.max(0, ms);
		// Let other work (other items, the emulator) run, as a real pause would.
		await new Promise((resolve) => setImmediate(resolve));
		if (signal?.aborted) throw new Error('aborted');
	};
	return {
		sleeps,
		now: () => current,
		advance: (ms) => {
			current += ms;
		},
		sleptMs: () => sleeps.reduce((sum, ms) => sum + ms, 0),
		reset: () => {
			sleeps.length = 0;
		},
		holdSleeps: () => {
			holding = true;
		},
		waitForHeldSleeps: async (count, timeoutMs = 10000) =>
			await new Promise<void>((resolve, reject) => {
				const check = () => {
					if (held.length < count) return;
					clearTimeout(timer);
					events.off('held', check);
					resolve();
				};
				const timer = setTimeout(() => {
					events.off('held', check);
					reject(new Error(`${held.length} sleeps were held, not ${count}, after ${timeoutMs} ms`));
				}, timeoutMs);
				events.on('held', check);
				check();
			}),
		releaseSleeps: () => {
			holding = false;
			for (const resolve of held.splice(0)) resolve();
		},
		restore: () => {
			holding = false;
			for (const resolve of held.splice(0)) resolve();
			target.now = original.now;
			target.sleep = original.sleep;
			forgetPackageRateLimits(packageDir);
		},
	};
}

export interface RecordingWaitClock {
	/** Every sleep the package asked for, in order (ms); each was spent for real. */
	readonly sleeps: number[];
	restore(): void;
}

/** Real waits, recorded: for benchmarks and the reliability matrix, which report real times. */
export function installRecordingWaitClock(packageDir: string = REPO_ROOT): RecordingWaitClock {
	const target = packageWaitClock(packageDir);
	const original = { now: target.now, sleep: target.sleep };
	const sleeps: number[] = [];
	target.sleep = async (ms, signal) => {
		sleeps.push(ms);
		await original.sleep(ms, signal);
	};
	return {
		sleeps,
		restore: () => {
			target.now = original.now;
			target.sleep = original.sleep;
		},
	};
}
