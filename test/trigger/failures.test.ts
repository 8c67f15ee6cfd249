/**
 * Polls that fail half way: a 429 beyond the rate-limit wait, then 500s beyond the retries, then
 * good polls. Over the whole run every file comes out once; a failed poll that handled nothing
 * reports its error and changes nothing.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { forgetPackageRateLimits } from '../../dev/harness';
import { ActiveTrigger, EVENTS_AND_HOSTS, iso, MINUTE, onListRequest, SEEDED_KEYS, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;

describe.each(EVENTS_AND_HOSTS)('%s with the %s static data host', (event, host) => {
	it('429 beyond the wait on page 4, then 500s on the next poll, then good polls: every file once', async () => {
		const files = addFiles(emulator.state, 1_000, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) }, host);

		// Poll 1: the 4th list request answers 429 asking for 120 s (the node waits at most 60 s).
		const stop = onListRequest(emulator, (n) => {
			if (n === 4) emulator.faults.failNext({ method: 'GET', path: '/files', status: 429, retryAfter: 120 });
		});
		const partial = await trigger.poll();
		stop();
		// What it handled before the failure comes out, the cursor stops right after it.
		expect(partial.error).toBeUndefined();
		expect(partial.items).toHaveLength(100 + 99 + 99);
		expect(partial.logs.some((line) => line.level === 'warn' && /stopped after 298 document/.test(line.message))).toBe(true);
		for (const line of partial.logs) expect(line.text).not.toContain(SEEDED_KEYS.readWrite);

		// Right after it, every request with the key is still held by the 120 s the 429 asked (the
		// key's gate closes whatever the poll that got it did next): a poll sends nothing, changes nothing.
		const before = structuredClone(trigger.staticData);
		const listRequests = () => emulator.requests.filter((entry) => entry.host === 'api' && /\/files$/.test(entry.path)).length;
		const sentBefore = listRequests();
		const held = await trigger.poll();
		expect(held.error?.message).toMatch(/HTTP 429.*the pause it asked for \(1[12]\d s more\)/);
		expect(held.items).toEqual([]);
		expect(trigger.staticData).toEqual(before);
		expect(listRequests()).toBe(sentBefore);
		// The pause over (the real clock cannot be moved: the gate is forgotten instead).
		forgetPackageRateLimits();

		// Poll 2: the first list request fails with 500 on every retry: nothing handled, so the
		// error is reported and the static data stays as it was.
		emulator.faults.failNext({ method: 'GET', path: '/files', status: 500, count: 4 });
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/500|internal/i);
		expect(failed.items).toEqual([]);
		expect(trigger.staticData).toEqual(before);

		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	it('values requests failing in the middle of a page: the files before them come out, the rest next time', async () => {
		const files = addFiles(emulator.state, 250, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(
			emulator,
			{ event, startFrom: 'date', startDate: iso(T0), options: { includeValues: true } },
			host,
		);
		let valuesRequests = 0;
		const log = emulator.requests;
		const push = log.push;
		log.push = function (...entries) {
			for (const entry of entries) {
				if (/\/values$/.test(entry.path) && ++valuesRequests === 130) {
					// Four requests run side by side, each tried four times: all of them fail.
					emulator.faults.failNext({ method: 'GET', path: /\/values$/, status: 503, count: 16 });
				}
			}
			return push.apply(this, entries);
		};
		const first = await trigger.poll();
		log.push = push;
		emulator.faults.clear();
		expect(first.error).toBeUndefined();
		expect(first.items.length).toBeGreaterThanOrEqual(100);
		expect(first.items.length).toBeLessThan(250);
		for (const item of first.items) expect(item.json.values).toEqual([]);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	it('a connection reset on every retry of the first request: error reported, nothing moves', async () => {
		const files = addFiles(emulator.state, 40, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) }, host);
		await trigger.pollUntilIdle();
		const more = addFiles(emulator.state, 10, { createdAtMs: (i) => T0 + MINUTE * 60 + i });
		const before = structuredClone(trigger.staticData);
		emulator.faults.resetConnectionNext({ method: 'GET', path: '/files', afterBytes: 0, count: 4 });
		const failed = await trigger.poll();
		expect(failed.error).toBeDefined();
		expect(failed.items).toEqual([]);
		expect(trigger.staticData).toEqual(before);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...files, ...more].map((file) => file.fileId));
	});
});
