/**
 * Update Values from typeVersion 2 through the n8n engine against the emulator: the field mapper's
 * values (as the editor stores them, with the field list it saved), Map Automatically, JSON; the
 * one converter (Attempt to Convert Types off and on); and the check against the file's fields
 * before anything is written: a read-only or hidden field, a schema changed between two runs.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import { resourceMapping } from '../../dev/harness';
import { PURCHASE_ORDER_EXPECTED, PURCHASE_ORDER_FILE_NAME, purchaseOrderText } from '../../dev/purchase-order';
import { call } from '../emulator/test-helpers';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { apiCalls } from './run-operation';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
let file: SeededFile;

beforeEach(async () => {
	file = await seedFile(emulator, PURCHASE_ORDER_FILE_NAME, purchaseOrderText());
	emulator.requests.length = 0;
});

/** The field list the editor saves in the node (columns.schema), loaded as the editor loads it. */
async function savedSchema(parameters: INodeParameters = {}): Promise<ResourceMapperField[]> {
	const { fields } = await resourceMapping({
		type: 'documentExtraction',
		method: 'getMappingFields',
		credentials: credentialsFor(emulator),
		parameters: { resource: 'file', operation: 'updateValues', fileId: { __rl: true, mode: 'id', value: file.fileId }, fieldsFrom: 'file', ...parameters },
	});
	return fields;
}

/** Values to Update as the editor stores it. */
function columns(value: IDataObject | null, schema: ResourceMapperField[], extra: IDataObject = {}): IDataObject {
	return { mappingMode: 'defineBelow', value, matchingColumns: [], schema, attemptToConvertTypes: false, convertFieldsToString: true, ...extra };
}

async function update(parameters: IDataObject, options: { inputItems?: INodeExecutionData[]; continueOnFail?: boolean } = {}) {
	return await runFileOperation(emulator, 'updateValues', { fileId: byId(file.fileId), ...parameters }, options);
}

/**
 * How many writes (PATCH /files/{id}/values) reached the emulator. What they wrote is read back
 * from the emulator: it takes only typed values (a number, true/false, a date as YYYY-MM-DD, an
 * object, an array of row objects) and refuses anything else with 422.
 */
function writes(): number {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'PATCH' && entry.path.endsWith('/values')).length;
}

async function stored(): Promise<Record<string, unknown>> {
	const reply = await call(emulator, 'GET', `/files/${file.fileId}/values`, { query: { includeFullTableData: 'true' } });
	return Object.fromEntries((reply.body.values.formValues[0].fields as Array<{ title: string; value: unknown }>).map((field) => [field.title, field.value]));
}

describe('Update Values with the field mapper (typeVersion 2)', () => {
	it('writes a value of every kind as the editor stores them (dates from the picker, JSON text for object and table), typed', async () => {
		const schema = await savedSchema();
		emulator.requests.length = 0;
		const lines = [{ Item: 'Nails', Quantity: 5, Price: 0.1, 'Needed By': '2024-07-02', Taxable: true }];
		const { items, error } = await update({
			columns: columns(
				{
					'PO Number': 'PO-2000',
					'Order Date': '2024-07-01T00:00:00',
					'Order Total': 99.5,
					Approved: false,
					Priority: 'Low',
					'Ship To': '{ "street": "2 Side Street", "city": "Shelbyville" }',
					'Order Lines': JSON.stringify(lines),
				},
				schema,
			),
		});

		expect(error).toBeUndefined();
		// Its own file's fields first (values, record, file types), then the write and the read-back.
		expect(apiCalls(emulator)).toEqual([
			`GET /files/${file.fileId}/values`,
			'GET /files',
			'GET /file-type',
			`PATCH /files/${file.fileId}/values`,
			`GET /files/${file.fileId}/values`,
		]);
		const written = {
			'PO Number': 'PO-2000',
			'Order Date': '2024-07-01',
			'Order Total': 99.5,
			Approved: false,
			Priority: 'Low',
			'Ship To': { street: '2 Side Street', city: 'Shelbyville' },
			'Order Lines': lines,
		};
		expect(await stored()).toEqual({ ...PURCHASE_ORDER_EXPECTED, ...written });
		expect(items[0].json).toEqual({
			fileId: file.fileId,
			updatedFields: ['PO Number', 'Order Date', 'Order Total', 'Approved', 'Priority', 'Ship To', 'Order Lines'],
			values: { ...PURCHASE_ORDER_EXPECTED, ...written },
		});
	});

	it('with Attempt to Convert Types off, refuses text for a number, a choice in another case, before anything is written', async () => {
		const schema = await savedSchema();
		const number = await update({ columns: columns({ 'Order Total': '={{ "12.50" }}' }, schema) });
		const choice = await update({ columns: columns({ Priority: '={{ "urgent " }}' }, schema) });

		expect(number.error?.message).toBe('Invalid Values to Update (Order Total) in item 0: expected a number (or turn on Attempt to Convert Types), got "12.50"');
		expect(choice.error?.message).toBe(
			'Invalid Values to Update (Priority) in item 0: expected one of Low, Normal, Urgent (exactly as written; Attempt to Convert Types also accepts another case), got "urgent "',
		);
		expect(writes()).toBe(0);
	});

	it("with Attempt to Convert Types on, reads text as n8n does (numbers, true/false, dates) and a choice in any case", async () => {
		const schema = await savedSchema();
		const { error } = await update({
			columns: columns(
				{
					'Order Total': '={{ "12.50" }}',
					Approved: '={{ "false" }}',
					Priority: '={{ "  normal" }}',
					'Order Date': '={{ "2024-03-15T23:30:00+05:00" }}',
					'PO Number': '={{ 4711 }}',
					'Order Lines': '={{ [{ "Item": "Tape", "Quantity": "3", "Taxable": "1" }] }}',
				},
				schema,
				{ attemptToConvertTypes: true },
			),
		});

		expect(error).toBeUndefined();
		expect(await stored()).toMatchObject({
			'Order Total': 12.5,
			Approved: false,
			Priority: 'Normal',
			// The date as written, in its own offset (not moved to UTC: 2024-03-15T18:30Z).
			'Order Date': '2024-03-15',
			'PO Number': '4711',
			'Order Lines': [{ Item: 'Tape', Quantity: 3, Taxable: true }],
		});
	});

	it('leaves a field given no value as it is (never 0 or false) and lists it in unchangedFields', async () => {
		const schema = await savedSchema();
		const { items, error } = await update({ columns: columns({ 'Order Total': '={{ null }}', Approved: '={{ "" }}', 'PO Number': 'PO-3' }, schema) });

		expect(error).toBeUndefined();
		expect(writes()).toBe(1);
		expect(items[0].json).toMatchObject({ updatedFields: ['PO Number'], unchangedFields: ['Order Total', 'Approved'] });
		expect(await stored()).toMatchObject({ 'PO Number': 'PO-3', 'Order Total': 1480, Approved: true });
	});

	it('refuses a table cell of the wrong type or an unknown column, naming the row and column', async () => {
		const schema = await savedSchema();
		const wrongType = await update({ columns: columns({ 'Order Lines': '[{ "Item": "A", "Quantity": "many" }]' }, schema) });
		const unknownColumn = await update({ columns: columns({ 'Order Lines': '[{ "Item": "A" }, { "Colour": "red" }]' }, schema) });

		expect(wrongType.error?.message).toBe(
			'Invalid Values to Update (Order Lines, row 1, Quantity) in item 0: expected a number (or turn on Attempt to Convert Types), got "many"',
		);
		expect(unknownColumn.error?.message).toBe(
			'Invalid Values to Update (Order Lines, row 2, column) in item 0: expected a column of the table: Item, Quantity, Price, Needed By, Taxable, got "Colour"',
		);
		expect(writes()).toBe(0);
	});

	it('refuses a read-only field, and a hidden one unless Include Hidden Fields is on, before anything is written', async () => {
		const schema = await savedSchema({ includeHidden: true });
		const readOnly = await update({ columns: columns({ 'Document Reference': 'mine', 'PO Number': 'PO-4' }, schema) });
		const hidden = await update({ columns: columns({ 'Buyer Notes': 'leave at the gate' }, schema) });
		expect(readOnly.error?.message).toBe('"Document Reference" is a read-only field: the service fills it. Nothing was written for item 0.');
		expect(hidden.error?.message).toBe('"Buyer Notes" is a hidden field. Nothing was written for item 0.');
		expect(writes()).toBe(0);

		const included = await update({ includeHidden: true, columns: columns({ 'Buyer Notes': 'leave at the gate' }, schema) });
		expect(included.error).toBeUndefined();
		expect(await stored()).toMatchObject({ 'Buyer Notes': 'leave at the gate' });
	});

	it('Using JSON: null clears, and the same checks name a field the file does not have before anything is written', async () => {
		const cleared = await update({ inputMode: 'json', valuesJson: '{ "Buyer Notes": null, "Order Total": 7 }' });
		expect(cleared.error).toBeUndefined();
		expect(await stored()).toMatchObject({ 'Buyer Notes': null, 'Order Total': 7 });

		emulator.requests.length = 0;
		const unknown = await update({ inputMode: 'json', valuesJson: '{ "Shoe Size": 42 }' });
		expect(unknown.error?.message).toBe('"Shoe Size" is not a field of this file. Nothing was written for item 0.');
		expect(writes()).toBe(0);
	});
});

describe('Update Values looks a file type up once per run (typeVersion 2)', () => {
	it("items of one run share the lookup of their file type's schema; each item's own file is read for it", async () => {
		const second = await seedFile(emulator, 'purchase-order-2.txt', purchaseOrderText().replace('PO-1001', 'PO-1002'));
		emulator.requests.length = 0;
		const { items, error } = await runFileOperation(
			emulator,
			'updateValues',
			{ fileId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, inputMode: 'json', valuesJson: '{ "Approved": false }' },
			{ inputItems: [{ json: { id: file.fileId } }, { json: { id: second.fileId } }] },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.updatedFields)).toEqual([['Approved'], ['Approved']]);
		expect(apiCalls(emulator).filter((path) => path === 'GET /file-type')).toHaveLength(1);
		expect(apiCalls(emulator).filter((path) => path.endsWith('/values') && path.startsWith('GET'))).toHaveLength(4);
	});
});

describe('Update Values, Map Automatically (typeVersion 2)', () => {
	const auto = (extra: IDataObject = {}) => ({ mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: true, ...extra });

	it("writes each input item's fields that are fields of the file, converted when asked", async () => {
		const { items, error } = await update(
			{ columns: auto({ attemptToConvertTypes: true }) },
			{ inputItems: [{ json: { 'PO Number': 'PO-77', 'Order Total': '15.25', Priority: 'low' } }] },
		);

		expect(error).toBeUndefined();
		expect(await stored()).toMatchObject({ 'PO Number': 'PO-77', 'Order Total': 15.25, Priority: 'Low' });
		expect(items[0].json.updatedFields).toEqual(['PO Number', 'Order Total', 'Priority']);
	});

	it('refuses an input field that is not a field of the file, or leaves it out (listed) when asked', async () => {
		const input = [{ json: { fileId: 'x', 'PO Number': 'PO-78', 'Document Reference': 'mine' } }];
		const refused = await update({ columns: auto() }, { inputItems: input });
		expect(refused.error?.message).toBe('The input field "fileId" is not a field of this file. Nothing was written for item 0.');
		expect(refused.error?.description).toContain('Ignore Input Fields It Cannot Write');
		expect(writes()).toBe(0);

		const ignored = await update({ columns: auto(), options: { ignoreUnwritable: true } }, { inputItems: input });
		expect(ignored.error).toBeUndefined();
		expect(writes()).toBe(1);
		expect(await stored()).toMatchObject({ 'PO Number': 'PO-78', 'Document Reference': 'DOC-PO-1001' });
		expect(ignored.items[0].json).toMatchObject({ updatedFields: ['PO Number'], ignoredFields: ['fileId', 'Document Reference'] });
	});
});

describe('A schema that changed between two runs (typeVersion 2)', () => {
	/** Renames or retypes a field of the Purchase Order schema, then reruns the file against it. */
	async function changeSchema(field: IDataObject): Promise<void> {
		expect((await call(emulator, 'PATCH', '/schemas', { body: { schemaId: SEED_IDS.purchaseOrderSchemaV1A, fields: [field] } })).status).toBe(200);
		expect((await call(emulator, 'PATCH', '/files/schema/rerun', { body: { fileId: file.fileId, backgroundRerun: false } })).status).toBe(200);
		emulator.requests.length = 0;
	}

	it('a field renamed (or removed) since the node was set up fails the next run naming it, with no write', async () => {
		const parameters = { columns: columns({ 'Order Total': 10, 'PO Number': 'PO-5' }, await savedSchema()) };
		expect((await update(parameters)).error).toBeUndefined();

		await changeSchema({ id: 'f-po-total', title: 'Order Amount' });
		const { error } = await update(parameters);

		expect(error?.message).toBe(
			'"Order Total" is no longer a field of this file: it was renamed or removed since the node\'s field list was loaded. Nothing was written for item 0.',
		);
		expect(error?.description).toContain('refresh the field list of Values to Update');
		expect(writes()).toBe(0);
	});

	it("a field whose type changed fails the next run naming both types, with no write", async () => {
		const parameters = { columns: columns({ Approved: true }, await savedSchema()) };
		expect((await update(parameters)).error).toBeUndefined();

		await changeSchema({ id: 'f-po-approved', type: 'STRING' });
		const { error } = await update(parameters);

		expect(error?.message).toBe(
			'"Approved" changed type since the node\'s field list was loaded: it was boolean, the file\'s field is now string. Nothing was written for item 0.',
		);
		expect(writes()).toBe(0);
	});

	it('a change to a field the node does not write is no error', async () => {
		const parameters = { columns: columns({ 'PO Number': 'PO-6' }, await savedSchema()) };
		await changeSchema({ id: 'f-po-total', title: 'Order Amount' });

		expect((await update(parameters)).error).toBeUndefined();
		expect(await stored()).toMatchObject({ 'PO Number': 'PO-6' });
	});
});
