/**
 * Files sharing one timestamp across a page edge, and files that change or vanish between two
 * list requests of the same poll.
 */
import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import { call } from '../emulator/test-helpers';
import { ActiveTrigger, MINUTE, iso, listRequests, onListRequest, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const TIE = T0 + 10 * MINUTE;

/** 30 files before TIE, `ties` files at exactly TIE (created and updated), 70 after. */
function seedAroundTie(ties: number) {
	const before = addFiles(emulator.state, 30, { createdAtMs: (i) => T0 + i * 1000 });
	const tied = addFiles(emulator.state, ties, { createdAtMs: () => TIE });
	const after = addFiles(emulator.state, 70, { createdAtMs: (i) => TIE + 1 + i * 1000 });
	return { before, tied, after, all: [...before, ...tied, ...after] };
}

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s: files sharing one timestamp', (event) => {
	it('emits 150 files sharing a timestamp across two page edges once each', async () => {
		const { all } = seedAroundTie(150);
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(all.map((file) => file.fileId));
		// The second page number was needed (and checked) only inside the tie.
		expect(listRequests(emulator).some((entry) => entry.query.page === '2')).toBe(true);
	});

	it('resumes inside a tie larger than a page: 120 handled, 60 more arrive at the same instant', async () => {
		const first = addFiles(emulator.state, 120, { createdAtMs: () => TIE });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		await trigger.poll();
		trigger.ledger.expectEachOnce(first.map((file) => file.fileId));
		expect(trigger.staticData.cursor).toEqual({ at: iso(TIE), ids: expect.any(Array) });
		expect((trigger.staticData.cursor as { ids: string[] }).ids).toHaveLength(120);

		const second = addFiles(emulator.state, 60, { createdAtMs: () => TIE });
		const later = addFiles(emulator.state, 5, { createdAtMs: (i) => TIE + 1000 + i });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...first, ...second, ...later].map((file) => file.fileId));
	});
});

describe('a file that changes between two list requests of one poll', () => {
	it('File Updated: a tied file that moves away while the tie is paged does not make its neighbour skip', async () => {
		const { tied, all } = seedAroundTie(150);
		// Requests: #1 from T0 (30 + 70 tied), #2 from TIE page 1, #3 from TIE page 2.
		// When #3 arrives, the first tied file is updated: everything behind it moves up one place.
		const moved = tied[0];
		const stop = onListRequest(emulator, (n) => {
			if (n === 3) {
				moved.updatedAtMs = emulator.clock.now();
				emulator.state.touchData();
			}
		});
		const trigger = new ActiveTrigger(emulator, { event: 'fileUpdated', startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		stop();
		expect(trigger.ledger.duplicateVersions()).toEqual([]);
		expect(new Set(trigger.ledger.ids())).toEqual(new Set(all.map((file) => file.fileId)));
		// The moved file twice (its old and its new version), every other file once.
		expect(trigger.ledger.countOf(moved.fileId)).toBe(2);
		expect(trigger.ledger.items).toHaveLength(all.length + 1);
	});

	it('File Processed: a tied file deleted while the tie is paged does not make its neighbour skip', async () => {
		const { tied, all } = seedAroundTie(150);
		const deleted = tied[0];
		const stop = onListRequest(emulator, (n) => {
			if (n === 3) emulator.state.deleteFile(deleted);
		});
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		stop();
		// The deleted file was emitted on the first page, before it was deleted.
		trigger.ledger.expectEachOnce(all.map((file) => file.fileId));
	});

	it('File Updated: files updated between pages come again in their new version, once', async () => {
		const files = addFiles(emulator.state, 300, { createdAtMs: (i) => T0 + i * 1000 });
		const seenThenUpdated = files[10];
		const updatedBeforeSeen = files[250];
		const stop = onListRequest(emulator, (n) => {
			if (n === 2) {
				seenThenUpdated.updatedAtMs = emulator.clock.now();
				updatedBeforeSeen.updatedAtMs = emulator.clock.now() + 1;
				emulator.state.touchData();
			}
		});
		const trigger = new ActiveTrigger(emulator, { event: 'fileUpdated', startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		stop();
		expect(trigger.ledger.duplicateVersions()).toEqual([]);
		expect(trigger.ledger.countOf(seenThenUpdated.fileId)).toBe(2);
		expect(trigger.ledger.countOf(updatedBeforeSeen.fileId)).toBe(1);
		expect(trigger.ledger.items.find((item) => item.fileId === updatedBeforeSeen.fileId)?.updatedAt).toBe(
			iso(updatedBeforeSeen.updatedAtMs),
		);
		expect(new Set(trigger.ledger.ids())).toEqual(new Set(files.map((file) => file.fileId)));
		expect(trigger.ledger.items).toHaveLength(301);
	});

	it('File Processed: a file still processing on page 1 and processed before page 2 is emitted once', async () => {
		const head = addFiles(emulator.state, 100, { createdAtMs: (i) => T0 + i * 1000 });
		const inFlight = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 100_500, status: () => 'processing' });
		const tail = addFiles(emulator.state, 150, { createdAtMs: (i) => T0 + 101_000 + i * 1000 });
		// #1 answers files 0-99, #2 starts at file 99 and holds the file in flight: it finishes
		// right after that answer, before request #3; an emitted file is also exported meanwhile.
		const stop = onListRequest(emulator, (n) => {
			if (n === 3) {
				finishProcessing(emulator.state, inFlight);
				head[5].updatedAtMs = emulator.clock.now();
			}
		});
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
		const first = await trigger.poll();
		stop();
		expect(first.error).toBeUndefined();
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...head, ...inFlight, ...tail].map((file) => file.fileId));
		expect(trigger.staticData.pending).toEqual([]);
	});

	it('File Processed: export reports and reruns of emitted files emit nothing', async () => {
		const files = addFiles(emulator.state, 20, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		for (const file of files.slice(0, 5)) {
			const reply = await call(emulator, 'PATCH', `/files/${file.fileId}`, { body: { integrationExportStatus: 'completed' } });
			expect(reply.status).toBe(200);
		}
		const after = await trigger.poll();
		expect(after.outputs).toBeNull();
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});
});
