/**
 * The key's 429 gate (nodes/shared/transport/rateGate.ts), through the n8n engine against the
 * emulator, the package's waits on the controlled clock (each recorded, none spent):
 * - every 429 closes the gate for every user of the key, whatever the item that received it does
 *   next (finding 11 of issue 34);
 * - a request refused at the gate (its budget cannot pay the wait) or stopped while held gives its
 *   place back: the gate's wait never exceeds the pause asked plus the spacing of the requests
 *   really waiting (finding 1 of issue 34).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { WAIT_LIMITS } from '../../nodes/shared/limits';
import { runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

const SPACING = WAIT_LIMITS.rateLimitResumeSpacingMs;

function subscription(options: INodeParameters = {}, extra: { inputItems?: INodeExecutionData[]; continueOnFail?: boolean; cancelWhen?: Promise<unknown> } = {}) {
	return runNode({
		type: 'documentExtraction',
		parameters: { resource: 'workspace', operation: 'getSubscription', options },
		credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
		inputItems: extra.inputItems,
		continueOnFail: extra.continueOnFail,
		cancelWhen: extra.cancelWhen,
	});
}

const emptyItems = (count: number): INodeExecutionData[] => Array.from({ length: count }, () => ({ json: {} }));
const subscriptionRequests = () => requestsTo(emulator, 'api', 'GET', /\/subscription$/);

describe('every 429 closes the gate, whatever the item that received it does next', () => {
	it('a 429 asking for longer than its item may wait fails that item at once, and still holds the next execution for the pause', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/subscription$/, status: 429, retryAfter: 50 });

		const refused = await subscription({ maxRateLimitWait: 10 });
		expect(refused.error?.message).toMatch(/HTTP 429/);
		expect(refused.error?.message).toMatch(/asked to wait 50 s, more than this item may still wait \(Max Retry Wait is 10 s/);
		expect(clock.sleeps).toEqual([]);

		// Another execution with the same key: it waits out the pause the API announced before sending.
		const next = await subscription();
		expect(next.error).toBeUndefined();
		expect(clock.sleeps).toHaveLength(1);
		expect(clock.sleeps[0]).toBeGreaterThanOrEqual(50_000);
		expect(clock.sleeps[0]).toBeLessThanOrEqual(50_000 + SPACING);
		expect(subscriptionRequests().map((entry) => entry.status)).toEqual([429, 200]);
	});

	it('a request whose budget cannot pay the rest of that pause is refused without being sent', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/subscription$/, status: 429, retryAfter: 50 });
		await subscription({ maxRateLimitWait: 0 });

		const refused = await subscription({ maxRateLimitWait: 10 });

		expect(refused.error?.message).toMatch(/the pause it asked for \(50 s more\) is longer than this item may still wait/);
		expect(subscriptionRequests()).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});
});

describe('a request that leaves the gate without going through gives its place back', () => {
	it('500 items refused at the gate (Max Retry Wait 0) do not lengthen the wait of the next request', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/subscription$/, status: 429, retryAfter: 2 });
		clock.holdSleeps();
		// The first execution waits out its 429 at the gate (its pause is held open by the clock).
		const first = subscription();
		await clock.waitForHeldSleeps(1);

		const refused = await subscription({ maxRateLimitWait: 0 }, { inputItems: emptyItems(500), continueOnFail: true });
		expect(refused.items).toHaveLength(500);
		expect(refused.items.every((item) => /HTTP 429/.test(String(item.json.error)))).toBe(true);

		const next = subscription();
		await clock.waitForHeldSleeps(2);
		// Before: 500 refused requests had each taken a place 100 ms apart, so this one was held 52 s.
		const [firstWait, nextWait] = clock.sleeps;
		expect(firstWait).toBeGreaterThanOrEqual(2000);
		expect(nextWait).toBeLessThanOrEqual(firstWait + SPACING);
		// Nothing was sent inside the pause: only the 429 itself.
		expect(subscriptionRequests()).toHaveLength(1);
		clock.releaseSleeps();

		expect((await first).error).toBeUndefined();
		expect((await next).error).toBeUndefined();
	});

	it('requests stopped while held give their places back', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/subscription$/, status: 429, retryAfter: 2 });
		clock.holdSleeps();
		const first = subscription();
		await clock.waitForHeldSleeps(1);

		let stop: () => void = () => {};
		const stopped = new Promise<void>((resolve) => (stop = resolve));
		// 40 executions with the same key, each held at the gate behind the first, then stopped.
		const held = Array.from({ length: 40 }, () => subscription({}, { cancelWhen: stopped }));
		await clock.waitForHeldSleeps(41);
		stop();
		for (const run of await Promise.all(held)) expect(run.result.status).toBe('canceled');

		const before = clock.sleeps.length;
		const next = subscription();
		// (The clock still counts the 40 stopped sleeps among those it holds.)
		await clock.waitForHeldSleeps(42);
		// Before: the 40 stopped requests kept their places, 100 ms apart: this one was held 6 s.
		const nextWait = clock.sleeps[before];
		expect(nextWait).toBeLessThanOrEqual(clock.sleeps[0] + SPACING);
		clock.releaseSleeps();

		expect((await first).error).toBeUndefined();
		expect((await next).error).toBeUndefined();
		expect(subscriptionRequests().map((entry) => entry.status)).toEqual([429, 200, 200]);
	});
});
