/**
 * Update Values' field mapper (typeVersion 2) when the editor cannot know the file: the File is an
 * expression with no value in the editor (before any input exists), or nothing is chosen yet. As
 * n8n's own resource-mapper nodes (the Data Table node: `hideNoDataError`, an empty list with a
 * notice), the mapper says in words what to pick and is not shown as an error; the fields the node
 * has saved are kept rather than answered away (the editor would mark them stale and, on Refresh,
 * drop every mapped value). A file it can read starts each field the user adds from the file's
 * current value (n8n's `defaultValue`). Through the method the editor's REST endpoint calls
 * (dev/harness resourceMapping) against the emulator's seeded Purchase Order.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

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
		parameters: { resource: 'file', operation: 'updateValues', inputMode: 'mapper', includeHidden: false, ...parameters },
	});
}

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
