import type { IDataObject } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import { call, uploadAndGetFile } from '../emulator/test-helpers';
import { receiptText } from '../../dev/documents';
import { apiCalls, runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();
let folderId: string;

function invoice(number: string, vendor: string, total: number): string {
	return [
		'Document Type: Invoice',
		`Invoice Number: ${number}`,
		`Vendor Name: ${vendor}`,
		`Total Amount: ${total}`,
		'Currency: USD',
		'',
	].join('\n');
}

beforeAll(async () => {
	const folder = await call(emulator, 'POST', '/directories', { body: { name: 'Q1 invoices' } });
	folderId = folder.body.directory.id;
	// Uploaded one after the other, so createdAt orders them as listed.
	await uploadAndGetFile(emulator, 'a-1.txt', invoice('A-1', 'Acme', 100), { extra: { directoryId: folderId } });
	await uploadAndGetFile(emulator, 'a-2.txt', invoice('A-2', 'Acme', 200));
	await uploadAndGetFile(emulator, 'g-1.txt', invoice('G-1', 'Globex', 50), { extra: { directoryId: folderId } });
	await uploadAndGetFile(emulator, 'i-1.txt', invoice('I-1', 'Initech', 300));
	await uploadAndGetFile(emulator, 'receipt.txt', receiptText());
});

async function query(queryConfig: IDataObject, parameters: IDataObject = {}, options = {}) {
	return await runOperation(
		emulator,
		'query',
		'execute',
		{ queryConfig: JSON.stringify(queryConfig), returnAll: true, ...parameters },
		options,
	);
}

describe('Query > Execute', () => {
	it('filters and selects fields: one item per row, keyed by the aliases', async () => {
		const { items, error } = await query({
			filters: [{ field: 'Total Amount', operator: 'gte', value: 100 }],
			selectedFields: [
				{ field: 'Vendor Name', alias: 'vendor' },
				{ field: 'Total Amount', alias: 'total' },
				{ field: 'fileName', alias: 'file' },
			],
			orderBy: [{ alias: 'total', direction: 'DESC' }],
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ vendor: 'Initech', total: 300, file: 'i-1.txt' },
			{ vendor: 'Acme', total: 200, file: 'a-2.txt' },
			{ vendor: 'Acme', total: 100, file: 'a-1.txt' },
		]);
		items.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
		expect(apiCalls(emulator)).toEqual(['POST /query/execute']);
	});

	it('groups and aggregates, with all rows in one item when asked', async () => {
		const { items, error } = await query(
			{
				documentTypes: [],
				selectedFields: [{ field: 'Vendor Name', alias: 'vendor' }],
				groupBy: ['vendor'],
				aggregations: [
					{ function: 'sum', field: 'Total Amount', alias: 'total' },
					{ function: 'count', alias: 'invoices' },
				],
				orderBy: [{ alias: 'total', direction: 'DESC' }],
			},
			{ output: 'single', documentTypes: [SEED_IDS.invoiceFileTypeA] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			data: [
				{ vendor: 'Acme', total: 300, invoices: 2 },
				{ vendor: 'Initech', total: 300, invoices: 1 },
				{ vendor: 'Globex', total: 50, invoices: 1 },
			],
			headers: {
				vendor: { title: 'Vendor Name', type: 'string' },
				total: { title: 'SUM(Total Amount)', type: 'number' },
			},
			rowCount: 3,
			errors: [],
		});
		expect(typeof items[0].json.executionTimeMs).toBe('number');
	});

	it('Document Types and Folders narrow the files the query reads', async () => {
		const selectFiles = { selectedFields: [{ field: 'fileName', alias: 'file' }], orderBy: [{ field: 'createdAt' }] };

		const receipts = await query(selectFiles, { documentTypes: [SEED_IDS.receiptFileTypeA] });
		expect(receipts.items.map((item) => item.json.file)).toEqual(['receipt.txt']);

		const inFolder = await query(selectFiles, { folderIds: `${folderId}` });
		expect(inFolder.items.map((item) => item.json.file)).toEqual(['a-1.txt', 'g-1.txt']);

		const both = await query(
			{ ...selectFiles, foldersContext: ['0123456789abcdef01234567'] },
			{ folderIds: ` ${folderId} ,`, documentTypes: [SEED_IDS.invoiceFileTypeA, SEED_IDS.receiptFileTypeA] },
		);
		expect(both.items.map((item) => item.json.file)).toEqual(['a-1.txt', 'g-1.txt']);
	});

	it('Return All pages by offset until a short page', async () => {
		const { items, error } = await query(
			{ selectedFields: [{ field: 'fileName', alias: 'file' }], orderBy: [{ field: 'createdAt' }] },
			{ options: { pageSize: 2 } },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.file)).toEqual(['a-1.txt', 'a-2.txt', 'g-1.txt', 'i-1.txt', 'receipt.txt']);
		expect(apiCalls(emulator)).toEqual(['POST /query/execute', 'POST /query/execute', 'POST /query/execute']);
	});

	it('without Return All, sends Limit and Offset once', async () => {
		const { items } = await query(
			{ selectedFields: [{ field: 'fileName', alias: 'file' }], orderBy: [{ field: 'createdAt' }] },
			{ returnAll: false, limit: 2, options: { offset: 1, skipCache: true } },
		);

		expect(items.map((item) => item.json.file)).toEqual(['a-2.txt', 'g-1.txt']);
		expect(apiCalls(emulator)).toEqual(['POST /query/execute']);
	});

	it('is repeated after a 503 or a lost connection: a POST that only reads, without an Idempotency-Key', async () => {
		const selectFiles = { selectedFields: [{ field: 'fileName', alias: 'file' }], orderBy: [{ field: 'createdAt' }] };
		emulator.faults.failNext({ method: 'POST', path: '/query/execute', status: 503 });
		emulator.faults.resetConnectionNext({ method: 'POST', path: '/query/execute' });

		const { items, error } = await query(selectFiles);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.file)).toEqual(['a-1.txt', 'a-2.txt', 'g-1.txt', 'i-1.txt', 'receipt.txt']);
		const posts = emulator.requests.filter((entry) => entry.host === 'api' && entry.path.endsWith('/query/execute'));
		// The reset is matched first (status 0), then the 503, then the answer.
		expect(posts.map((entry) => entry.status)).toEqual([0, 503, 200]);
		for (const entry of posts) expect(entry.headers['idempotency-key']).toBeUndefined();
	});

	it('a reply carrying errors[] fails the item, listing each error with its pointer', async () => {
		const { items, error } = await query({
			filters: [{ field: 'Total Amount', operator: 'between', value: 1 }],
			selectedFields: [{ field: 'No Such Field', alias: 'x' }],
		});

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^The service refused the query configuration of item 0 \(2 errors\): /);
		expect(error?.message).toContain('field /queryConfig/filters/0/operator');
		expect(error?.message).toContain('(UNKNOWN_OPERATOR)');
		expect(error?.message).toContain('field /queryConfig/selectedFields/0/field');
		expect(error?.message).toContain('(UNKNOWN_FIELD)');
	});

	it('with Ignore Query Errors, outputs what came back: no rows, or one item holding the errors', async () => {
		const broken = { selectedFields: [{ field: 'No Such Field', alias: 'x' }] };

		const rows = await query(broken, { options: { ignoreQueryErrors: true } });
		expect(rows.error).toBeUndefined();
		expect(rows.items).toHaveLength(0);

		const single = await query(broken, { output: 'single', options: { ignoreQueryErrors: true } });
		expect(single.error).toBeUndefined();
		expect(single.items[0].json).toMatchObject({
			data: [],
			rowCount: 0,
			errors: [expect.objectContaining({ code: 'UNKNOWN_FIELD', pointer: '/queryConfig/selectedFields/0/field' })],
		});
	});

	it('refuses a configuration that is not a JSON object and malformed folder ids before any request', async () => {
		const notObject = await runOperation(emulator, 'query', 'execute', { queryConfig: '[1, 2]' });
		expect(notObject.error?.message).toBe('Invalid Query Configuration (JSON) in item 0: expected a JSON object, got "[1, 2]"');

		const badFolder = await query({}, { folderIds: `${folderId}, folder-2` });
		expect(badFolder.error?.message).toBe(
			'Invalid Folders (entry 2) in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "folder-2"',
		);
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('with continueOnFail, the item with a refused configuration becomes an error item; the other gives its rows', async () => {
		const { items, error } = await runOperation(
			emulator,
			'query',
			'execute',
			{
				queryConfig: '={{ JSON.stringify({ selectedFields: [{ field: $json.field, alias: "value" }], orderBy: [{ field: "createdAt" }] }) }}',
				returnAll: false,
				limit: 1,
			},
			{ continueOnFail: true, inputItems: [{ json: { field: 'Vendor Name' } }, { json: { field: 'Colour' } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toEqual({ value: 'Acme' });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.error).toContain('The service refused the query configuration of item 1 (1 error)');
		expect(items[1].json.error).toContain('/queryConfig/selectedFields/0/field');
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});
});

describe('Query > Execute refuses bad limits, offsets, page sizes and outputs before any request', () => {
	const CONFIG = JSON.stringify({ selectedFields: [{ field: 'fileName', alias: 'name' }] });

	it.each<[string, IDataObject, string]>([
		['a Limit of 0', { limit: 0 }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "0"'],
		['an Offset of -5', { options: { offset: -5 } }, 'Invalid Offset in item 0: expected a whole number, 0 or more, got "-5"'],
		['an Offset "next"', { options: { offset: '={{ "next" }}' } }, 'Invalid Offset in item 0: expected a whole number, 0 or more, got "next"'],
		['a Page Size of 0', { returnAll: true, options: { pageSize: 0 } }, 'Invalid Page Size in item 0: expected a whole number of 1 or more, got "0"'],
		// Once sent as null, it asked for page after page, up to the 10,000-page safety stop.
		['a Page Size "big"', { returnAll: true, options: { pageSize: '={{ "big" }}' } }, 'Invalid Page Size in item 0: expected a whole number of 1 or more, got "big"'],
		['an Output it does not offer', { output: 'table' }, 'Invalid Output in item 0: expected one of rows, single, got "table"'],
		['Ignore Query Errors "off" (text that would count as true)', { options: { ignoreQueryErrors: '={{ "off" }}' } }, 'Invalid Ignore Query Errors in item 0: expected true or false, got "off"'],
	])('%s', async (_case, parameters, message) => {
		const { error } = await runOperation(emulator, 'query', 'execute', { queryConfig: CONFIG, ...parameters });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
