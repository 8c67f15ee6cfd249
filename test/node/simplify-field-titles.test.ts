/**
 * Simplify names each value by its field title. Repeated titles get a suffix ("x (2)", "x (3)"),
 * in one pass however many repeats the service sends, never the name of another field of the
 * form, and titles that are names of Object.prototype (constructor, toString, __proto__) come out
 * as themselves.
 */
import type { IDataObject } from 'n8n-workflow';

import { byId, seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

interface AnsweredField {
	title: string;
	type?: string;
	value: unknown;
}

/** The next values answer holds exactly `fields` (in its one form record). */
function answerFields(fields: AnsweredField[]): void {
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: /\/values$/,
		edit: (body) => {
			const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
			answer.values.formValues[0].fields = fields;
			return answer;
		},
	});
}

async function simplifiedValues(fields: AnsweredField[]): Promise<IDataObject> {
	const file = await seedFile(emulator);
	answerFields(fields);
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
