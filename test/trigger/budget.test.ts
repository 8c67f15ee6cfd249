/**
 * Bounded work and memory: n8n's poll budget, the cap on files remembered while in flight, and
 * two triggers sharing the process (state lives in static data only).
 */
import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import { ActiveTrigger, MINUTE, activateTrigger, iso, listRequests, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s within the poll budget', (event) => {
	it('stops paging early when the budget is spent and resumes there on the next poll', async () => {
		const files = addFiles(emulator.state, 1_000, { createdAtMs: (i) => T0 + i * 1000 });
		emulator.faults.delayNext({ method: 'GET', path: '/files', delayMs: 40, count: 1_000 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });

		const first = await trigger.poll({ pollBudgetMs: 200 });
		expect(first.error).toBeUndefined();
		expect(first.items.length).toBeGreaterThan(0);
		expect(first.items.length).toBeLessThan(1_000);

		let polls = 1;
		while (trigger.ledger.items.length < 1_000 && polls < 50) {
			const next = await trigger.poll({ pollBudgetMs: 200 });
			expect(next.error).toBeUndefined();
			expect(next.items.length).toBeGreaterThan(0);
			polls++;
		}
		expect(polls).toBeGreaterThan(1);
		emulator.faults.clear();
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});

	it('makes progress even with a budget shorter than one request', async () => {
		const files = addFiles(emulator.state, 250, { createdAtMs: (i) => T0 + i * 1000 });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		const counts: number[] = [];
		for (let poll = 0; poll < 3; poll++) counts.push((await trigger.poll({ pollBudgetMs: 1 })).items.length);
		expect(counts).toEqual([100, 99, 51]);
		trigger.ledger.expectEachOnce(files.map((file) => file.fileId));
	});
});

describe('File Processed: files remembered while they are processed', () => {
	it('remembers at most 1,000; the cursor waits for room instead of forgetting one, the walk goes on ahead', async () => {
		const inFlight = addFiles(emulator.state, 1_005, { createdAtMs: (i) => T0 + i * 1000, status: () => 'processing' });
		const done = addFiles(emulator.state, 20, { createdAtMs: (i) => T0 + 2_000_000 + i });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });

		const first = await trigger.poll();
		trigger.ledger.expectEachOnce(done.map((file) => file.fileId));
		expect(trigger.staticData.pending).toHaveLength(1_000);
		// The cursor stopped before the first file that did not fit; the walk went on from there
		// and keeps the ids of what it emitted ahead of the cursor.
		expect(trigger.staticData.cursor).toEqual({ at: iso(inFlight[999].createdAtMs), ids: [inFlight[999].fileId] });
		expect(trigger.staticData.frontier).toEqual({ at: iso(done[19].createdAtMs), ids: [done[19].fileId] });
		expect(trigger.staticData.ahead).toEqual(done.map((file) => file.fileId));
		expect(first.items).toHaveLength(20);
		expect(JSON.stringify(trigger.staticData).length).toBeLessThan(45_000);

		finishProcessing(emulator.state, inFlight);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...inFlight, ...done].map((file) => file.fileId));
		expect(trigger.staticData.pending).toEqual([]);
	});

	it('forgets files that are deleted, failed, or unchanged for a day while newer files arrive', async () => {
		const [deleted, failing, stuck, finishing] = addFiles(emulator.state, 4, {
			createdAtMs: (i) => T0 + i,
			status: () => 'processing',
		});
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
		await trigger.poll();
		expect(trigger.staticData.pending).toEqual([deleted.fileId, failing.fileId, stuck.fileId, finishing.fileId]);

		emulator.state.deleteFile(deleted);
		failing.status = 'failed';
		failing.updatedAtMs = T0 + MINUTE;
		finishProcessing(emulator.state, [finishing], { atMs: T0 + MINUTE });
		// A day after the stuck file's last change (and within 10 minutes of n8n's clock).
		const newer = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 24 * 60 * MINUTE + 2 * MINUTE });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([finishing.fileId, newer[0].fileId]);
		expect(trigger.staticData.pending).toEqual([]);
		expect(stuck.status).toBe('processing');
	});

	it('rechecks remembered files with one request per 100 of them', async () => {
		addFiles(emulator.state, 250, { createdAtMs: (i) => T0 + i, status: () => 'processing' });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
		await trigger.poll();
		emulator.requests.length = 0;
		await trigger.poll();
		const requests = listRequests(emulator);
		expect(requests.map((entry) => (entry.query.fileIds ? JSON.parse(String(entry.query.fileIds)).length : 'walk'))).toEqual([
			'walk',
			100,
			100,
			50,
		]);
	});
});

it('two active triggers in one process keep separate state (static data only)', async () => {
	const files = addFiles(emulator.state, 300, { createdAtMs: (i) => T0 + i * 1000 });
	const a = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
	const b = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0 + 100_000) });
	for (let poll = 0; poll < 4; poll++) {
		await a.poll({ pollBudgetMs: 1 });
		await b.poll({ pollBudgetMs: 1 });
	}
	a.ledger.expectEachOnce(files.map((file) => file.fileId));
	b.ledger.expectEachOnce(files.slice(100).map((file) => file.fileId));
});

describe('the trigger checks its request options before polling', () => {
	it.each([
		[{ requestTimeout: 'soon' }, 'Invalid Request Timeout (Seconds): expected a number of seconds, 1 or more, got "soon"'],
		[{ maxRateLimitWait: -1 }, 'Invalid Max Retry Wait (Seconds): expected a number of seconds from 0 to 3600, got "-1"'],
	])('%j', async (options, message) => {
		const trigger = await activateTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0), options });
		emulator.requests.length = 0;

		const poll = await trigger.poll();

		expect(poll.error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
