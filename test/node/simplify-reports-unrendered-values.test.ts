/**
 * Simplify never replaces a value without a word (issue 34, finding 12). A value it cannot render
 * (nested deeper than n8n can store and show, a field that is not a record) is reported in the same
 * item under `simplifyNotes`: which field, why, and what to do (turn Simplify off). A row whose
 * shape is not a list of fields is kept as sent, never emptied. Through the n8n engine against the
 * emulator, whose answer to GET /files/{fileId}/values is edited to hold the fields given.
 */
import type { IDataObject } from 'n8n-workflow';

import { answerValuesFields, byId, seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

/** The limit of nodes/shared/output (OUTPUT_LIMITS.maxSimplifiedDepth), restated: the docs give it. */
const MAX_DEPTH = 100;

async function getValues(fields: unknown[], simplify = true) {
	const file = await seedFile(emulator);
	answerValuesFields(emulator, fields);
	return await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify });
}

/** `[[[ … [leaf] … ]]]`, `levels` lists deep. */
function nestedLists(levels: number, leaf: unknown): unknown {
	let value: unknown = leaf;
	for (let level = 0; level < levels; level++) value = [value];
	return value;
}

/** How many levels of one-element lists `value` has before something else. */
function listDepth(value: unknown): { levels: number; bottom: unknown } {
	let levels = 0;
	let at = value;
	while (Array.isArray(at) && at.length === 1) {
		levels++;
		at = at[0];
	}
	return { levels, bottom: at };
}

describe('Simplify reports a value it cannot render, in the item', () => {
	it('a value nested 3,000 lists deep: kept 100 levels deep, then a marker, and a note that names the field and says to turn Simplify off (it came out as [{}] before)', async () => {
		const { items, error } = await getValues([
			{ title: 'Invoice Number', type: 'string', value: 'INV-1' },
			{ title: 'Deep', type: 'array', value: nestedLists(3_000, 'bottom') },
		]);

		expect(error).toBeUndefined();
		const json = items[0].json;
		expect(json['Invoice Number']).toBe('INV-1');
		expect(json.Deep).not.toEqual([{}]);
		const { levels, bottom } = listDepth(json.Deep);
		// The field's value is 1 level below the item: lists down to level 100, the marker below.
		expect(levels).toBe(MAX_DEPTH);
		expect(bottom).toBe('[not shown by Simplify: see simplifyNotes]');
		expect(json.simplifyNotes).toEqual([expect.stringMatching(/^values › Deep › row 1 › … › \[0\] › \[0\] › \[0\]: nested deeper than 100 levels, which n8n cannot store or show reliably\. Turn off Simplify to get the raw form values \(formValues\)\.$/)]);
		expect(Object.keys(json)[0]).toBe('simplifyNotes');
	});

	it('with Simplify off the same answer is the raw form record, with no note', async () => {
		const { items, error } = await getValues([{ title: 'Deep', type: 'array', value: nestedLists(50, 'bottom') }], false);

		expect(error).toBeUndefined();
		const fields = items[0].json.fields as IDataObject[];
		expect(listDepth(fields[0].value)).toEqual({ levels: 50, bottom: 'bottom' });
		expect(items[0].json).not.toHaveProperty('simplifyNotes');
	});

	it('tables nested in tables 60 deep: rendered to the limit, the rest reported; the item is built, nothing throws', async () => {
		// A field whose value is one row of one field whose value is one row … 60 times.
		let field: IDataObject = { title: 'Leaf', value: 'bottom' };
		for (let level = 0; level < 60; level++) field = { title: `Table ${level}`, value: [[field]] };

		const { items, error } = await getValues([field]);

		expect(error).toBeUndefined();
		let at: unknown = items[0].json['Table 59'];
		let tables = 0;
		while (Array.isArray(at)) {
			const row = at[0] as IDataObject;
			const [name] = Object.keys(row);
			at = row[name];
			tables++;
		}
		// Each table is two levels (its rows, then a row): 50 tables fit in 100 levels.
		expect(tables).toBe(MAX_DEPTH / 2);
		expect(at).toBe('[not shown by Simplify: see simplifyNotes]');
		expect(items[0].json.simplifyNotes).toEqual([expect.stringMatching(/^values › Table 59 › row 1 › … › Table 10 › row 1 › Table 9: nested deeper than 100 levels/)]);
	});

	it('a row that is a list of values, not of fields, is kept as sent (it came out as {} before)', async () => {
		const { items, error } = await getValues([
			{ title: 'Matrix', type: 'array', value: [[1, 2], [3, 4]] },
			{ title: 'Mixed', type: 'array', value: [[{ title: 'A', value: 1 }, 'note', 7]] },
		]);

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ Matrix: [[1, 2], [3, 4]], Mixed: [[{ title: 'A', value: 1 }, 'note', 7]] });
	});

	it('a row given as { fields } with other keys is kept as sent (its other keys were dropped before)', async () => {
		const { items, error } = await getValues([
			{ title: 'Lines', type: 'array', value: [{ fields: [{ title: 'Item', value: 'pen' }] }, { fields: [{ title: 'Item', value: 'ink' }], rowId: 'r2' }] },
		]);

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ Lines: [{ Item: 'pen' }, { fields: [{ title: 'Item', value: 'ink' }], rowId: 'r2' }] });
	});

	it('a field that is not a record (null, text) is reported, the others shown (null failed the whole item before)', async () => {
		const { items, error } = await getValues([{ title: 'Total', value: 12 }, null, 'stray text', { title: 'Currency', value: 'EUR' }]);

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			simplifyNotes: [
				'values › field 2: is null, not a field record, so it has no title to show it under. Turn off Simplify to get the raw form values (formValues).',
				'values › field 3: is a string, not a field record, so it has no title to show it under. Turn off Simplify to get the raw form values (formValues).',
			],
			Total: 12,
			Currency: 'EUR',
		});
	});

	it('a title that is not text (a list 3,000 deep) is named "untitled" and reported', async () => {
		const { items, error } = await getValues([{ title: nestedLists(3_000, 'x'), value: 5 }]);

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			simplifyNotes: ['values › field 1: has a title that is not text; its value is shown under "untitled". Turn off Simplify to get the raw form values (formValues).'],
			untitled: 5,
		});
	});

	it('a field titled "simplifyNotes" keeps its value, renamed, beside the notes', async () => {
		const { items, error } = await getValues([{ title: 'simplifyNotes', value: 'mine' }, null]);

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			simplifyNotes: [expect.stringMatching(/^values › field 2: is null/)],
			'simplifyNotes (2)': 'mine',
		});
	});

	it('500 values too deep: 20 notes, then one line that counts the other 480', async () => {
		const { items, error } = await getValues(Array.from({ length: 500 }, (_, index) => ({ title: `Deep ${index}`, value: nestedLists(120, index) })));

		expect(error).toBeUndefined();
		const notes = items[0].json.simplifyNotes as string[];
		expect(notes).toHaveLength(21);
		expect(notes[0]).toMatch(/^values › Deep 0 › row 1 /);
		expect(notes[20]).toBe('… and 480 more values not shown for the same reasons. Turn off Simplify to get the raw form values (formValues).');
		expect(Object.keys(items[0].json)).toHaveLength(501);
	});
});
