/**
 * Files the trigger does not emit (yet) never hold it back: more files in flight than File
 * Processed remembers, then a processed file, and files stuck for ever. The processed file comes
 * out on the next poll; the others come out once when they finish, also after a restart.
 */
import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import type { StaticDataHost } from '../../dev/harness';
import { ActiveTrigger, MINUTE, iso, onListRequest, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 48 * 60 * MINUTE;
const HOUR = 60 * MINUTE;

/** Pending, cursor, look-ahead: three lists of at most 1,000 ids, and a little more. */
const STATIC_DATA_BOUND = 3 * 40_000;

describe.each(['in-memory', 'staged'] as StaticDataHost[])('File Processed with the %s static data host', (host) => {
	it('1,001 files in flight, then a processed one: the processed file on the first poll, the others once when they finish', async () => {
		const inFlight = addFiles(emulator.state, 1_001, { createdAtMs: (i) => T0 + i * 1000, status: () => 'processing' });
		const [done] = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 2_000_000 });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) }, host);

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		trigger.ledger.expectEachOnce([done.fileId]);
		expect(trigger.staticData.pending).toHaveLength(1_000);
		expect(JSON.stringify(trigger.staticData).length).toBeLessThan(STATIC_DATA_BOUND);
		expect((await trigger.poll()).items).toEqual([]);

		finishProcessing(emulator.state, inFlight);
		const later = addFiles(emulator.state, 3, { createdAtMs: (i) => T0 + 3_000_000 + i });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([done, ...inFlight, ...later].map((file) => file.fileId));
		expect(trigger.staticData.pending).toEqual([]);
		expect(trigger.staticData.ahead).toBeUndefined();
	});

	it('a file passed while the walk looked ahead, processed while the walk still waits: once', async () => {
		const stuck = addFiles(emulator.state, 1_000, { createdAtMs: (i) => T0 + i * 1000, status: () => 'processing' });
		const [blocker, passed] = addFiles(emulator.state, 2, { createdAtMs: (i) => T0 + 1_500_000 + i, status: () => 'processing' });
		const ahead = addFiles(emulator.state, 50, { createdAtMs: (i) => T0 + 1_600_000 + i });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) }, host);
		await trigger.poll();
		trigger.ledger.expectEachOnce(ahead.map((file) => file.fileId));

		// It finishes while the walk still waits for room in front of the blocker; then one of the
		// remembered files finishes and makes room.
		finishProcessing(emulator.state, [passed]);
		expect((await trigger.poll()).items).toEqual([]);
		finishProcessing(emulator.state, [stuck[0]]);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...ahead, passed, stuck[0]].map((file) => file.fileId));

		finishProcessing(emulator.state, [...stuck.slice(1), blocker]);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...ahead, passed, blocker, ...stuck].map((file) => file.fileId));
		expect(trigger.staticData.pending).toEqual([]);
	});

	it('a poll failing half way while looking ahead loses nothing and repeats nothing', async () => {
		const stuck = addFiles(emulator.state, 1_001, { createdAtMs: (i) => T0 + i * 1000, status: () => 'processing' });
		const ahead = addFiles(emulator.state, 450, { createdAtMs: (i) => T0 + 1_100_000 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) }, host);
		// 11 requests bring the 1,001 files in flight and the first processed ones; the 14th fails.
		const stop = onListRequest(emulator, (n) => {
			if (n === 14) emulator.faults.failNext({ method: 'GET', path: '/files', status: 500, count: 4 });
		});
		const partial = await trigger.poll();
		stop();
		expect(partial.error).toBeUndefined();
		expect(partial.items.length).toBeGreaterThan(0);
		expect(partial.items.length).toBeLessThan(450);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(ahead.map((file) => file.fileId));
		finishProcessing(emulator.state, stuck);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...stuck, ...ahead].map((file) => file.fileId));
	});
});

it('File Processed gives up files stuck for a day of newer uploads, and walks on', async () => {
	const stuck = addFiles(emulator.state, 1_001, { createdAtMs: (i) => T0 + i, status: () => 'processing' });
	const done = addFiles(emulator.state, 30, { createdAtMs: (i) => T0 + i * HOUR });
	const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
	for (let poll = 0; poll < 4; poll++) await trigger.poll();
	trigger.ledger.expectEachOnce(done.map((file) => file.fileId));
	expect(trigger.staticData.pending).toEqual([]);
	expect(trigger.ledger.ids()).not.toContain(stuck[1_000].fileId);
	// A file that was given up and finishes later is not emitted (the walk has moved past it).
	finishProcessing(emulator.state, stuck.slice(0, 3));
	await trigger.pollUntilIdle();
	trigger.ledger.expectEachOnce(done.map((file) => file.fileId));
});

it('File Updated: 1,001 files in flight, then a processed one: the processed file on the first poll', async () => {
	const inFlight = addFiles(emulator.state, 1_001, { createdAtMs: (i) => T0 + i * 1000, status: () => 'processing' });
	const [done] = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 2_000_000 });
	const trigger = new ActiveTrigger(emulator, { event: 'fileUpdated', startFrom: 'date', startDate: iso(T0) });
	await trigger.poll();
	trigger.ledger.expectEachOnce([done.fileId]);
	finishProcessing(emulator.state, inFlight, { atMs: T0 + 3_000_000 });
	await trigger.pollUntilIdle();
	trigger.ledger.expectEachOnce([done, ...inFlight].map((file) => file.fileId));
});
