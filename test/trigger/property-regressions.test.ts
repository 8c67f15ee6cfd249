/**
 * The counterexamples the trigger's property test found (test/fuzz/trigger.property.test.ts),
 * each replayed as it was shrunk, through the same world: n8n-core's poll context against the
 * emulator, n8n's clock on the package's wait clock, every invariant checked after each poll and
 * exactly-once at the end.
 */
import { useEmulator, useFakeWaitClock } from '../node/support';
import type { Scenario } from '../fuzz/trigger-world';
import { TriggerWorld } from '../fuzz/trigger-world';

const emulator = useEmulator();
const clock = useFakeWaitClock();

async function replay(scenario: Scenario): Promise<void> {
	const world = new TriggerWorld(emulator, clock, scenario);
	try {
		await world.run();
	} catch (error) {
		throw new Error(`${(error as Error).message}\n${world.journal.join('\n')}`);
	}
}

it('Start From "Now": a file added after activation at the same millisecond as the newest files is not taken for history', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 5, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('Start From "Now": 130 files sharing the newest millisecond at activation stay history, also those past the first page', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 130, when: 'now', status: 'processed' },
			{ kind: 'add', count: 2, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('Start From "Now": 131 files at the newest millisecond and one dated ahead at activation stay history', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 130, when: 'now', status: 'processed' },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'add', count: 1, when: 'ahead', status: 'processed' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('Start From "Now": a file processed before activation and dated after the cursor limit does not fire when it is rerun', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 5, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
			{ kind: 'reprocess', pick: 0 },
			{ kind: 'poll', lost: false },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('Start From "Now": 130 files dated within the cursor lag at activation, then one added at the oldest one\'s millisecond: it comes out', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 130, when: 'justBehind', status: 'processed' },
			{ kind: 'poll', lost: false },
			{ kind: 'add', count: 1, when: 'tie', status: 'processed' },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('File Processed: a file emitted ahead of the cursor whose timestamp then becomes unreadable is not emitted again', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'date',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
			{ kind: 'advance', ms: 1000 },
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'poll', lost: false },
		],
	});
});

it('File Updated: 130 files handled at one timestamp all change before the next poll, with one more just after: all come out', async () => {
	await replay({
		event: 'fileUpdated',
		start: 'date',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 130, when: 'now', status: 'processing' },
			{ kind: 'advance', ms: 240000 },
			{ kind: 'add', count: 1, when: 'now', status: 'processing' },
			{ kind: 'poll', lost: false },
			{ kind: 'poll', lost: false },
			{ kind: 'poll', lost: false },
		],
	});
});

it('File Processed: a recheck answer that lists fewer files than its count does not make a remembered file look deleted', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'date',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 1, when: 'now', status: 'processing' },
			{ kind: 'advance', ms: 660000 },
			{ kind: 'poll', lost: false },
			{ kind: 'finish', pick: 0 },
			{ kind: 'fault', what: 'shrink', at: 2 },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
		],
	});
});

it('Start From "Now": an activation answer that lists fewer files than its count starts nothing, so no file of the history comes out', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'now',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 3, when: 'now', status: 'processed' },
			{ kind: 'fault', what: 'shrink', at: 1 },
			{ kind: 'advance', ms: 1000 },
			{ kind: 'finish', pick: 0 },
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
		],
	});
});

it('File Processed: a file at the cursor\'s own timestamp whose timestamp then becomes unreadable is not emitted again', async () => {
	await replay({
		event: 'fileProcessed',
		start: 'date',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'advance', ms: 30000 },
			{ kind: 'poll', lost: false },
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'poll', lost: false },
			{ kind: 'poll', lost: false },
			{ kind: 'finish', pick: 0 },
		],
	});
});

it('File Updated: a file emitted ahead of the cursor whose timestamp becomes unreadable, then changes: no third item', async () => {
	await replay({
		event: 'fileUpdated',
		start: 'date',
		host: 'in-memory',
		maxItems: 1000,
		steps: [
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'poll', lost: false },
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'poll', lost: false },
			{ kind: 'reprocess', pick: 0 },
			{ kind: 'poll', lost: false },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
			{ kind: 'add', count: 1, when: 'now', status: 'processed' },
		],
	});
});
