import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { call } from '../emulator/test-helpers';
import { INVOICE_EXPECTED } from '../../dev/documents';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import type { OperationRunOptions } from './run-operation';
import { requestsTo, useEmulator } from './support';

const emulator = useEmulator();
let file: SeededFile;

/**
 * Update Values as workflows saved with typeVersion 1 have it (titles and value types by hand):
 * they keep running unchanged now that new nodes get typeVersion 2 (update-values-mapper.test.ts).
 */
async function updateValuesV1(parameters: IDataObject, options: OperationRunOptions = {}) {
	return await runFileOperation(emulator, 'updateValues', parameters, { typeVersion: 1, ...options });
}

beforeEach(async () => {
	file = await seedFile(emulator);
	emulator.requests.length = 0;
});

/** The values the API now holds for the file, as { title: value }. */
async function storedValues(fileId: string): Promise<Record<string, unknown>> {
	const reply = await call(emulator, 'GET', `/files/${fileId}/values`, { query: { includeFullTableData: 'true' } });
	const fields = reply.body.values.formValues[0].fields as Array<{ title: string; value: unknown }>;
	return Object.fromEntries(fields.map((field) => [field.title, field.value]));
}

describe('File > Update Values, typeVersion 1 (saved workflows)', () => {
	it('writes typed values given field by field and outputs the values as they now stand', async () => {
		const { items, error } = await updateValuesV1({
			fileId: byId(file.fileId),
			inputMode: 'fields',
			fields: {
				field: [
					{ title: 'Total Amount', valueType: 'number', value: '999.5' },
					{ title: 'Paid', valueType: 'boolean', value: 'yes' },
					{ title: 'Vendor Name', valueType: 'string', value: 'Initech' },
					{ title: 'Purchase Order Number', valueType: 'null' },
					{ title: 'Due Date', value: '2024-05-01' },
				],
			},
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			fileId: file.fileId,
			updatedFields: ['Total Amount', 'Paid', 'Vendor Name', 'Purchase Order Number', 'Due Date'],
			values: {
				...INVOICE_EXPECTED,
				'Total Amount': 999.5,
				Paid: true,
				'Vendor Name': 'Initech',
				'Purchase Order Number': null,
				'Due Date': '2024-05-01',
			},
		});
		const stored = await storedValues(file.fileId);
		expect(stored).toMatchObject({ 'Total Amount': 999.5, Paid: true, 'Vendor Name': 'Initech', 'Due Date': '2024-05-01' });

		const [patch] = requestsTo(emulator, 'api', 'PATCH', /\/values$/);
		expect(patch.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('accepts raw JSON: a { title: value } object, a list of { title, value } and { fields: [...] }', async () => {
		const asMap = await updateValuesV1({
			fileId: byId(file.fileId),
			inputMode: 'json',
			valuesJson: JSON.stringify({ Tax: 1, Currency: 'EUR' }),
			simplify: false,
		});
		expect(asMap.error).toBeUndefined();
		expect(asMap.items[0].json.updatedFields).toEqual(['Tax', 'Currency']);
		expect(Array.isArray(asMap.items[0].json.formValues)).toBe(true);

		const asList = await updateValuesV1({
			fileId: byId(file.fileId),
			inputMode: 'json',
			valuesJson: '[{ "title": "Tax", "value": 2 }]',
		});
		expect(asList.error).toBeUndefined();

		const wrapped = await updateValuesV1(
			{ fileId: byId(file.fileId), inputMode: 'json', valuesJson: '={{ $json.body }}' },
			{ inputItems: [{ json: { body: { fields: [{ title: 'Line Items', value: [{ Description: 'Only row', Quantity: 1, 'Unit Price': 3, Amount: 3 }] }] } } }] },
		);
		expect(wrapped.error).toBeUndefined();
		expect((wrapped.items[0].json.values as Record<string, unknown>)['Line Items']).toEqual([
			{ Description: 'Only row', Quantity: 1, 'Unit Price': 3, Amount: 3 },
		]);
		const stored = await storedValues(file.fileId);
		expect(stored).toMatchObject({ Tax: 2, Currency: 'EUR' });
	});

	it('names a value that is not of its type before sending anything', async () => {
		const { error } = await updateValuesV1({
			fileId: byId(file.fileId),
			fields: { field: [{ title: 'Total Amount', valueType: 'number', value: 'twelve' }] },
		});
		expect(error?.message).toBe('Invalid Fields (Total Amount) Value in item 0: expected a number such as 123.45, got "twelve"');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it('rejects JSON that is not valid, and a file ID that is not a UUID, before any request', async () => {
		const badJson = await updateValuesV1({
			fileId: byId(file.fileId),
			inputMode: 'json',
			valuesJson: '{ "Tax": ',
		});
		expect(badJson.error?.message).toContain('Invalid Values (JSON) in item 0: expected valid JSON');

		// By ID is checked in the editor too; an expression gets past that check, so the node checks again.
		const badId = await updateValuesV1({
			fileId: byId('={{ "INV-2024-0042" }}'),
			fields: { field: [{ title: 'Tax', valueType: 'number', value: '1' }] },
		});
		expect(badId.error?.message).toBe(
			'Invalid File in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, got "INV-2024-0042"',
		);
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it("shows the API's 422 for a field the file does not have, with its pointer", async () => {
		const { error } = await updateValuesV1({
			fileId: byId(file.fileId),
			fields: { field: [{ title: 'Shoe Size', value: '42' }] },
		});
		expect(error?.message).toContain('HTTP 422');
		expect(error?.message).toContain('/fields/0/title');
		expect(error?.message).toContain('Shoe Size');
	});

	it('with Continue On Fail, a missing file (404) becomes an error item paired with its input', async () => {
		const missing = randomUUID();
		const { items, error } = await updateValuesV1(
			{
				fileId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				fields: { field: [{ title: 'Tax', valueType: 'number', value: '5' }] },
			},
			{ continueOnFail: true, inputItems: [{ json: { id: missing } }, { json: { id: file.fileId } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(String(items[0].json.error)).toContain('HTTP 404');
		expect(items[1]).toMatchObject({ json: { fileId: file.fileId, updatedFields: ['Tax'] }, pairedItem: { item: 1 } });
	});
});

describe('File > Update Values, typeVersion 1, refuses choices it does not offer before any request', () => {
	it('a Define Values mode other than Field by Field or Using JSON', async () => {
		const { error } = await updateValuesV1({ fileId: byId(file.fileId), inputMode: 'xml' });

		expect(error?.message).toBe('Invalid Define Values in item 0: expected one of fields, json, got "xml"');
		expect(emulator.requests).toHaveLength(0);
	});

	it('a Value Type the list does not offer, naming the field', async () => {
		const { error } = await updateValuesV1({
			fileId: byId(file.fileId),
			inputMode: 'fields',
			fields: { field: [{ title: 'Due Date', valueType: 'date', value: '2026-01-01' }] },
		});

		expect(error?.message).toBe(
			'Invalid Fields (Due Date) Value Type in item 0: expected one of boolean, json, null, number, string, got "date"',
		);
		expect(emulator.requests).toHaveLength(0);
	});
});
