/**
 * The stored state: read back as written, started afresh when it no longer fits the parameters,
 * and never carrying what is not a file id or a short RFC 3339 timestamp into a poll (issue 34,
 * finding 4: whatever an older version or a hostile answer left there is dropped on reading).
 */
import { readState } from '../../nodes/DocumentExtractionTrigger/state';

const A = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f21';
const B = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f22';
const C = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';
const D = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f24';

describe('readState', () => {
	const settings = { event: 'fileProcessed', startFrom: 'now', fileClasses: [], schemaIds: [], includeValues: false, maxItems: 1000 } as const;
	const plain = { ...settings, fileClasses: [], schemaIds: [] };
	const stored = { version: 1, config: 'fileProcessed|now', cursor: { at: '2026-01-01T00:00:00.000Z', ids: [A] }, pending: [B] };

	it('reads what the trigger wrote', () => {
		expect(readState({ ...stored }, plain)).toEqual(stored);
		expect(readState({ ...stored, historyUntil: '2026-01-02T00:00:00.000Z' }, plain)).toEqual({
			...stored,
			historyUntil: '2026-01-02T00:00:00.000Z',
		});
		const remembered = { early: [[C, '2026-01-03T00:00:00.000Z']], unplaced: [D] };
		expect(readState({ ...stored, ...remembered }, plain)).toEqual({ ...stored, ...remembered });
	});

	it('reads a cursor inside a large tie, and the look-ahead of File Processed', () => {
		const tie = { at: '2026-01-01T00:00:00.000Z', ids: [A, B], count: 5000 };
		const ahead = { frontier: { at: '2026-01-03T00:00:00.000Z', ids: [C] }, ahead: [C, D] };
		expect(readState({ ...stored, cursor: tie, ...ahead }, plain)).toEqual({ ...stored, cursor: tie, ...ahead });
		expect(readState({ ...stored, cursor: { ...tie, count: 1 } }, plain)).toBeUndefined();
		expect(readState({ ...stored, cursor: { ...tie, count: 'many' } }, plain)).toBeUndefined();
		expect(readState({ ...stored, frontier: { at: 1, ids: [] } }, plain)).toBeUndefined();
		expect(readState({ ...stored, ...ahead, ahead: [1] }, plain)).toBeUndefined();
	});

	it('starts afresh on another event or start, an unknown version or a damaged cursor', () => {
		expect(readState({ ...stored }, { ...plain, event: 'fileUpdated' })).toBeUndefined();
		expect(readState({ ...stored }, { ...plain, startFrom: 'date', startDate: '2026-01-01T00:00:00.000Z' })).toBeUndefined();
		expect(readState({ ...stored, version: 2 }, plain)).toBeUndefined();
		expect(readState({ ...stored, cursor: { at: 5, ids: [] } }, plain)).toBeUndefined();
		expect(readState({ ...stored, cursor: { at: null, ids: [1] } }, plain)).toBeUndefined();
		expect(readState({ ...stored, pending: 'b' }, plain)).toBeUndefined();
		expect(readState({}, plain)).toBeUndefined();
	});

	it('never reads back a timestamp that is not short RFC 3339 text, nor an id that is not a file id', () => {
		const comment = `2024-01-01 00:00:00 (${'x'.repeat(1_000_000)})`;
		expect(Date.parse(comment)).not.toBeNaN();
		expect(readState({ ...stored, cursor: { at: comment, ids: [] } }, plain)).toBeUndefined();
		expect(readState({ ...stored, cursor: { at: '2024-01-01T00:00:60Z', ids: [] } }, plain)).toBeUndefined();
		expect(readState({ ...stored, historyUntil: comment }, plain)).toBeUndefined();
		const long = 'f'.repeat(20_000);
		expect(
			readState(
				{
					...stored,
					cursor: { at: stored.cursor.at, ids: [A, long, '..'] },
					pending: [long, B],
					early: [[long, '2026-01-03T00:00:00.000Z'], [C, comment], [D, '2026-01-03T00:00:00.000Z']],
					unplaced: [long, A],
				},
				plain,
			),
		).toEqual({ ...stored, cursor: { at: stored.cursor.at, ids: [A] }, early: [[D, '2026-01-03T00:00:00.000Z']], unplaced: [A] });
	});

	it('keeps filters out of the fingerprint: changing them applies from the next file on', () => {
		expect(readState({ ...stored }, { ...plain, fileClasses: ['invoice'] })).toEqual(stored);
	});
});
