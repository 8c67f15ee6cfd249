/**
 * The counterexamples the trigger's property test found (test/fuzz/trigger-properties.test.ts),
 * each replayed as it was shrunk, through the same world: n8n-core's poll context against the
 * emulator, n8n's clock on the package's wait clock, every invariant checked after each poll and
 * exactly-once at the end. Each failed before the fix its name describes.
 */
import { useEmulator, useFakeWaitClock } from '../node/support';
import type { Scenario, Step } from '../fuzz/trigger-world';
import { TriggerWorld } from '../fuzz/trigger-world';

const emulator = useEmulator();
const clock = useFakeWaitClock();

const poll: Step = { kind: 'poll', lost: false };
const add = (count: number, when: Extract<Step, { kind: 'add' }>['when'], status: 'processed' | 'processing' = 'processed'): Step => ({ kind: 'add', count, when, status });

function history(event: Scenario['event'], start: Scenario['start'], steps: Step[]): Scenario {
	return { event, start, host: 'in-memory', maxItems: 1000, steps };
}

/** Start From "Now" over 130 processed files: activated, but the walk of that poll fails on every retry. */
const activationWalkFailed: Step[] = [add(130, 'now'), { kind: 'advance', ms: 240_000 }, { kind: 'fault', what: 'fail500', at: 2 }, poll];

const COUNTEREXAMPLES: Array<[name: string, scenario: Scenario]> = [
	[
		'Start From "Now": a file added after activation at the same millisecond as the newest files is not taken for history',
		history('fileProcessed', 'now', [add(5, 'now'), poll, add(1, 'now'), poll]),
	],
	[
		'Start From "Now": 130 files sharing the newest millisecond at activation stay history, also those past the first page',
		history('fileProcessed', 'now', [add(130, 'now'), add(2, 'now'), poll]),
	],
	[
		'Start From "Now": 131 files at the newest millisecond and one dated ahead at activation stay history',
		history('fileProcessed', 'now', [add(130, 'now'), add(1, 'now'), add(1, 'ahead'), poll]),
	],
	[
		'Start From "Now": a file processed before activation and dated after the cursor limit does not fire when it is rerun',
		history('fileProcessed', 'now', [add(5, 'now'), poll, { kind: 'reprocess', pick: 0 }, poll, add(1, 'now'), poll]),
	],
	[
		"Start From \"Now\": 130 files dated within the cursor lag at activation, then one added at the oldest one's millisecond: it comes out",
		history('fileProcessed', 'now', [add(130, 'justBehind'), poll, add(1, 'tie'), add(1, 'now'), add(1, 'now'), poll]),
	],
	[
		'Start From "Now": an activation answer that lists fewer files than its count starts nothing, so no file of the history comes out',
		history('fileProcessed', 'now', [add(3, 'now'), { kind: 'fault', what: 'shrink', at: 1 }, { kind: 'advance', ms: 1000 }, { kind: 'corrupt', pick: 0, how: 'badStamp' }]),
	],
	[
		'Start From "Now", File Updated: a group sharing the newest timestamp within the cursor limit that the activation page cuts stays history',
		history('fileUpdated', 'now', [add(130, 'ahead'), { kind: 'advance', ms: 240_000 }, add(1, 'now')]),
	],
	[
		'File Processed: a file emitted ahead of the cursor whose timestamp then becomes unreadable is not emitted again',
		history('fileProcessed', 'date', [add(1, 'now'), poll, { kind: 'advance', ms: 1000 }, { kind: 'corrupt', pick: 0, how: 'badStamp' }, poll]),
	],
	[
		"File Processed: a file at the cursor's own timestamp whose timestamp then becomes unreadable is not emitted again",
		history('fileProcessed', 'date', [add(1, 'now'), { kind: 'advance', ms: 30_000 }, poll, { kind: 'corrupt', pick: 0, how: 'badStamp' }, poll, poll]),
	],
	[
		'File Updated: a file emitted ahead of the cursor whose timestamp becomes unreadable, then changes: no third item',
		history('fileUpdated', 'date', [add(1, 'now'), poll, { kind: 'corrupt', pick: 0, how: 'badStamp' }, poll, { kind: 'reprocess', pick: 0 }, poll, add(2, 'now')]),
	],
	[
		'File Updated: 130 files handled at one timestamp all change before the next poll, with one more just after: all come out',
		history('fileUpdated', 'date', [add(130, 'now', 'processing'), { kind: 'advance', ms: 240_000 }, add(1, 'now', 'processing'), poll, poll, poll]),
	],
	[
		'File Processed: a recheck answer that lists fewer files than its count does not make a remembered file look deleted',
		history('fileProcessed', 'date', [
			add(1, 'now', 'processing'),
			{ kind: 'advance', ms: 660_000 },
			poll,
			{ kind: 'finish', pick: 0 },
			{ kind: 'fault', what: 'shrink', at: 2 },
			add(1, 'now'),
		]),
	],
	[
		"Start From \"Now\", File Updated: a file changed at the horizon's very millisecond, past an activation page full of later files, stays history (FUZZ_SEED=12)",
		history('fileUpdated', 'now', [add(1, 'justBehind'), add(130, 'now'), { kind: 'advance', ms: 1000 }, poll]),
	],
	[
		'File Processed: a file remembered in flight whose timestamp becomes unreadable is emitted once by the recheck, not again by the walk (FUZZ_SEED=20261126)',
		history('fileProcessed', 'date', [
			add(1, 'now', 'processing'),
			poll,
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'finish', pick: 0 },
			poll,
			add(1, 'now'),
			add(1, 'now'),
		]),
	],
	[
		'File Processed: a file in flight that finishes while a request of the poll fails with 500 is emitted once (FUZZ_SEED=17)',
		history('fileProcessed', 'date', [
			add(1, 'now', 'processing'),
			poll,
			{ kind: 'fault', what: 'fail500', at: 2 },
			{ kind: 'finish', pick: 0 },
			poll,
			{ kind: 'finish', pick: 0 },
			{ kind: 'finish', pick: 0 },
		]),
	],
	[
		'Start From "Now", File Processed: history whose timestamp became unreadable before any walk met it comes out at most once, the rest of the history never (FUZZ_SEED=23; the oracle had demanded never)',
		history('fileProcessed', 'now', [
			...activationWalkFailed,
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'finish', pick: 0 },
			poll,
		]),
	],
	[
		'Start From "Now", File Processed: history rerun before any walk met it (the walk of the activation poll failed) comes out at most once when it finishes (FUZZ_SEED=23, shrunk again; the oracle had demanded never)',
		history('fileProcessed', 'now', [
			...activationWalkFailed,
			{ kind: 'corrupt', pick: 0, how: 'badStamp' },
			{ kind: 'reprocess', pick: 1 },
			poll,
		]),
	],
];

it.each(COUNTEREXAMPLES)('%s', async (_name, scenario) => {
	const world = new TriggerWorld(emulator, clock, scenario);
	try {
		await world.run();
	} catch (error) {
		throw new Error(`${(error as Error).message}\n${world.journal.join('\n')}`);
	}
});
