/**
 * Issue 34, finding 6: one unparsable timestamp wedged the trigger. A record stamped
 * `2024-01-01T00:00:60Z` made every poll fail for ever (the whole page was refused), including
 * the three files listed before it. Now a file whose timestamp is not RFC 3339 text cannot stop
 * the stream: the files around it are handled as usual, and it is reported once (emitted with a
 * note in triggerNotes; File Processed: once it is processed), its id kept (TRIGGER_LIMITS.maxUnplaced).
 */
import type { IDataObject } from 'n8n-workflow';

import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import { ActiveTrigger, EVENTS_AND_HOSTS, iso, MINUTE, rewriteListedFiles, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const BAD_STAMPS = ['2024-01-01T00:00:60Z', '2024-02-30T00:00:00Z', '2024-01-01T00:00:00', 'yesterday', ''];

function warnings(logs: Array<{ level: string; message: string }>, about: RegExp): number {
	return logs.filter((line) => line.level === 'warn' && about.test(line.message)).length;
}

describe.each(EVENTS_AND_HOSTS)('%s with the %s static data host', (event, host) => {
	const stamp = event === 'fileProcessed' ? 'createdAt' : 'updatedAt';

	it.each(BAD_STAMPS)('a file stamped %j between others: the others come out, it once with a note, and the stream goes on', async (bad) => {
		const files = addFiles(emulator.state, 7, { createdAtMs: (i) => T0 + i * 1000 });
		const broken = files[3];
		rewriteListedFiles(emulator, (file: IDataObject) => (file.fileId === broken.fileId ? { ...file, [stamp]: bad } : undefined));
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) }, host);

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.items.map((item) => item.json.fileId)).toEqual(files.map((file) => file.fileId));
		expect(first.items[3].json.triggerNotes).toEqual([expect.stringContaining('is not an RFC 3339 timestamp')]);
		expect(warnings(first.logs, /not an RFC 3339 timestamp/)).toBe(1);
		expect(trigger.staticData.unplaced).toEqual([broken.fileId]);

		const later = addFiles(emulator.state, 3, { createdAtMs: (i) => T0 + MINUTE * 60 + i });
		const second = await trigger.poll();
		expect(second.items.map((item) => item.json.fileId)).toEqual(later.map((file) => file.fileId));
		// Reported once: the next polls neither emit it again nor log it again.
		expect(warnings(second.logs, /not an RFC 3339 timestamp/)).toBe(0);
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...files, ...later].map((file) => file.fileId));
	});
});

describe.each(['in-memory', 'staged'] as const)('File Processed with the %s static data host', (host) => {
	it('a file in flight with an unparsable createdAt is remembered and emitted once when it finishes', async () => {
		const files = addFiles(emulator.state, 5, { createdAtMs: (i) => T0 + i * 1000 });
		const [inFlight] = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 2_500, status: () => 'processing' });
		rewriteListedFiles(emulator, (file: IDataObject) => (file.fileId === inFlight.fileId ? { ...file, createdAt: '2024-01-01T00:00:60Z' } : undefined));
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) }, host);
		await trigger.pollUntilIdle();
		expect(trigger.staticData.pending).toEqual([inFlight.fileId]);
		finishProcessing(emulator.state, [inFlight], { atMs: T0 + MINUTE });
		await trigger.pollUntilIdle();
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...files, inFlight].map((file) => file.fileId));
		expect(trigger.staticData.pending).toEqual([]);
	});
});
