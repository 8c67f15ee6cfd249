/**
 * Update Values' field mapper (typeVersion 2) as the editor loads it: the method the editor's REST
 * endpoint calls (n8n-core's LoadOptionsContext, through dev/harness resourceMapping) against the
 * emulator's seeded Purchase Order, whose schema has a field of every kind, a choice, a table, a
 * hidden and a read-only field.
 */
import type { IDataObject, INodeProperties, ResourceMapperField } from 'n8n-workflow';

import { SEED_IDS, addGeneratedFileType } from '../../dev/emulator';
import { resourceMapping } from '../../dev/harness';
import { valuesToUpdate, type MapperField } from '../../dev/n8n/resource-mapper';
import { PURCHASE_ORDER_FILE_NAME, purchaseOrderText } from '../../dev/purchase-order';
import { DocumentExtraction } from '../../nodes/DocumentExtraction/DocumentExtraction.node';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { apiCalls } from './run-operation';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator();

async function mapper(parameters: IDataObject) {
	return await resourceMapping({
		type: 'documentExtraction',
		method: 'getMappingFields',
		credentials: credentialsFor(emulator),
		parameters: { resource: 'file', operation: 'updateValues', inputMode: 'mapper', ...parameters },
	});
}

/** id, type and the flags that matter, one line per field. */
function summary(fields: ResourceMapperField[]) {
	return fields.map(({ id, displayName, type, options, readOnly, removed, display }) => ({
		id,
		displayName,
		type,
		...(options ? { options: options.map((option) => option.value) } : {}),
		...(readOnly ? { readOnly } : {}),
		...(removed ? { removed } : {}),
		...(display === false ? { display } : {}),
	}));
}

const PURCHASE_ORDER_FIELDS = [
	{ id: 'PO Number', displayName: 'PO Number', type: 'string' },
	{ id: 'Order Date', displayName: 'Order Date (date)', type: 'dateTime' },
	{ id: 'Order Total', displayName: 'Order Total', type: 'number' },
	{ id: 'Approved', displayName: 'Approved', type: 'boolean' },
	{ id: 'Priority', displayName: 'Priority', type: 'options', options: ['Low', 'Normal', 'Urgent'] },
	{ id: 'Ship To', displayName: 'Ship To', type: 'object' },
	{ id: 'Order Lines', displayName: 'Order Lines (table: Item, Quantity, Price, Needed By, Taxable)', type: 'array' },
	{ id: 'Document Reference', displayName: 'Document Reference (read-only)', type: 'string', readOnly: true, removed: true },
];

describe('Update Values field mapper (typeVersion 2)', () => {
	it("lists a file type's fields typed: every kind, the choice's values, the table's columns, read-only disabled, hidden left out", async () => {
		const answer = await mapper({ fieldsFrom: 'fileType', fileType: byId(SEED_IDS.purchaseOrderFileTypeA) });

		expect(summary(answer.fields)).toEqual(PURCHASE_ORDER_FIELDS);
		expect(answer.fields.every((field) => field.required === false && field.defaultMatch === false && field.canBeUsedToMatch === false)).toBe(true);
	});

	it('lists the hidden field too when Include Hidden Fields is on, and says it is hidden', async () => {
		const answer = await mapper({ fieldsFrom: 'fileType', fileType: byId(SEED_IDS.purchaseOrderFileTypeA), includeHidden: true });

		expect(summary(answer.fields).find((field) => field.id === 'Buyer Notes')).toEqual({ id: 'Buyer Notes', displayName: 'Buyer Notes (hidden)', type: 'string' });
		expect(answer.fields).toHaveLength(PURCHASE_ORDER_FIELDS.length + 1);
	});

	it("reads the fields from the file itself: its values' fields, with its file type's choices and read-only marks", async () => {
		const file = await seedFile(emulator, PURCHASE_ORDER_FILE_NAME, purchaseOrderText());
		emulator.requests.length = 0;

		const answer = await mapper({ fieldsFrom: 'file', fileId: byId(file.fileId) });

		expect(summary(answer.fields)).toEqual(PURCHASE_ORDER_FIELDS);
		// Its values, its record (for the schema ID), then the file types up to the one of that schema.
		expect(apiCalls(emulator)).toEqual([`GET /files/${file.fileId}/values`, 'GET /files', 'GET /file-type']);
	});

	it('says what to choose while no file or file type is chosen (and sends nothing)', async () => {
		emulator.requests.length = 0;
		const noFile = await mapper({ fieldsFrom: 'file', fileId: { __rl: true, mode: 'list', value: '' } });
		const noType = await mapper({ fieldsFrom: 'fileType', fileType: { __rl: true, mode: 'list', value: '' } });

		expect(noFile).toEqual({ fields: [], emptyFieldsNotice: expect.stringContaining('Choose a file to see its fields') });
		expect(noType).toEqual({ fields: [], emptyFieldsNotice: 'Choose a file type to see its fields' });
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('names each repeated title uniquely (n8n keeps one field per id) and offers it read-only: a write names fields by title', async () => {
		const { fileTypeId } = addGeneratedFileType(emulator, 3, { name: 'Repeats' });
		const fields = emulator.state.fileTypes.get(fileTypeId)!.versions[0].fields;
		fields[1].title = fields[0].title;

		const answer = await mapper({ fieldsFrom: 'fileType', fileType: byId(fileTypeId) });

		expect(summary(answer.fields).slice(0, 2)).toEqual([
			{ id: 'Field 0001', displayName: 'Field 0001 (title repeated, read-only)', type: 'string', readOnly: true, removed: true },
			{ id: 'Field 0001 (2)', displayName: 'Field 0001 (2) (title repeated, read-only)', type: 'number', readOnly: true, removed: true },
		]);
	});

	it('opens a file type of 2,000 fields in one answer, and refuses one past the bound with what to use instead', async () => {
		const { fileTypeId: big } = addGeneratedFileType(emulator, 2000, { name: 'Two thousand' });
		const { fileTypeId: huge } = addGeneratedFileType(emulator, 6000, { name: 'Too many' });

		const answer = await mapper({ fieldsFrom: 'fileType', fileType: byId(big) });
		expect(answer.fields.length).toBe(1715); // 285 of them are hidden (every seventh from the eleventh on)
		expect(answer.fields.slice(0, 7).map((field) => field.type)).toEqual(['string', 'number', 'boolean', 'dateTime', 'options', 'object', 'array']);

		await expect(mapper({ fieldsFrom: 'fileType', fileType: byId(huge) })).rejects.toThrow(
			'The file type has 5,144 fields, more than the 5,000 the field mapper lists',
		);
	});

	it('refuses a file type ID that is not 24 hexadecimal characters before any request, and names a missing one', async () => {
		emulator.requests.length = 0;
		await expect(mapper({ fieldsFrom: 'fileType', fileType: byId('purchase-order') })).rejects.toThrow(
			'Invalid File Type: expected 24 hexadecimal characters',
		);
		expect(apiCalls(emulator)).toEqual([]);

		await expect(mapper({ fieldsFrom: 'fileType', fileType: byId('6650a00000000000000fffff') })).rejects.toThrow(
			'File type 6650a00000000000000fffff was not found in this workspace',
		);
	});
});

/*
 * When the editor cannot know the file: the File is an expression with no value in the editor
 * (before any input exists), or nothing is chosen yet. As n8n's own resource-mapper nodes (the Data
 * Table node: `hideNoDataError`, an empty list with a notice), the mapper says in words what to
 * pick and is not shown as an error; the fields the node has saved are kept rather than answered
 * away (the editor would mark them stale and, on Refresh, drop every mapped value). A file it can
 * read starts each field the user adds from the file's current value (n8n's `defaultValue`).
 */

const EXPRESSION_FILE = { __rl: true, mode: 'id', value: '={{ $json.fileId }}' };

/** Two fields as a workflow saved them after mapping Approved from a file of the Purchase Order type. */
const SAVED_FIELDS: MapperField[] = [
	{ id: 'PO Number', displayName: 'PO Number', type: 'string' },
	{ id: 'Approved', displayName: 'Approved', type: 'boolean' },
];

describe('Update Values field mapper when the File has no value in the editor', () => {
	it('keeps the fields the node has saved when the File is an expression the editor cannot resolve, says what to pick, and sends nothing', async () => {
		emulator.requests.length = 0;
		const columns = valuesToUpdate({ Approved: true }, SAVED_FIELDS);

		const answer = await mapper({ fieldsFrom: 'file', fileId: EXPRESSION_FILE, columns });

		expect(answer.fields.map(({ id, type, removed }) => ({ id, type, removed }))).toEqual([
			{ id: 'PO Number', type: 'string', removed: true },
			{ id: 'Approved', type: 'boolean', removed: false },
		]);
		expect(answer.emptyFieldsNotice).toContain('set Fields From to "A File Type"');
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('says in words to pick a file, or a file type for a File from an expression, when nothing is saved yet', async () => {
		const expression = await mapper({ fieldsFrom: 'file', fileId: EXPRESSION_FILE });
		const nothing = await mapper({ fieldsFrom: 'file', fileId: { __rl: true, mode: 'list', value: '' } });

		for (const answer of [expression, nothing]) {
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(/^Choose a file to see its fields\. .*set Fields From to "A File Type" and choose the file type/);
		}
	});

	it('keeps the saved fields too while Fields From is "A File Type" and no file type is chosen', async () => {
		const columns = valuesToUpdate({ Approved: true }, SAVED_FIELDS);

		const answer = await mapper({ fieldsFrom: 'fileType', fileType: { __rl: true, mode: 'list', value: '' }, columns });

		expect(answer.fields.map((field) => field.id)).toEqual(['PO Number', 'Approved']);
		expect(answer.emptyFieldsNotice).toBe('Choose a file type to see its fields');
	});

	it('is not shown as an error when there is nothing to list: both mappers hide the red "no fields" line and show the notice instead', () => {
		const mappers = new DocumentExtraction().description.properties.filter((property: INodeProperties) => property.type === 'resourceMapper');

		expect(mappers).toHaveLength(2);
		for (const property of mappers) expect(property.typeOptions?.resourceMapper?.hideNoDataError).toBe(true);
	});
});

describe('Update Values field mapper: a field added starts from the file\'s current value', () => {
	it('offers each text, number, true/false, date and choice field with the value the file holds (Approved true, not off)', async () => {
		const file = await seedFile(emulator, PURCHASE_ORDER_FILE_NAME, purchaseOrderText());

		const answer = await mapper({ fieldsFrom: 'file', fileId: byId(file.fileId) });

		const defaults = Object.fromEntries(answer.fields.map((field) => [field.id, field.defaultValue]));
		expect(defaults).toEqual({
			'PO Number': 'PO-1001',
			'Order Date': '2024-06-03',
			'Order Total': 1480,
			Approved: true,
			Priority: 'Urgent',
			// An object, a table and a read-only field start empty, as before.
			'Ship To': undefined,
			'Order Lines': undefined,
			'Document Reference': undefined,
		});
	});
});

describe('Update Values run with nothing mapped (as the editor leaves it after the File became an expression)', () => {
	it('fails the item naming Values to Update and what to pick, and writes nothing', async () => {
		const file = await seedFile(emulator, PURCHASE_ORDER_FILE_NAME, purchaseOrderText());
		emulator.requests.length = 0;

		const { error } = await runFileOperation(emulator, 'updateValues', {
			fileId: byId(file.fileId),
			inputMode: 'mapper',
			fieldsFrom: 'file',
			columns: { mappingMode: 'defineBelow', value: {}, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: true },
		});

		expect(error?.message).toBe(
			'Invalid Values to Update in item 0: expected at least one field and its value (map a field in Values to Update; with a File from an expression, set Fields From to "A File Type" first, so that the mapping stays), got "[]"',
		);
		expect(apiCalls(emulator)).toEqual([]);
	});
});
