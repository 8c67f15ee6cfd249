/**
 * Answers a faulty service may give the trigger's listing: a file dated far in the future, the
 * same file twice in one page, and a list that ignores `page`. None of them may move the cursor
 * where later files are skipped, emit a file twice, or make a poll loop.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { ActiveTrigger, MINUTE, iso, listRequests, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const TIE = T0 + 10 * MINUTE;
const FAR_FUTURE = Date.parse('9999-12-31T00:00:00.000Z');

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s', (event) => {
	describe('a file dated 9999-12-31', () => {
		it('does not move the cursor there: the files that come later are emitted, each once', async () => {
			const early = addFiles(emulator.state, 10, { createdAtMs: (i) => T0 + i * 1000 });
			const [future] = addFiles(emulator.state, 1, { createdAtMs: () => FAR_FUTURE });
			const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect((trigger.staticData.cursor as { at: string }).at).toBe(iso(early[9].createdAtMs));
			expect(first.logs.some((line) => line.level === 'warn' && line.message.includes(future.fileId))).toBe(true);

			const later = addFiles(emulator.state, 5, { createdAtMs: (i) => T0 + MINUTE * 60 + i });
			await trigger.pollUntilIdle();
			trigger.ledger.expectEachOnce([...early, ...later].map((file) => file.fileId));
		});

		it('Start From "Now" does not start there', async () => {
			addFiles(emulator.state, 3, { createdAtMs: (i) => T0 + i * 1000 });
			addFiles(emulator.state, 2, { createdAtMs: (i) => FAR_FUTURE - i });
			const trigger = new ActiveTrigger(emulator, { event });
			const activation = await trigger.poll();
			expect(activation.error).toBeUndefined();
			expect(activation.items).toEqual([]);
			const later = addFiles(emulator.state, 4, { createdAtMs: (i) => T0 + MINUTE * 60 + i });
			await trigger.pollUntilIdle();
			trigger.ledger.expectEachOnce(later.map((file) => file.fileId));
		});
	});

	it('the same file twice in one page is emitted once', async () => {
		const files = addFiles(emulator.state, 30, { createdAtMs: (i) => T0 + i * 1000 });
		emulator.faults.repeatIdNext({ method: 'GET', path: '/files', count: 5 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	describe('a list that ignores `page`', () => {
		it('150 files at one timestamp: the poll stops at the repeated page, says so, and loops not', async () => {
			const tied = addFiles(emulator.state, 150, { createdAtMs: () => TIE });
			emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 1_000 });
			const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });

			const first = await trigger.poll();
			// page 1 and page 2, which brings no file page 1 had not: never more than 150/100 + 1.
			expect(listRequests(emulator)).toHaveLength(2);
			expect(first.error).toBeUndefined();
			expect(first.items).toHaveLength(100);
			expect(first.logs.some((line) => line.level === 'warn' && /ignore.*page/i.test(line.message))).toBe(true);

			// With nothing handled, the next poll fails clearly and moves nothing.
			const before = structuredClone(trigger.staticData);
			const second = await trigger.poll();
			expect(second.error?.message).toMatch(/page/);
			expect(listRequests(emulator).length).toBeLessThanOrEqual(2 + 3);
			expect(trigger.staticData).toEqual(before);

			emulator.faults.clear();
			await trigger.pollUntilIdle();
			trigger.ledger.expectEachOnce(tied.map((file) => file.fileId));
		});
	});
});

it('Fetch Test Event against a list that ignores `page` stops at the repeated page', async () => {
	addFiles(emulator.state, 300, { createdAtMs: (i) => T0 + i, status: () => 'processing' });
	emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 1_000 });
	const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed' });
	const result = await trigger.poll({ mode: 'manual' });
	expect(result.error).toBeUndefined();
	expect(result.outputs).toBeNull();
	expect(listRequests(emulator)).toHaveLength(2);
});
