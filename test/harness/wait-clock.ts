/**
 * A controlled clock for the package's waits. The transport takes every wait it decides (rate
 * limits, backoff, Wait for Completion's pauses, budgets and deadlines) from one object,
 * `waitClock` in transport/clock.ts. This replaces its `now` and `sleep` in the built package
 * that the harness loads, so a test sees each wait the node asked for, in milliseconds, without
 * spending it: time moves only when the node sleeps. Request timeouts stay real time.
 */
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
	/** Puts the real clock back. */
	restore(): void;
}

function packageWaitClock(packageDir: string): WaitClockObject {
	const modulePath = path.join(packageDir, 'dist', 'nodes', 'DocumentExtraction', 'transport', 'clock.js');
	// The same module instance the package's nodes use: n8n-core's loader requires the package
	// through the same module registry as this file.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(modulePath) as { waitClock: WaitClockObject }).waitClock;
}

/**
 * Installs the fake clock into the built package. Call after ensureBuilt() (runNode and the other
 * entry points build first; `beforeAll(ensureBuilt)` is enough), and restore() after the test.
 */
export function installFakeWaitClock(packageDir: string = REPO_ROOT): FakeWaitClock {
	const target = packageWaitClock(packageDir);
	const original = { now: target.now, sleep: target.sleep };
	let current = Date.now();
	const sleeps: number[] = [];
	target.now = () => current;
	target.sleep = async (ms, signal) => {
		if (signal?.aborted) throw new Error('aborted');
		sleeps.push(ms);
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
		restore: () => {
			target.now = original.now;
			target.sleep = original.sleep;
		},
	};
}
