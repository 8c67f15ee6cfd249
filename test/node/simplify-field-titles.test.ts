/**
 * Simplify names each value by its field title. Repeated titles get a suffix ("x (2)", "x (3)"),
 * in one pass however many repeats the service sends, never the name of another field of the
 * form, and titles that are names of Object.prototype (constructor, toString, __proto__) come out
 * as themselves. The work is counted, not timed: at most two names are tried per field (the
 * quadratic version, probing from "x (2)" for every repeat, tries 200 million for 20,000 "x").
 */
import type { IDataObject } from 'n8n-workflow';

import type { SimplifyMeter } from '../../nodes/shared/output/simplify';
import { simplifyFormValue, uniqueNames } from '../../nodes/shared/output/simplify';
import { answerValuesFields, byId, seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

interface AnsweredField {
	title: string;
	type?: string;
	value: unknown;
}

async function simplifiedValues(fields: AnsweredField[]): Promise<IDataObject> {
	const file = await seedFile(emulator);
	answerValuesFields(emulator, fields);
	const { items, error } = await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify: true });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(1);
	return items[0].json;
}

describe('Simplify: repeated field titles', () => {
	it('20,000 fields titled "x" become x, x (2) … x (20000), each with its own value', async () => {
		const count = 20_000;
		const json = await simplifiedValues(Array.from({ length: count }, (_, index) => ({ title: 'x', value: index })));

		const keys = Object.keys(json);
		expect(keys).toHaveLength(count);
		expect(json.x).toBe(0);
		for (let n = 2; n <= count; n++) expect(json[`x (${n})`]).toBe(n - 1);
	});

	it('a generated name never takes the title of another field of the form', async () => {
		const json = await simplifiedValues([
			{ title: 'x', value: 'first x' },
			{ title: 'x', value: 'second x' },
			{ title: 'x (2)', value: 'the field titled x (2)' },
			{ title: 'x', value: 'third x' },
			{ title: 'x (2)', value: 'second field titled x (2)' },
		]);

		expect(json).toEqual({
			x: 'first x',
			'x (2)': 'the field titled x (2)',
			'x (3)': 'second x',
			'x (4)': 'third x',
			'x (2) (2)': 'second field titled x (2)',
		});
	});

	it('titles that name properties of every object (constructor, toString, __proto__) come out as themselves', async () => {
		const json = await simplifiedValues([
			{ title: 'constructor', value: 'c' },
			{ title: 'toString', value: 't' },
			{ title: '__proto__', value: { isAdmin: true } },
			{ title: 'hasOwnProperty', value: 'h' },
			{ title: 'valueOf', value: 'v' },
			{ title: 'prototype', value: 'p' },
		]);

		expect(Object.keys(json)).toEqual(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype']);
		expect(json.constructor).toBe('c');
		expect(json.toString).toBe('t');
		expect(Object.getOwnPropertyDescriptor(json, '__proto__')?.value).toEqual({ isAdmin: true });
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(json.isAdmin).toBeUndefined();
	});

	it('repeats inside table rows are named the same way, row by row', async () => {
		const row = (n: number) => [
			{ title: 'Item', value: `item ${n}` },
			{ title: 'Item', value: `item ${n} again` },
			{ title: 'constructor', value: n },
		];
		const json = await simplifiedValues([{ title: 'Lines', type: 'ARRAY', value: [row(1), row(2)] }]);

		expect(json.Lines).toEqual([
			{ Item: 'item 1', 'Item (2)': 'item 1 again', constructor: 1 },
			{ Item: 'item 2', 'Item (2)': 'item 2 again', constructor: 2 },
		]);
	});
});

describe('Simplify: the work of naming is linear in the fields', () => {
	/** Names tried for `titles`, counted by uniqueNames' meter. */
	function namesTried(titles: string[]): number {
		const meter: SimplifyMeter = { steps: 0 };
		uniqueNames(titles, [], meter);
		return meter.steps;
	}

	it('20,000 fields titled "x": one name tried per field', () => {
		const titles = Array.from({ length: 20_000 }, () => 'x');

		expect(namesTried(titles)).toBe(titles.length);
	});

	it('fields titled "x (2)" … "x (10001)" then 10,000 titled "x": at most two names tried per field', () => {
		const taken = Array.from({ length: 10_000 }, (_, index) => `x (${index + 2})`);
		const titles = [...taken, 'x', ...Array.from({ length: 10_000 }, () => 'x')];
		const names = uniqueNames(titles);

		expect(new Set(names).size).toBe(titles.length);
		expect(names.at(-1)).toBe('x (20001)');
		expect(namesTried(titles)).toBeLessThanOrEqual(2 * titles.length);
	});

	it('a whole form of 20,000 repeated titles: the steps of Simplify (fields, values, names) stay under 5 per field', () => {
		const meter: SimplifyMeter = { steps: 0 };
		const fields = Array.from({ length: 20_000 }, (_, index) => ({ title: index % 2 ? 'x' : 'x (2)', value: index }));

		const simplified = simplifyFormValue({ fields }, meter);

		expect(Object.keys(simplified)).toHaveLength(fields.length);
		expect(meter.steps).toBeLessThanOrEqual(5 * fields.length);
	});
});
