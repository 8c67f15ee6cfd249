/**
 * Query > Execute's pickers: the fields of Selected Fields, Filters and Order By chosen from the
 * workspace's file types (the getQueryFields list, after Document Types), each picker replacing
 * its key of the JSON configuration when it has entries; the rest of the configuration stays the
 * user's JSON.
 */

import { SEED_IDS } from '../../dev/emulator';
import { loadOptions } from '../../dev/harness';
import { uploadAndGetFile } from '../emulator/test-helpers';
import { receiptText } from '../../dev/documents';
import { apiCalls, runOperation } from './run-operation';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator();

beforeAll(async () => {
	for (const [number, vendor, total] of [['A-1', 'Acme', '100'], ['G-1', 'Globex', '50'], ['I-1', 'Initech', '300']]) {
		await uploadAndGetFile(emulator, `${number}.txt`, `Document Type: Invoice\nInvoice Number: ${number}\nVendor Name: ${vendor}\nTotal Amount: ${total}\n`);
	}
	await uploadAndGetFile(emulator, 'receipt.txt', receiptText());
});

async function fields(documentTypes: string[]) {
	return await loadOptions({
		type: 'documentExtraction',
		method: 'getQueryFields',
		credentials: credentialsFor(emulator),
		parameters: { resource: 'query', operation: 'execute', documentTypes },
		path: 'parameters.filtersUi.filter[0].field',
	});
}

describe('Query > Execute field pickers', () => {
	it("offer the file attributes, then the chosen file types' fields, typed and each once", async () => {
		emulator.requests.length = 0;
		const options = await fields([SEED_IDS.invoiceFileTypeA, SEED_IDS.receiptFileTypeA]);

		expect(options.slice(0, 7).map((option) => option.value)).toEqual(['fileName', 'fileId', 'fileTypeId', 'schemaId', 'directoryId', 'createdAt', 'updatedAt']);
		expect(options.slice(7).map((option) => option.name)).toEqual([
			'Currency (text · Invoice)',
			'Customer Name (text · Invoice)',
			'Date (date · Receipt)',
			'Due Date (date · Invoice)',
			'Invoice Date (date · Invoice)',
			'Invoice Number (text · Invoice)',
			'Line Items (table · Invoice)',
			'Merchant Name (text · Receipt)',
			'Paid (boolean · Invoice, Receipt)',
			'Payment Method (choice · Receipt)',
			'Purchase Order Number (text · Invoice)',
			'Receipt Number (text · Receipt)',
			'Subtotal (number · Invoice)',
			'Tax (number · Invoice)',
			'Total (number · Receipt)',
			'Total Amount (number · Invoice)',
			'Vendor Name (text · Invoice)',
		]);
		expect(apiCalls(emulator)).toEqual(['GET /file-type']);
	});

	it("without Document Types, offer every file type's fields", async () => {
		const options = await fields([]);
		expect(options.map((option) => option.value)).toEqual(expect.arrayContaining(['Total Amount', 'Merchant Name', 'Order Total', 'Priority']));
	});

	it('build selectedFields, filters and orderBy from the pickers, replacing those keys of the JSON, keeping the rest', async () => {
		const { items, error } = await runOperation(emulator, 'query', 'execute', {
			returnAll: true,
			documentTypes: [SEED_IDS.invoiceFileTypeA],
			// The JSON's own selectedFields and filters are replaced; its headerOrder stays.
			queryConfig: JSON.stringify({ selectedFields: [{ field: 'fileId' }], filters: [{ field: 'Tax', operator: 'eq', value: 1 }], headerOrder: ['total', 'vendor'] }),
			selectedFieldsUi: { column: [{ field: 'Vendor Name', alias: 'vendor' }, { field: 'Total Amount', alias: 'total' }] },
			filtersUi: {
				filter: [
					{ field: 'Total Amount', operator: 'gte', value: '100' },
					{ field: 'Vendor Name', operator: 'in', value: 'Acme, Initech, Globex' },
				],
			},
			orderByUi: { order: [{ field: 'Total Amount', direction: 'DESC' }] },
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ total: 300, vendor: 'Initech' },
			{ total: 100, vendor: 'Acme' },
		]);
	});

	it('read a filter value as JSON when it is JSON, else as text ("quoted" digits stay text)', async () => {
		const run = async (value: string) =>
			await runOperation(emulator, 'query', 'execute', {
				returnAll: true,
				queryConfig: '{}',
				selectedFieldsUi: { column: [{ field: 'Invoice Number', alias: 'number' }] },
				filtersUi: { filter: [{ field: 'Invoice Number', operator: 'eq', value }] },
			});
		expect((await run('I-1')).items.map((item) => item.json)).toEqual([{ number: 'I-1' }]);
		expect((await run('"I-1"')).items.map((item) => item.json)).toEqual([{ number: 'I-1' }]);
		const asNumber = await run('42');
		expect(asNumber.error?.message).toContain('INVALID_TYPE');
	});

	it('refuse an entry without a field before any request', async () => {
		emulator.requests.length = 0;
		const { error } = await runOperation(emulator, 'query', 'execute', { queryConfig: '{}', orderByUi: { order: [{ field: '', direction: 'ASC' }] } });
		expect(error?.message).toBe('Invalid Order By (entry 1) Field in item 0: expected text of 1 to 255 characters, got ""');
		expect(apiCalls(emulator)).toEqual([]);
	});
});

