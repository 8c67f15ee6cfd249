/**
 * Issue 34, finding 3: a timestamp inside the future tolerance pinned the cursor. One file dated
 * now + 9 minutes moved the cursor there, and the 5 files created next (dated now) were never
 * listed again. Now the cursor never passes n8n's clock minus TRIGGER_LIMITS.cursorLagMs: a file
 * dated after that is emitted and remembered (with its timestamp, in `early`) until the cursor
 * may pass it. n8n's clock is the package's wait clock here, moved by the test.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { TRIGGER_LIMITS } from '../../nodes/shared/limits';
import { useFakeWaitClock } from '../node/support';
import { ActiveTrigger, EVENTS_AND_HOSTS, iso, MINUTE, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const clock = useFakeWaitClock();

function cursorAt(trigger: ActiveTrigger): number {
	return Date.parse((trigger.staticData.cursor as { at: string }).at);
}

describe.each(EVENTS_AND_HOSTS)('%s with the %s static data host', (event, host) => {
	it('a file dated now + 9 minutes: emitted, and the files created after it (dated now) too, each once', async () => {
		const start = clock.now();
		const before = addFiles(emulator.state, 3, { createdAtMs: (i) => start - 60 * MINUTE + i * 1000 });
		const [ahead] = addFiles(emulator.state, 1, { createdAtMs: () => start + 9 * MINUTE });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(start - 120 * MINUTE) }, host);

		const first = await trigger.poll();
		expect(first.items.map((item) => item.json.fileId)).toEqual([...before, ahead].map((file) => file.fileId));
		expect(cursorAt(trigger)).toBeLessThanOrEqual(clock.now() - TRIGGER_LIMITS.cursorLagMs);
		expect(trigger.staticData.early).toEqual([[ahead.fileId, iso(ahead.createdAtMs)]]);

		clock.advance(1_000);
		const next = addFiles(emulator.state, 5, { createdAtMs: (i) => clock.now() + i });
		const second = await trigger.poll();
		expect(second.items.map((item) => item.json.fileId)).toEqual(next.map((file) => file.fileId));
		expect(cursorAt(trigger)).toBeLessThanOrEqual(clock.now() - TRIGGER_LIMITS.cursorLagMs);

		// Once their time has passed, the cursor passes them and forgets them.
		clock.advance(10 * MINUTE);
		expect((await trigger.poll()).items).toEqual([]);
		expect(trigger.staticData.early).toBeUndefined();
		expect(cursorAt(trigger)).toBe(ahead.createdAtMs);
		const last = addFiles(emulator.state, 2, { createdAtMs: (i) => clock.now() - 1_000 + i });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...before, ahead, ...next, ...last].map((file) => file.fileId));
	});

	it('Start From "Now" with the newest file dated now + 9 minutes: the files created after activation, dated now, come out', async () => {
		const start = clock.now();
		addFiles(emulator.state, 3, { createdAtMs: (i) => start - 60 * MINUTE + i * 1000 });
		addFiles(emulator.state, 1, { createdAtMs: () => start + 9 * MINUTE });
		const trigger = new ActiveTrigger(emulator, { event }, host);
		expect((await trigger.poll()).items).toEqual([]);
		expect(cursorAt(trigger)).toBeLessThanOrEqual(clock.now() - TRIGGER_LIMITS.cursorLagMs);

		clock.advance(1_000);
		const next = addFiles(emulator.state, 5, { createdAtMs: (i) => clock.now() + i });
		await trigger.pollUntilIdle();
		clock.advance(10 * MINUTE);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(next.map((file) => file.fileId));
	});

	it(`a file the service makes visible ${TRIGGER_LIMITS.cursorLagMs / 1000} s after its timestamp is not lost`, async () => {
		const start = clock.now();
		const first = addFiles(emulator.state, 2, { createdAtMs: (i) => start - 2_000 + i });
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(start - MINUTE) }, host);
		await trigger.pollUntilIdle();
		clock.advance(1_000);
		// Created (visible) now, dated 4 s ago, after the first files were emitted.
		const late = addFiles(emulator.state, 1, { createdAtMs: () => clock.now() - TRIGGER_LIMITS.cursorLagMs + 1_000 });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...first, ...late].map((file) => file.fileId));
	});
});
