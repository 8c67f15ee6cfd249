/** The stored state: read back as written, started afresh when it no longer fits the parameters. */
import { readState } from '../../nodes/DocumentExtractionTrigger/state';

describe('readState', () => {
	const settings = { event: 'fileProcessed', startFrom: 'now', fileClasses: [], schemaIds: [], includeValues: false, maxItems: 1000 } as const;
	const plain = { ...settings, fileClasses: [], schemaIds: [] };
	const stored = { version: 1, config: 'fileProcessed|now', cursor: { at: '2026-01-01T00:00:00.000Z', ids: ['a'] }, pending: ['b'] };

	it('reads what the trigger wrote', () => {
		expect(readState({ ...stored }, plain)).toEqual(stored);
		expect(readState({ ...stored, historyUntil: '2026-01-02T00:00:00.000Z' }, plain)).toEqual({
			...stored,
			historyUntil: '2026-01-02T00:00:00.000Z',
		});
	});

	it('reads a cursor inside a large tie, and the look-ahead of File Processed', () => {
		const tie = { at: '2026-01-01T00:00:00.000Z', ids: ['a', 'b'], count: 5000 };
		const ahead = { frontier: { at: '2026-01-03T00:00:00.000Z', ids: ['c'] }, ahead: ['c', 'd'] };
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

	it('keeps filters out of the fingerprint: changing them applies from the next file on', () => {
		expect(readState({ ...stored }, { ...plain, fileClasses: ['invoice'] })).toEqual(stored);
	});
});
