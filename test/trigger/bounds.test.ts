/**
 * What one poll may cost, whatever the service lists: at most Max Documents per Poll items (1,000
 * by default; the rest waits for the next poll, nothing is lost), static data of bounded size, and
 * a bounded number of list requests, also inside a timestamp that thousands of files share.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
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

	it('a tie of 2,500 files read over three polls, 150 of the handled ones leaving it in between: each once, its place found again', async () => {
		const tied = addFiles(emulator.state, 2_500, { createdAtMs: () => TIE });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		await trigger.poll();
		await trigger.poll();
		expect(trigger.staticData.cursor).toEqual({ at: iso(TIE), ids: expect.any(Array), count: 2_000 });
		expect((trigger.staticData.cursor as { ids: string[] }).ids).toEqual(tied.slice(1_000, 2_000).map((file) => file.fileId));

		// 150 handled files leave the tie: updated (File Updated lists them again, later) or deleted.
		const leaving = [...tied.slice(10, 60), ...tied.slice(1_500, 1_600)];
		leaving.forEach((file, i) => {
			if (event === 'fileUpdated') file.updatedAtMs = TIE + MINUTE + i;
			else emulator.state.deleteFile(file);
		});
		emulator.state.touchData();
		emulator.requests.length = 0;
		const third = await trigger.poll();
		// The page where the last handled file was and the one before it (where it is now), then
		// the rest of the tie (6 pages, a check before each next one) and the files that left it.
		expect(listRequests(emulator).length).toBeLessThanOrEqual(2 + 6 + 5 + 3);
		expect(third.items.length).toBe(event === 'fileUpdated' ? 650 : 500);
		await trigger.pollUntilIdle();
		expect(trigger.ledger.duplicateVersions()).toEqual([]);
		expect(new Set(trigger.ledger.ids())).toEqual(new Set(tied.map((file) => file.fileId)));
		expect(trigger.ledger.items).toHaveLength(event === 'fileUpdated' ? 2_650 : 2_500);
	});
});
