/**
 * Values out, typed by their fields (Simplify), from typeVersion 2 of both nodes: numbers as
 * numbers, true/false as booleans, dates as ISO text, objects and tables parsed, cells typed by
 * their column; anything that does not read as its type kept as the service sent it. Workflows
 * saved with typeVersion 1 get the values exactly as sent. The service here sends every value as
 * text (an answer edited on its way), as a service may.
 */
import type { IDataObject } from 'n8n-workflow';

import { pollTrigger } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator({}, 'test');

/** Every kind of field, its value given as text (or in the wrong JSON type) the way a lax service might. */
const AS_TEXT = [
	{ title: 'Total', type: 'number', value: '1234.50' },
	{ title: 'Negative', type: 'number', value: '-0.25' },
	{ title: 'Paid', type: 'boolean', value: 'TRUE' },
	{ title: 'Issued', type: 'date', value: '2024-03-15T23:30:00+05:00' },
	{ title: 'Ship To', type: 'object', value: '{"street":"1 Main Street"}' },
	{
		title: 'Lines',
		type: 'object',
		items: [
			{ title: 'Quantity', type: 'number', value: null },
			{ title: 'Taxable', type: 'boolean', value: null },
			{ title: 'Needed By', type: 'date', value: null },
		],
		value: '[{"Quantity":"2","Taxable":"false","Needed By":"2024-01-02"},{"Quantity":"","Taxable":null,"Needed By":"soon"}]',
	},
	{ title: 'Reference', type: 'string', value: 4711 },
	{ title: 'Empty Number', type: 'number', value: '' },
	// Kept as sent: not a plain decimal, more digits than a number holds, not a date, not JSON.
	{ title: 'Localised', type: 'number', value: '1,234.50' },
	{ title: 'Long Number', type: 'number', value: '12345678901234567890' },
	{ title: 'Someday', type: 'date', value: 'soon' },
	{ title: 'Broken Object', type: 'object', value: '{"street":' },
];

const TYPED = {
	Total: 1234.5,
	Negative: -0.25,
	Paid: true,
	Issued: '2024-03-15',
	'Ship To': { street: '1 Main Street' },
	Lines: [
		{ Quantity: 2, Taxable: false, 'Needed By': '2024-01-02' },
		{ Quantity: null, Taxable: null, 'Needed By': 'soon' },
	],
	Reference: '4711',
	'Empty Number': null,
	Localised: '1,234.50',
	'Long Number': '12345678901234567890',
	Someday: 'soon',
	'Broken Object': '{"street":',
};

/** The next values answers hold exactly AS_TEXT (in their one form record). */
function answerAsText(count = 1): void {
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: /\/values$/,
		count,
		edit: (body) => {
			const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
			answer.values.formValues[0].fields = structuredClone(AS_TEXT);
			return answer;
		},
	});
}

async function getValues(typeVersion: number): Promise<IDataObject> {
	const file = await seedFile(emulator);
	answerAsText();
	const { items, error } = await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId) }, { typeVersion });
	expect(error).toBeUndefined();
	return items[0].json;
}

describe('typed values (Simplify) by typeVersion', () => {
	it('typeVersion 2 (and the AI tool, which runs it): each value typed by its field, the rest kept as sent', async () => {
		expect(await getValues(2)).toEqual(TYPED);
	});

	it('typeVersion 1: the values exactly as the service sent them', async () => {
		const values = await getValues(1);
		expect(values).toEqual(Object.fromEntries(AS_TEXT.map((field) => [field.title, field.value])));
	});

	it('with Simplify off, the raw form records, in either typeVersion', async () => {
		const file = await seedFile(emulator);
		answerAsText();
		const { items } = await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify: false });
		expect((items[0].json.fields as IDataObject[]).map((field) => field.value)).toEqual(AS_TEXT.map((field) => field.value));
	});

	it.each(['manual', 'trigger'] as const)("the trigger's Include Extracted Values (%s poll): typed at typeVersion 2, as sent at typeVersion 1", async (mode) => {
		await seedFile(emulator);
		const valuesOf = async (typeVersion: number) => {
			answerAsText();
			const result = await pollTrigger({
				type: 'documentExtractionTrigger',
				typeVersion,
				parameters: { event: 'fileProcessed', startFrom: 'date', startDate: '2020-01-01T00:00:00Z', options: { includeValues: true } },
				credentials: credentialsFor(emulator),
				mode,
			});
			expect(result.error).toBeUndefined();
			return result.items[0].json.values;
		};

		expect(await valuesOf(2)).toEqual(TYPED);
		expect(await valuesOf(1)).toEqual(Object.fromEntries(AS_TEXT.map((field) => [field.title, field.value])));
	});
});
