/**
 * What the node tests share: an emulator, credentials pointing at it, and the package under test.
 */
import type { Emulator, EmulatorOptions } from '../../dev/emulator';
import { SEEDED_KEYS, startEmulator } from '../../dev/emulator';
import type { FakeWaitClock, LoadedPackage } from '../../dev/harness';
import { REPO_ROOT, ensureBuilt, installFakeWaitClock, loadPackage } from '../../dev/harness';

export { SEEDED_KEYS };
export { credentialsFor } from '../../dev/emulator/client';

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	return await startEmulator({ processingDelayMs: 0, ...options });
}

/**
 * The emulator of a test file, reached through the returned object:
 * - lifetime 'file' (default): started before the file's first test and closed after its last;
 *   its request log and pending faults are cleared before each test;
 * - lifetime 'test': a fresh emulator for every test, closed after it.
 * Call it at the top of the file, so its hooks run before the file's own (which may seed data):
 *
 *   const emulator = useEmulator();
 *
 * The object is filled in when the emulator has started (an Emulator is plain data and closures).
 */
export function useEmulator(options: EmulatorOptions = {}, lifetime: 'file' | 'test' = 'file'): Emulator {
	const emulator = {} as Emulator;
	const start = async () => {
		Object.assign(emulator, await startTestEmulator(options));
	};
	const close = async () => {
		await emulator.close?.();
	};
	if (lifetime === 'test') {
		beforeEach(start);
		afterEach(close);
		return emulator;
	}
	beforeAll(start);
	afterAll(close);
	beforeEach(() => {
		emulator.requests.length = 0;
		emulator.faults.clear();
	});
	return emulator;
}

/**
 * This repository's package as n8n loads it (the files package.json's `n8n` section names), built
 * first when its sources changed. A named file that the build does not produce fails the run.
 * (runNode, pollTrigger and the other harness entry points load the same package by default.)
 */
export async function loadBuiltPackage(): Promise<LoadedPackage> {
	await ensureBuilt();
	return await loadPackage(REPO_ROOT);
}

/** Log entries of the emulator for one host and method, oldest first. */
export function requestsTo(emulator: Emulator, host: 'api' | 'storage', method?: string, path?: RegExp) {
	return emulator.requests.filter(
		(entry) =>
			entry.host === host &&
			(method === undefined || entry.method === method) &&
			(path === undefined || path.test(entry.path)),
	);
}

/**
 * The package's waits on a controlled clock for each test of the file (see
 * dev/harness/wait-clock.ts): `clock.sleeps` lists every wait the node asked for, and none of
 * them is spent. Request timeouts stay real time.
 */
export function useFakeWaitClock(): FakeWaitClock {
	const clock = {} as FakeWaitClock;
	let installed: FakeWaitClock | undefined;
	beforeAll(async () => {
		await ensureBuilt();
	});
	beforeEach(() => {
		installed = installFakeWaitClock();
		Object.assign(clock, installed);
	});
	afterEach(() => {
		installed?.restore();
	});
	return clock;
}
