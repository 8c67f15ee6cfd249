/**
 * What one poll may cost, whatever the service lists: at most Max Documents per Poll items (1,000
 * by default; the rest waits for the next poll, nothing is lost), static data of bounded size, and
 * a bounded number of list requests, also inside a timestamp that thousands of files share.
 */
import { addFiles } from '../emulator/bulk-files';
import { ActiveTrigger, MINUTE, iso, listRequests, onListRequest, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const TIE = T0 + 10 * MINUTE;

/** Static data of a trigger whose lists are full: 1,000 ids of 36 characters and a little more. */
const STATIC_DATA_BOUND = 45_000;

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s: bounded polls', (event) => {
	it('emits at most 1,000 documents per poll; the rest comes on the next polls, each once', async () => {
		const files = addFiles(emulator.state, 2_500, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		const counts: number[] = [];
		for (let poll = 0; poll < 4; poll++) counts.push((await trigger.poll()).items.length);
		expect(counts).toEqual([1_000, 1_000, 500, 0]);
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	it('Max Documents per Poll sets the bound', async () => {
		const files = addFiles(emulator.state, 250, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, {
			event,
			startFrom: 'date',
			startDate: iso(T0),
			options: { maxDocumentsPerPoll: 100 },
		});
		const counts: number[] = [];
		for (let poll = 0; poll < 4; poll++) counts.push((await trigger.poll()).items.length);
		expect(counts).toEqual([100, 100, 50, 0]);
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	it('a service that adds 100 files at one timestamp on every list request: bounded items, static data and requests per poll; all of them once when it stops', async () => {
		const tied = addFiles(emulator.state, 100, { createdAtMs: () => TIE });
		let rounds = 0;
		const stop = onListRequest(emulator, () => {
			if (rounds++ < 60) tied.push(...addFiles(emulator.state, 100, { createdAtMs: () => TIE }));
		});
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		let seen = 0;
		for (let poll = 0; poll < 4; poll++) {
			const result = await trigger.poll();
			const requests = listRequests(emulator).length - seen;
			seen += requests;
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1_000);
			expect(JSON.stringify(result.staticData).length).toBeLessThan(STATIC_DATA_BOUND);
			expect((result.staticData.cursor as { ids: string[] }).ids.length).toBeLessThanOrEqual(1_000);
			// 10 pages of the tie, a check of the file before each page, one request to find its place
			// again: never every earlier page of the timestamp again.
			expect(requests).toBeLessThanOrEqual(22);
		}
		stop();
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(tied.map((file) => file.fileId));
		expect(tied).toHaveLength(6_100);
	});
});
