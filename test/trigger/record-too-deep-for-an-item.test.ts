/**
 * Issue 34, finding 2: the trigger wrote its cursor before the step that can throw. One record
 * with a value nested 20,000 deep made redaction throw (RangeError) after the static data had
 * moved over all 11 files of the poll: none was emitted, and the next polls started after them.
 * Now every item is built completely (values cut at OUTPUT_LIMITS.maxItemDepth and named in the
 * item, key order, redaction) before the state moves: the 11 files come out, each once, and the
 * stream goes on.
 */
import type { IDataObject } from 'n8n-workflow';

import { addFiles } from '../../dev/emulator/bulk-files';
import { triggerItem } from '../../nodes/DocumentExtractionTrigger/items';
import { TOO_DEEP_MARKER, TRIGGER_NOTES_KEY } from '../../nodes/shared/output/documentItem';
import { STREAMS } from '../../nodes/DocumentExtractionTrigger/files';
import { ActiveTrigger, deepJson, EVENTS_AND_HOSTS, iso, MINUTE, rawValue, rewriteListedFiles, SEEDED_KEYS, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;

describe.each(EVENTS_AND_HOSTS)('%s with the %s static data host', (event, host) => {
	it('a record nested 20,000 deep among 11 files: all 11 emitted once, the deep value cut and named, the stream goes on', async () => {
		const files = addFiles(emulator.state, 11, { createdAtMs: (i) => T0 + i * 1000 });
		const deep = files[5];
		const raw = new Map<string, string>();
		const token = rawValue(deepJson(20_000), raw);
		rewriteListedFiles(emulator, (file) => (file.fileId === deep.fileId ? { ...file, payload: token, note: SEEDED_KEYS.readWrite } : undefined), raw);
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) }, host);

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.items.map((item) => item.json.fileId)).toEqual(files.map((file) => file.fileId));
		const cut = first.items[5].json;
		let value = cut.payload as IDataObject | string;
		let depth = 1;
		while (typeof value === 'object') {
			value = value.a as IDataObject | string;
			depth += 1;
		}
		expect(value).toBe(TOO_DEEP_MARKER);
		expect(depth).toBe(101);
		expect(cut[TRIGGER_NOTES_KEY]).toEqual([expect.stringContaining('"payload": a value nested more than 100 levels deep')]);
		// Redacted like every item: the key the service echoed never reaches the workflow.
		expect(cut.note).toBe('[redacted]');
		expect(first.logs.some((line) => line.level === 'warn' && /1 item\(s\) had values nested more than 100 levels/.test(line.message))).toBe(true);
		expect((trigger.staticData.cursor as { at: string }).at).toBe(iso(files[10].createdAtMs));

		const later = addFiles(emulator.state, 3, { createdAtMs: (i) => T0 + MINUTE * 60 + i });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce([...files, ...later].map((file) => file.fileId));
	});
});

describe('triggerItem (the shared buildItem with the trigger\'s timestamp)', () => {
	it('never throws: a record it cannot copy becomes an item with the file id and an error field', () => {
		const record = {
			fileId: '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
			fileName: 'invoice.pdf',
			status: 'processed',
			createdAt: '2026-01-01T00:00:00.000Z',
			get broken(): never {
				throw new RangeError('Maximum call stack size exceeded');
			},
		};
		const { item, report } = triggerItem(record, undefined, STREAMS.fileProcessed, ['secret-key']);
		expect(report).toEqual({ cut: false, failed: true });
		expect(item.json).toEqual({
			fileId: record.fileId,
			fileName: 'invoice.pdf',
			status: 'processed',
			createdAt: '2026-01-01T00:00:00.000Z',
			error: expect.stringMatching(/^The trigger could not make an item of this file's record \(Maximum call stack size exceeded\)/),
		});
	});
});
