/**
 * Issue 34, finding 4: static data was bounded by count, not size. Ids were only checked to be
 * text and timestamps kept as sent: 1,000 files in flight with 20 KB ids and one timestamp
 * carrying a 1 MB comment (which Date.parse accepts) made 21 MB of static data, and every later
 * poll failed with HTTP 431 because those values went back out in the query. Now the trigger
 * keeps only file ids (UUIDs) and short RFC 3339 timestamps: anything else is reported, never
 * stored nor sent back, and the static data stays under TRIGGER_LIMITS.maxStaticDataBytes
 * whatever the service sends (docs/trigger.md derives the figure; the last test fills every list).
 */
import type { IDataObject } from 'n8n-workflow';

import { addFiles } from '../../dev/emulator/bulk-files';
import type { TriggerState } from '../../nodes/DocumentExtractionTrigger/state';
import { writeState } from '../../nodes/DocumentExtractionTrigger/state';
import { TRIGGER_LIMITS } from '../../nodes/shared/limits';
import { ActiveTrigger, MINUTE, iso, listRequests, useEmulator } from './support';
import { rewriteListedFiles } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const COMMENTED = `2024-01-01 00:00:00 (${'c'.repeat(1024 * 1024)})`;

/** Every string in a JSON value (keys and values), without recursion. */
function strings(value: unknown): string[] {
	const found: string[] = [];
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const next = stack.pop();
		if (typeof next === 'string') found.push(next);
		else if (next && typeof next === 'object') {
			for (const [key, entry] of Object.entries(next)) {
				found.push(key);
				stack.push(entry);
			}
		}
	}
	return found;
}

describe.each(['fileProcessed', 'fileUpdated'] as const)('%s', (event) => {
	it('1,000 files in flight with 20 KB ids and a timestamp with a 1 MB comment: static data stays small, no query carries them', async () => {
		const stamp = event === 'fileProcessed' ? 'createdAt' : 'updatedAt';
		const inFlight = addFiles(emulator.state, 1_000, {
			createdAtMs: (i) => T0 + i,
			status: () => (event === 'fileProcessed' ? 'processing' : 'processed'),
		});
		const [commented] = addFiles(emulator.state, 1, { createdAtMs: () => T0 + 2_000 });
		const after = addFiles(emulator.state, 10, { createdAtMs: (i) => T0 + 3_000 + i });
		const longIds = new Set(inFlight.map((file) => file.fileId));
		rewriteListedFiles(emulator, (file: IDataObject) => {
			if (longIds.has(String(file.fileId))) return { ...file, fileId: `${String(file.fileId)}${'x'.repeat(20 * 1024)}` };
			if (file.fileId === commented.fileId) return { ...file, [stamp]: COMMENTED };
			return undefined;
		});
		const trigger = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(T0) });

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		// The file with the commented timestamp comes out once, with a note; the others as usual.
		expect(first.items.map((item) => item.json.fileId)).toEqual([commented, ...after].map((file) => file.fileId));
		expect(first.items[0].json.triggerNotes).toEqual([expect.stringContaining(`${stamp} "2024-01-01 00:00:00 (ccc`)]);
		const warning = first.logs.find((line) => line.level === 'warn' && /not a file ID/.test(line.message));
		expect(warning?.message).toMatch(/1000 listed file\(s\) have a fileId that is not a file ID of the API .* and 997 more\)/);
		expect(warning!.message.length).toBeLessThan(2_000);

		for (let poll = 0; poll < 3; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			expect(result.items).toEqual([]);
		}
		const bytes = JSON.stringify(trigger.staticData).length;
		expect(bytes).toBeLessThan(2_000);
		// Ids and timestamps only (the config is the user's own parameters).
		const { config: _config, ...kept } = trigger.staticData;
		for (const text of strings(kept)) expect(text.length).toBeLessThanOrEqual(TRIGGER_LIMITS.maxStampLength);
		// No query carried a long id or the comment: each stayed short.
		const queries = listRequests(emulator).map((entry) => entry.rawQuery);
		expect(queries.length).toBeGreaterThan(10);
		for (const query of queries) expect(query.length).toBeLessThan(600);
		trigger.ledger.expectEachOnce([commented, ...after].map((file) => file.fileId));
	});
});

it(`static data with every list full of the longest values it keeps stays under ${TRIGGER_LIMITS.maxStaticDataBytes} bytes`, () => {
	const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const longest = '2024-01-01T00:00:00.123456789+05:30';
	expect(longest.length).toBeLessThanOrEqual(TRIGGER_LIMITS.maxStampLength);
	const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => id(from + i));
	const state: TriggerState = {
		version: 1,
		config: `fileProcessed|date:${longest}`,
		cursor: { at: longest, ids: ids(0, TRIGGER_LIMITS.maxTieIds), count: Number.MAX_SAFE_INTEGER },
		historyUntil: longest,
		pending: ids(10_000, TRIGGER_LIMITS.maxPending),
		frontier: { at: longest, ids: ids(20_000, TRIGGER_LIMITS.maxTieIds), count: Number.MAX_SAFE_INTEGER },
		ahead: ids(30_000, TRIGGER_LIMITS.maxAhead),
		early: ids(40_000, TRIGGER_LIMITS.maxEarly).map((entry) => [entry, longest]),
		unplaced: ids(50_000, TRIGGER_LIMITS.maxUnplaced),
	};
	const staticData: IDataObject = {};
	writeState(staticData, state);
	const bytes = Buffer.byteLength(JSON.stringify(staticData));
	expect(bytes).toBeLessThanOrEqual(TRIGGER_LIMITS.maxStaticDataBytes);
	// The bound is not loose: the lists at their caps take most of it.
	expect(bytes).toBeGreaterThan(TRIGGER_LIMITS.maxStaticDataBytes * 0.8);
});
