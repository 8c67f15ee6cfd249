/**
 * Typed values (nodes/shared/output/typed.ts) and the converter of values to write
 * (nodes/shared/schema/convert.ts) over generated hostile form records and values, whatever the
 * service or an input item sends:
 *  - nothing is lost: every field is kept, in order, with its title, type and columns; a value
 *    that does not read as its type is kept exactly as sent; the record given is not changed;
 *  - a value is only ever changed into what its type says (the oracle below), and typing twice
 *    changes nothing more;
 *  - neither ever throws, and the converter gives back a value of the field's kind or a reason.
 * Fixed seed in `npm test`; FUZZ_RUNS and FUZZ_SEED run it longer or elsewhere.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { typedFormValue } from '../../nodes/shared/output/typed';
import type { SchemaField } from '../../nodes/shared/schema';
import { convertValue, fieldKind, readFields } from '../../nodes/shared/schema';
import { fuzzParameters } from '../fuzz/runs';


const TYPES = ['number', 'boolean', 'date', 'object', 'string', 'NUMBER', 'Date', 'currency', 42, undefined];

/** Text a service might send for any type: numbers in many spellings, words, dates, JSON, junk. */
const text = fc.oneof(
	fc.string(),
	fc.double({ noNaN: false }).map(String),
	fc.integer().map((n) => ` ${n}.${Math.abs(n) % 100} `),
	fc.constantFrom('true', 'FALSE', ' True ', 'yes', '', '   ', '-0', '007', '1e3', '1,234.50', '0x10', 'Infinity', '12345678901234567890', '.5', '5.'),
	fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
	fc.constantFrom('2024-03-15', '2024-03-15T23:30:00+05:00', '2024-W11-5', '2024-075', '15/03/2024', 'soon'),
	fc.jsonValue().map((value) => JSON.stringify(value)),
);
const value = fc.oneof(text, fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue());
const column = fc.record({ title: fc.constantFrom('A', 'B', 'C', '__proto__'), type: fc.constantFrom(...TYPES) });
const row = fc.oneof(fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D', '__proto__'), value), value, fc.array(fc.record({ title: fc.string(), type: fc.constantFrom(...TYPES), value })));
const field = fc.oneof(
	fc.record({ title: fc.string(), type: fc.constantFrom(...TYPES), value }, { requiredKeys: ['title'] }),
	fc.record({ title: fc.string(), type: fc.constantFrom('object', 'OBJECT'), items: fc.array(column, { maxLength: 4 }), value: fc.oneof(fc.array(row, { maxLength: 5 }), value) }),
	value,
);
const form = fc.record({ id: fc.string(), fields: fc.array(field, { maxLength: 12 }) });

/** What typing may make of `before` for a field of `kind` (besides leaving it as it is). */
function allowed(before: unknown, after: unknown, kind: string): boolean {
	if (Object.is(before, after) || JSON.stringify(before) === JSON.stringify(after)) return true;
	if (kind === 'string') return (typeof before === 'number' || typeof before === 'boolean') && after === String(before);
	if (typeof before !== 'string') return false;
	const trimmed = before.trim();
	if (after === null) return trimmed === '';
	if (kind === 'number') return typeof after === 'number' && Number(trimmed) === after;
	if (kind === 'boolean') return typeof after === 'boolean' && trimmed.toLowerCase() === String(after);
	if (kind === 'date') return typeof after === 'string' && after.length === 10 && DateTime.fromISO(trimmed, { setZone: true }).toISODate() === after;
	if (kind === 'object') return JSON.stringify(JSON.parse(trimmed)) === JSON.stringify(after);
	return false;
}

describe('typed values over generated form records', () => {
	it('keep every field, change a value only into what its type says, never throw, never change the record given', () => {
		fc.assert(
			fc.property(form, (record) => {
				const before = structuredClone(record);
				const typed = typedFormValue(record as IDataObject);
				expect(record).toEqual(before);
				const fields = typed.fields as unknown[];
				expect(fields).toHaveLength(before.fields.length);
				fields.forEach((after, index) => {
					const original = before.fields[index];
					if (!original || typeof original !== 'object' || Array.isArray(original)) {
						expect(after).toEqual(original);
						return;
					}
					const { value: was, ...rest } = original as IDataObject;
					const { value: now, ...restAfter } = after as IDataObject;
					expect(restAfter).toEqual(rest);
					const kind = fieldKind(rest.type, rest.items);
					if (kind === 'table' || (kind === 'object' && Array.isArray(was))) {
						// Rows: an array stays an array of as many rows (cells checked by the engine tests).
						if (Array.isArray(now)) expect(Array.isArray(was) || typeof was === 'string').toBe(true);
						else expect(now).toEqual(was);
						return;
					}
					expect(allowed(was, now, kind)).toBe(true);
				});
			}),
			fuzzParameters(300),
		);
	});

	it('typing twice changes nothing more than typing once', () => {
		fc.assert(
			fc.property(form, (record) => {
				const once = typedFormValue(record as IDataObject);
				expect(typedFormValue(once)).toEqual(once);
			}),
			fuzzParameters(300),
		);
	});
});

describe('the converter of values to write over generated values', () => {
	const kinds = fc.constantFrom('STRING', 'NUMBER', 'BOOLEAN', 'DATE', 'OBJECT', 'TABLE', 'CHOICE', 'OTHER');
	function fieldOf(kind: string): SchemaField {
		const [defined] = readFields([
			kind === 'TABLE'
				? { title: 'T', type: 'OBJECT', items: [{ title: 'A', type: 'NUMBER' }, { title: 'B', type: 'DATE' }] }
				: { title: 'F', type: kind === 'CHOICE' ? 'STRING' : kind, enumValues: kind === 'CHOICE' ? ['Low', 'High'] : [] },
		]);
		return defined;
	}
	const given = fc.oneof(value, fc.array(fc.dictionary(fc.constantFrom('A', 'B', 'C'), value), { maxLength: 4 }), fc.date());

	it('never throws, and gives a value of the kind or a reason, with conversion off and on', () => {
		fc.assert(
			fc.property(kinds, given, fc.boolean(), (kind, input, convert) => {
				const result = convertValue(input, fieldOf(kind), convert);
				if (!result.ok) {
					expect(typeof result.expected).toBe('string');
					return;
				}
				const out = result.value;
				if (kind === 'NUMBER') expect(Number.isFinite(out)).toBe(true);
				if (kind === 'BOOLEAN') expect(typeof out).toBe('boolean');
				if (kind === 'DATE') expect(DateTime.fromFormat(String(out), 'yyyy-MM-dd').isValid).toBe(true);
				if (kind === 'STRING') expect(typeof out).toBe('string');
				if (kind === 'CHOICE') expect(['Low', 'High']).toContain(out);
				if (kind === 'OBJECT') expect(out && typeof out === 'object' && !Array.isArray(out)).toBe(true);
				if (kind === 'TABLE') {
					expect(Array.isArray(out)).toBe(true);
					for (const converted of out as IDataObject[]) {
						expect(Object.keys(converted).every((key) => key === 'A' || key === 'B')).toBe(true);
						expect(converted.A === undefined || converted.A === null || Number.isFinite(converted.A)).toBe(true);
					}
				}
				if (!convert && kind === 'NUMBER') expect(out).toBe(input);
			}),
			fuzzParameters(300),
		);
	});

	it('gives a value already of its kind back as it is', () => {
		const native = fc.oneof(
			fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => ['NUMBER', n] as const),
			fc.boolean().map((flag) => ['BOOLEAN', flag] as const),
			fc.string().map((words) => ['STRING', words] as const),
			fc.date({ noInvalidDate: true, min: new Date('0001-01-01'), max: new Date('9999-12-31') }).map((date) => ['DATE', date.toISOString().slice(0, 10)] as const),
			fc.dictionary(fc.string(), fc.jsonValue()).map((object) => ['OBJECT', object] as const),
		);
		fc.assert(
			fc.property(native, fc.boolean(), ([kind, input], convert) => {
				expect(convertValue(input, fieldOf(kind), convert)).toEqual({ ok: true, value: input });
			}),
			fuzzParameters(300),
		);
	});
});

describe('the work of converting a choice column counts its rows plus its choices, never their product', () => {
	/**
	 * The allowed values of a choice field behind a counter: every read of one of them (a comparison,
	 * a normalisation, a lookup being built) counts one. The converter itself is the shipped one.
	 */
	function countedChoices(choices: string[]): { values: string[]; reads: () => number } {
		let reads = 0;
		const values = new Proxy(choices, {
			get(target, key, receiver) {
				if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		return { values, reads: () => reads };
	}

	const choiceColumn = (enumValues: string[]): SchemaField => ({
		name: 'Priority', title: 'Priority', kind: 'string', enumValues, hidden: false, readOnly: false, repeated: false, columns: [],
	});
	/** A cell for a column of `choices`: one of them as written, in another case and spacing, or none of them. */
	const cell = (choices: number) =>
		fc.oneof(
			fc.nat(choices - 1).map((index) => `Choice ${index}`),
			fc.nat(choices - 1).map((index) => `  CHOICE   ${index} `),
			fc.constantFrom('none of them', '', 42, true),
		);
	const column = fc.integer({ min: 50, max: 400 }).chain((choices) =>
		fc.record({ choices: fc.constant(choices), cells: fc.array(cell(choices), { minLength: 50, maxLength: 300 }), convert: fc.boolean() }),
	);

	it('a table of R rows with a choice of C values: at most 2 C + 21 R reads of the allowed values, with conversion off and on', () => {
		fc.assert(
			fc.property(column, ({ choices, cells, convert }) => {
				const counted = countedChoices(Array.from({ length: choices }, (_unused, index) => `Choice ${index}`));
				const [table] = readFields([{ title: 'T', type: 'OBJECT', items: [{ title: 'Priority', type: 'STRING' }] }]);
				table.columns = [choiceColumn(counted.values)];
				const rows = cells.map((value) => ({ Priority: value }));

				const result = convertValue(rows, table, convert);

				// Each allowed value read to build the column's lookups (exact, normalised), and a failing
				// cell's message names at most SCHEMA_LIMITS.choicesInMessage (20) of them.
				expect(counted.reads()).toBeLessThanOrEqual(2 * choices + 21 * cells.length);
				if (result.ok) expect((result.value as IDataObject[]).length).toBe(rows.length);
			}),
			fuzzParameters(100, 0.1),
		);
	});

	it('one field converted value by value (Update Values, item after item): the lookup is built once for the field', () => {
		const counted = countedChoices(Array.from({ length: 1000 }, (_unused, index) => `Choice ${index}`));
		const field = choiceColumn(counted.values);
		for (let item = 0; item < 500; item++) {
			expect(convertValue(` choice ${item % 1000} `, field, true)).toEqual({ ok: true, value: `Choice ${item % 1000}` });
		}
		expect(counted.reads()).toBeLessThanOrEqual(2 * 1000);
	});
});

describe('counterexamples found by the properties above', () => {
	it('a date before year 0 or after 9999 is refused, not written as "-000001-12-31"', () => {
		const [date] = readFields([{ title: 'D', type: 'DATE' }]);
		expect(convertValue(new Date('-000001-12-31T23:59:59.999Z'), date, false)).toMatchObject({ ok: false });
		expect(convertValue('+010000-01-01', date, true)).toMatchObject({ ok: false });
	});
});
