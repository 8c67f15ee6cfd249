/**
 * A 10,000-file backlog with Start From a date, for both events: every file emitted once, in a
 * number of list requests close to ceil(10,000 / 100), and a caught-up trigger costs one request.
 * (Max Documents per Poll is raised to 10,000 here; bounds.test.ts holds the default bound.)
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { ActiveTrigger, MINUTE, iso, listRequests, onListRequest, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
// A week ago: the backlog is history, the clock (real time) is after all of it.
const T0 = Math.floor(Date.now() / 1000) * 1000 - 7 * 24 * 60 * MINUTE;

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s over a 10,000-file backlog', (event) => {
	it('emits every file once on the first poll, then idles with one request', async () => {
		// Files before the start date must not come out.
		const before = addFiles(emulator.state, 5, { createdAtMs: (i) => T0 - 10 * MINUTE + i });
		const backlog = addFiles(emulator.state, 10_000, { createdAtMs: (i) => T0 + i * 7 });
		const trigger = new ActiveTrigger(emulator, {
			event,
			startFrom: 'date',
			startDate: iso(T0),
			options: { maxDocumentsPerPoll: 10_000 },
		});

		emulator.requests.length = 0;
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		trigger.ledger.expectEachOnce(backlog.map((file) => file.fileId));
		expect(trigger.ledger.ids()).not.toEqual(expect.arrayContaining([before[0].fileId]));
		// Each list after the first starts at the last file it saw, which comes back once more:
		// 100 new files on the first page, 99 on each next one.
		expect(listRequests(emulator)).toHaveLength(1 + Math.ceil((10_000 - 100) / 99));

		emulator.requests.length = 0;
		const idle = await trigger.poll();
		expect(idle.error).toBeUndefined();
		expect(idle.outputs).toBeNull();
		expect(emulator.requests).toHaveLength(1);
		expect(JSON.stringify(idle.staticData).length).toBeLessThan(400);
	});

	it('keeps exactly-once when new files arrive while the backlog is paged', async () => {
		const backlog = addFiles(emulator.state, 2_000, { createdAtMs: (i) => T0 + i * 5 });
		const arrivals: string[] = [];
		const stop = onListRequest(emulator, (n) => {
			// Every third list request, a few files are created (and processed) right now.
			if (n % 3 === 0) {
				arrivals.push(...addFiles(emulator.state, 3, { createdAtMs: () => emulator.clock.now() }).map((file) => file.fileId));
			}
		});
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });
		await trigger.pollUntilIdle();
		stop();
		expect(arrivals.length).toBeGreaterThan(0);
		trigger.ledger.expectEachOnce([...backlog, ...arrivals.map((fileId) => ({ fileId }))].map((file) => file.fileId));
	});
});
