/**
 * Issue 38, item 2: Start From "Now" replayed history after a burst. 120 files processed within
 * the 5 s before activation (a batch that finished as the workflow was published), then 30 new
 * ones: the trigger emitted the 30 and also the 20 older files past the first page it read at
 * activation. Now activation reads as many pages as the cursor's lag holds
 * (TRIGGER_LIMITS.startPages at most), so history is whole; past that bound, history is everything
 * dated up to the oldest file read. n8n's clock is the package's wait clock, moved by the test.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { TRIGGER_LIMITS } from '../../nodes/shared/limits';
import { useFakeWaitClock } from '../node/support';
import { ActiveTrigger, EVENTS_AND_HOSTS, MINUTE, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const clock = useFakeWaitClock();

const PAGE = 100;

/** The list requests sent, newest first, before anything was emitted: activation's pages. */
function activationPages(): number {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.endsWith('/files') && entry.query.sortOrder === 'DESC').length;
}

/** 30 files created a second after activation, polled until their time has passed: they come out, each once, and nothing else. */
async function expectOnlyNewFiles(trigger: ActiveTrigger): Promise<void> {
	clock.advance(1_000);
	const next = addFiles(emulator.state, 30, { createdAtMs: (i) => clock.now() + i });
	await trigger.pollUntilIdle();
	clock.advance(10 * MINUTE);
	await trigger.pollUntilIdle();
	trigger.ledger.expectEachOnce(next.map((file) => file.fileId));
}

describe.each(EVENTS_AND_HOSTS)('%s with the %s static data host', (event, host) => {
	it('120 files processed in the 5 s before activation, then 30 new ones: only the 30 come out, each once', async () => {
		const start = clock.now();
		addFiles(emulator.state, 120, { createdAtMs: (i) => start - TRIGGER_LIMITS.cursorLagMs + 100 + i * 30 });
		const trigger = new ActiveTrigger(emulator, { event }, host);

		expect((await trigger.poll()).items).toEqual([]);
		// Two pages: the 120 files dated within the cursor's lag do not fit in one.
		expect(activationPages()).toBe(2);

		await expectOnlyNewFiles(trigger);
	});

	it(`past the bound (more than ${TRIGGER_LIMITS.startPages} pages within the lag): ${TRIGGER_LIMITS.startPages} pages are read, and nothing from before comes out`, async () => {
		const start = clock.now();
		const burst = TRIGGER_LIMITS.startPages * PAGE + 50;
		addFiles(emulator.state, burst, { createdAtMs: (i) => start - TRIGGER_LIMITS.cursorLagMs + 100 + i * 4 });
		const trigger = new ActiveTrigger(emulator, { event }, host);

		expect((await trigger.poll()).items).toEqual([]);
		expect(activationPages()).toBe(TRIGGER_LIMITS.startPages);

		await expectOnlyNewFiles(trigger);
	});
});
