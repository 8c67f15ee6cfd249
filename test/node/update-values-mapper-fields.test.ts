/**
 * Update Values' field mapper (typeVersion 2) as the editor loads it: the method the editor's REST
 * endpoint calls (n8n-core's LoadOptionsContext, through dev/harness resourceMapping) against the
 * emulator's seeded Purchase Order, whose schema has a field of every kind, a choice, a table, a
 * hidden and a read-only field.
 */
import type { IDataObject, ResourceMapperField } from 'n8n-workflow';

import { SEED_IDS, addGeneratedFileType } from '../../dev/emulator';
import { resourceMapping } from '../../dev/harness';
import { PURCHASE_ORDER_FILE_NAME, purchaseOrderText } from '../../dev/purchase-order';
import { byId, seedFile } from './file-operations-support';
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
