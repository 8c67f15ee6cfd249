/**
 * Counterexamples the Simplify properties found, kept as named cases (in process). Each also
 * passes the invariants of simplify-invariants.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { simplifyFormValue } from '../../nodes/shared/output/simplify';
import { checkSimplified, numberTags } from './simplify-invariants';

function simplified(form: unknown): IDataObject {
	const tagged = numberTags(form);
	const output = simplifyFormValue(tagged);
	checkSimplified(tagged, output);
	return output;
}

describe('Simplify: counterexamples found by the properties', () => {
	it('a field entry that is a record without title, value or items ({ "§v": "§v" }) is reported, not shown as "untitled": null', () => {
		expect(simplified({ fields: [{ '§v': '§v' }, { title: 'Total', value: 1 }] })).toEqual({
			simplifyNotes: ['values › field 1: is a record without title, value or items, not a field record, so it has no title to show it under. Turn off Simplify to get the raw form values (formValues).'],
			Total: 1,
		});
	});

	it('an empty field entry {} is reported too (the code before issue 34 gave "untitled": null)', () => {
		expect(simplified({ fields: [{}] }).simplifyNotes).toHaveLength(1);
	});

	it('a value 3,003 levels deep is reported, not dropped (the code before issue 34 gave [{}])', () => {
		let value: unknown = '§v';
		for (let level = 0; level < 3_000; level++) value = [value];
		const output = simplified({ fields: [{ title: 'Total', value: '§v' }, { title: 'Deep', value }] });
		expect(output.simplifyNotes).toEqual([expect.stringMatching(/^values › Deep › row 1 › … › \[0\] › \[0\] › \[0\]: nested deeper than 100 levels/)]);
	});

	it('a record in items whose only value is two levels down (A › B = 5) is shown, not taken for column definitions', () => {
		const field = { title: 'T', value: null, items: [{ title: 'A', value: null, items: [{ title: 'B', value: 5 }] }, { title: 'C', value: null, items: null }] };
		expect(simplified({ fields: [field] })).toEqual({ T: { A: { B: 5 }, C: null } });
	});

	it('column definitions alone, nested ones included, are an empty field (null), with no note', () => {
		const field = { title: 'Lines', value: null, items: [{ title: 'Item', value: null, items: null }, { title: 'Tax', value: null, items: [{ title: 'Rate', value: null }] }] };
		expect(simplified({ fields: [field] })).toEqual({ Lines: null });
	});

	it('items that are neither rows nor fields, with no value, are shown as sent', () => {
		expect(simplified({ fields: [{ title: 'Odd', value: null, items: '§v' }, { title: 'Mixed', items: [1, { title: 'A', value: 2 }] }] })).toEqual({
			Odd: expect.stringMatching(/^§v\d+:$/),
			Mixed: [1, { title: 'A', value: 2 }],
		});
	});

	it('a form record without a list of fields, carrying other keys ({ "§v": "§v" }), is reported (found by a 5,000-run fuzz; it gave {})', () => {
		expect(simplified({ '§v': '§v' })).toEqual({
			simplifyNotes: ['values › fields: missing: the form record has no list of fields. Turn off Simplify to get the raw form values (formValues).'],
		});
		expect(simplified({ id: 'form', fields: 'text' }).simplifyNotes).toEqual([expect.stringMatching(/^values › fields: is not a list of fields\./)]);
	});
});
