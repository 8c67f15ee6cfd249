import { executeQuery, type QueryCatalog, type QueryableDocument, type QueryResult } from '../../dev/emulator/query';
import { INVOICE_SCHEMA_FIELDS, RECEIPT_SCHEMA_FIELDS } from '../../dev/documents';

const INVOICE_TYPE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const RECEIPT_TYPE = 'aaaaaaaaaaaaaaaaaaaaaaa2';
const SCHEMA = 'bbbbbbbbbbbbbbbbbbbbbbb1';
const FOLDER_ROOT = 'ddddddddddddddddddddddd1';
const FOLDER_CHILD = 'ddddddddddddddddddddddd2';
const FOLDER_OTHER = 'ddddddddddddddddddddddd3';

function invoice(id: string, directoryId: string | null, createdAt: string, values: Record<string, unknown>): QueryableDocument {
	return { fileId: id, fileName: `${id}.pdf`, fileTypeId: INVOICE_TYPE, schemaId: SCHEMA, directoryId, createdAt, updatedAt: createdAt, values };
}

const documents: QueryableDocument[] = [
	invoice('inv-a', FOLDER_ROOT, '2024-01-01T10:00:00.000Z', {
		'Invoice Number': 'INV-1', 'Vendor Name': 'ACME Supplies', 'Total Amount': 100, Paid: true, 'Invoice Date': '2024-01-05',
		'Line Items': [{ Description: 'Bolt', Amount: 100 }],
	}),
	invoice('inv-b', FOLDER_CHILD, '2024-01-02T10:00:00.000Z', {
		'Invoice Number': 'INV-2', 'Vendor Name': 'Globex', 'Total Amount': 250.5, Paid: false, 'Invoice Date': '2024-02-10', 'Line Items': [],
	}),
	invoice('inv-c', null, '2024-01-03T10:00:00.000Z', {
		'Invoice Number': 'INV-3', 'Vendor Name': 'ACME Supplies', 'Total Amount': 50, Paid: false, 'Invoice Date': '2024-03-01', 'Line Items': null,
	}),
	invoice('inv-d', FOLDER_OTHER, '2024-01-04T10:00:00.000Z', {
		'Invoice Number': 'INV-4', 'Vendor Name': null, 'Total Amount': null, Paid: true, 'Invoice Date': null, 'Line Items': null,
	}),
	{
		fileId: 'rec-a', fileName: 'receipt.txt', fileTypeId: RECEIPT_TYPE, schemaId: SCHEMA, directoryId: FOLDER_ROOT,
		createdAt: '2024-01-05T10:00:00.000Z', updatedAt: '2024-01-06T10:00:00.000Z',
		values: { 'Merchant Name': 'Corner Coffee', Total: 12.4, Date: '2024-02-03', Paid: true },
	},
];

const catalog: QueryCatalog = {
	fields: [...INVOICE_SCHEMA_FIELDS, ...RECEIPT_SCHEMA_FIELDS],
	directories: [
		{ id: FOLDER_ROOT, parentId: null },
		{ id: FOLDER_CHILD, parentId: FOLDER_ROOT },
		{ id: FOLDER_OTHER },
	],
};

function run(queryConfig: unknown, options?: unknown): QueryResult {
	return executeQuery(queryConfig, options, documents, catalog);
}

function ids(result: QueryResult, column = 'fileId'): unknown[] {
	expect(result.errors).toEqual([]);
	return result.data.map((row) => row[column]);
}

function select(...names: string[]) {
	return names.map((field) => ({ field }));
}

describe('executeQuery: scope and defaults', () => {
	it('answers every document, oldest first, with file attributes and every value title when nothing is selected', () => {
		const result = run({});
		expect(ids(result)).toEqual(['inv-a', 'inv-b', 'inv-c', 'inv-d', 'rec-a']);
		expect(result.rowCount).toBe(5);
		expect(Object.keys(result.headers)).toEqual([
			'fileId', 'fileName', 'fileTypeId', 'directoryId', 'createdAt', 'updatedAt',
			'Invoice Number', 'Vendor Name', 'Total Amount', 'Paid', 'Invoice Date', 'Line Items', 'Merchant Name', 'Total', 'Date',
		]);
		expect(result.data[4]).toMatchObject({ fileId: 'rec-a', 'Invoice Number': null, 'Merchant Name': 'Corner Coffee', Total: 12.4 });
	});

	it('orders documents by createdAt whatever order they arrive in', () => {
		const result = executeQuery({ selectedFields: select('fileId') }, undefined, [...documents].reverse(), catalog);
		expect(ids(result)).toEqual(['inv-a', 'inv-b', 'inv-c', 'inv-d', 'rec-a']);
	});

	it('limits to documentTypes', () => {
		expect(ids(run({ documentTypes: [RECEIPT_TYPE] }))).toEqual(['rec-a']);
		expect(ids(run({ documentTypes: [INVOICE_TYPE.toUpperCase()] }))).toEqual(['inv-a', 'inv-b', 'inv-c', 'inv-d']);
	});

	it('limits to foldersContext, subdirectories included when the catalog knows the tree', () => {
		expect(ids(run({ foldersContext: [FOLDER_ROOT] }))).toEqual(['inv-a', 'inv-b', 'rec-a']);
		expect(ids(executeQuery({ foldersContext: [FOLDER_ROOT] }, {}, documents))).toEqual(['inv-a', 'rec-a']);
		expect(ids(run({ foldersContext: [FOLDER_OTHER], documentTypes: [INVOICE_TYPE] }))).toEqual(['inv-d']);
	});

	it('treats empty documentTypes and foldersContext as no restriction', () => {
		expect(run({ documentTypes: [], foldersContext: [] }).rowCount).toBe(5);
	});

	it('answers no rows (and no errors) for a workspace without documents', () => {
		expect(executeQuery({ selectedFields: select('fileName') }, {}, [])).toEqual({ data: [], headers: { fileName: { title: 'fileName', type: 'string' } }, rowCount: 0, errors: [] });
	});
});

describe('executeQuery: filters', () => {
	const where = (field: string, operator: string, value: unknown) => run({ filters: [{ field, operator, value }] });

	it.each([
		['Vendor Name', 'eq', 'Globex', ['inv-b']],
		['Vendor Name', 'ne', 'Globex', ['inv-a', 'inv-c', 'inv-d', 'rec-a']],
		['Total Amount', 'gt', 100, ['inv-b']],
		['Total Amount', 'gte', 100, ['inv-a', 'inv-b']],
		['Total Amount', 'lt', 100, ['inv-c']],
		['Total Amount', 'lte', 100, ['inv-a', 'inv-c']],
		['Vendor Name', 'contains', 'acme', ['inv-a', 'inv-c']],
		['Invoice Number', 'in', ['INV-1', 'INV-4', 'INV-9'], ['inv-a', 'inv-d']],
		['Total Amount', 'in', [50, 250.5], ['inv-b', 'inv-c']],
		['Paid', 'eq', true, ['inv-a', 'inv-d', 'rec-a']],
		['Vendor Name', 'eq', null, ['inv-d', 'rec-a']],
		['Vendor Name', 'ne', null, ['inv-a', 'inv-b', 'inv-c']],
		['Invoice Date', 'gte', '2024-02-01', ['inv-b', 'inv-c']],
		['Invoice Date', 'lt', '2024-02-10', ['inv-a']],
		['createdAt', 'gte', '2024-01-03', ['inv-c', 'inv-d', 'rec-a']],
		['createdAt', 'lt', '2024-01-02T12:00:00+02:00', ['inv-a']],
		['createdAt', 'lte', '2024-01-02T12:00:00+02:00', ['inv-a', 'inv-b']],
		['updatedAt', 'eq', '2024-01-06T10:00:00Z', ['rec-a']],
		['fileName', 'contains', 'INV-', ['inv-a', 'inv-b', 'inv-c', 'inv-d']],
		['directoryId', 'eq', null, ['inv-c']],
		['Line Items', 'ne', null, ['inv-a', 'inv-b']],
	])('%s %s %j', (field, operator, value, expected) => {
		expect(ids(where(field, operator, value))).toEqual(expected);
	});

	it('resolves value titles case-insensitively and accepts upper-case operators', () => {
		expect(ids(run({ filters: [{ field: '  total   AMOUNT ', operator: 'GT', value: 100 }] }))).toEqual(['inv-b']);
	});

	it('combines top-level filters with AND', () => {
		const result = run({ filters: [{ field: 'Vendor Name', operator: 'contains', value: 'acme' }, { field: 'Total Amount', operator: 'gt', value: 60 }] });
		expect(ids(result)).toEqual(['inv-a']);
	});

	it('evaluates nested filterGroups with AND and OR', () => {
		const result = run({
			filterGroups: [
				{
					operator: 'OR',
					filters: [{ field: 'Vendor Name', operator: 'eq', value: 'Globex' }],
					groups: [
						{
							operator: 'AND',
							filters: [
								{ field: 'Paid', operator: 'eq', value: true },
								{ field: 'fileTypeId', operator: 'eq', value: RECEIPT_TYPE },
							],
						},
					],
				},
			],
		});
		expect(ids(result)).toEqual(['inv-b', 'rec-a']);
	});

	it('combines filters and filterGroups with AND; an empty group matches everything', () => {
		const result = run({
			filters: [{ field: 'Paid', operator: 'eq', value: false }],
			filterGroups: [{ operator: 'or', filters: [{ field: 'Total Amount', operator: 'lt', value: 60 }, { field: 'Vendor Name', operator: 'eq', value: 'nobody' }] }, {}],
		});
		expect(ids(result)).toEqual(['inv-c']);
	});

	it('finds nothing in a field the catalog knows but no document has filled', () => {
		expect(ids(run({ filters: [{ field: 'Purchase Order Number', operator: 'eq', value: 'PO-1' }] }))).toEqual([]);
		expect(ids(run({ filters: [{ field: 'Purchase Order Number', operator: 'eq', value: null }] }))).toHaveLength(5);
	});
});

describe('executeQuery: selection, order, paging', () => {
	it('selects fields under aliases with headers giving the source title and type', () => {
		const result = run({
			documentTypes: [INVOICE_TYPE],
			selectedFields: [{ field: 'Invoice Number', alias: 'number' }, { field: 'Total Amount', alias: 'total' }, { field: 'Paid' }, { field: 'Invoice Date', alias: 'date' }, { field: 'createdAt', alias: 'received' }, { field: 'Line Items', alias: 'lines' }],
			orderBy: [{ alias: 'total', direction: 'DESC' }],
		});
		expect(result.errors).toEqual([]);
		expect(result.headers).toEqual({
			number: { title: 'Invoice Number', type: 'string' },
			total: { title: 'Total Amount', type: 'number' },
			Paid: { title: 'Paid', type: 'boolean' },
			date: { title: 'Invoice Date', type: 'date' },
			received: { title: 'createdAt', type: 'datetime' },
			lines: { title: 'Line Items', type: 'table' },
		});
		expect(result.data[0]).toEqual({ number: 'INV-2', total: 250.5, Paid: false, date: '2024-02-10', received: '2024-01-02T10:00:00.000Z', lines: [] });
		expect(result.data.map((row) => row.total)).toEqual([250.5, 100, 50, null]);
	});

	it('keeps nulls last in both directions', () => {
		const ascending = run({ documentTypes: [INVOICE_TYPE], selectedFields: select('fileId'), orderBy: [{ field: 'Total Amount' }] });
		const descending = run({ documentTypes: [INVOICE_TYPE], selectedFields: select('fileId'), orderBy: [{ field: 'Total Amount', direction: 'desc' }] });
		expect(ids(ascending)).toEqual(['inv-c', 'inv-a', 'inv-b', 'inv-d']);
		expect(ids(descending)).toEqual(['inv-b', 'inv-a', 'inv-c', 'inv-d']);
	});

	it('orders by several keys, by fields that are not selected, and by a field name that is an alias', () => {
		const result = run({
			documentTypes: [INVOICE_TYPE],
			selectedFields: [{ field: 'fileId', alias: 'vendor' }],
			orderBy: [{ field: 'Vendor Name' }, { field: 'Invoice Date', direction: 'DESC' }],
		});
		expect(ids(result, 'vendor')).toEqual(['inv-c', 'inv-a', 'inv-b', 'inv-d']);
		const byAliasName = run({ documentTypes: [INVOICE_TYPE], selectedFields: [{ field: 'Total Amount', alias: 'Vendor Name' }], orderBy: [{ field: 'Vendor Name' }] });
		expect(ids(byAliasName, 'Vendor Name')).toEqual([50, 100, 250.5, null]);
	});

	it('pages with offset and limit; rowCount counts the rows answered', () => {
		const page = run({ selectedFields: select('fileId') }, { offset: 1, limit: 2, skipCache: true });
		expect(ids(page)).toEqual(['inv-b', 'inv-c']);
		expect(page.rowCount).toBe(2);
		expect(run({ selectedFields: select('fileId') }, { offset: 10 }).data).toEqual([]);
	});

	it('orders headers and row keys by headerOrder', () => {
		const result = run({ selectedFields: select('fileId', 'fileName', 'Paid'), headerOrder: ['Paid', 'fileId'] });
		expect(Object.keys(result.headers)).toEqual(['Paid', 'fileId', 'fileName']);
		expect(Object.keys(result.data[0])).toEqual(['Paid', 'fileId', 'fileName']);
	});
});

describe('executeQuery: aggregations', () => {
	it('summarises every matching document in one row without groupBy', () => {
		const result = run({
			documentTypes: [INVOICE_TYPE],
			aggregations: [
				{ function: 'count' },
				{ function: 'count', field: 'Total Amount', alias: 'withTotal' },
				{ function: 'sum', field: 'Total Amount', alias: 'sum' },
				{ function: 'avg', field: 'Total Amount', alias: 'avg' },
				{ function: 'min', field: 'Invoice Date', alias: 'first' },
				{ function: 'MAX', field: 'Total Amount' },
			],
		});
		expect(result.errors).toEqual([]);
		expect(result.data).toEqual([{ count: 4, withTotal: 3, sum: 400.5, avg: 133.5, first: '2024-01-05', 'max_Total Amount': 250.5 }]);
		expect(result.headers).toEqual({
			count: { title: 'COUNT(*)', type: 'number' },
			withTotal: { title: 'COUNT(Total Amount)', type: 'number' },
			sum: { title: 'SUM(Total Amount)', type: 'number' },
			avg: { title: 'AVG(Total Amount)', type: 'number' },
			first: { title: 'MIN(Invoice Date)', type: 'date' },
			'max_Total Amount': { title: 'MAX(Total Amount)', type: 'number' },
		});
	});

	it('answers one row with count 0 and null sums when nothing matches', () => {
		const result = run({ filters: [{ field: 'Vendor Name', operator: 'eq', value: 'nobody' }], aggregations: [{ function: 'count', alias: 'n' }, { function: 'sum', field: 'Total Amount', alias: 's' }] });
		expect(result.data).toEqual([{ n: 0, s: null }]);
	});

	it('groups by a field, names the group column by its selected alias and orders groups', () => {
		const result = run({
			documentTypes: [INVOICE_TYPE],
			selectedFields: [{ field: 'Vendor Name', alias: 'vendor' }],
			groupBy: ['Vendor Name'],
			aggregations: [{ function: 'count', alias: 'invoices' }, { function: 'sum', field: 'Total Amount', alias: 'total' }],
			orderBy: [{ alias: 'total', direction: 'DESC' }],
		});
		expect(result.errors).toEqual([]);
		expect(result.data).toEqual([
			{ vendor: 'Globex', invoices: 1, total: 250.5 },
			{ vendor: 'ACME Supplies', invoices: 2, total: 150 },
			{ vendor: null, invoices: 1, total: null },
		]);
		expect(result.headers.vendor).toEqual({ title: 'Vendor Name', type: 'string' });
	});

	it('sorts groups by their group values when no orderBy is given, and groups by file attributes', () => {
		const result = run({ groupBy: ['fileTypeId', 'Paid'], aggregations: [{ function: 'count', alias: 'n' }] });
		expect(result.errors).toEqual([]);
		expect(result.data).toEqual([
			{ fileTypeId: INVOICE_TYPE, Paid: false, n: 2 },
			{ fileTypeId: INVOICE_TYPE, Paid: true, n: 2 },
			{ fileTypeId: RECEIPT_TYPE, Paid: true, n: 1 },
		]);
	});

	it('gives distinct values for groupBy without aggregations, paged like any result', () => {
		const result = run({ documentTypes: [INVOICE_TYPE], groupBy: ['Vendor Name'], orderBy: [{ field: 'Vendor Name', direction: 'DESC' }] }, { limit: 2 });
		expect(result.data).toEqual([{ 'Vendor Name': 'Globex' }, { 'Vendor Name': 'ACME Supplies' }]);
		expect(result.rowCount).toBe(2);
	});
});

describe('executeQuery: invalid configurations answer errors, never throw', () => {
	function errorsOf(queryConfig: unknown, options?: unknown) {
		const result = run(queryConfig, options);
		expect(result.data).toEqual([]);
		expect(result.rowCount).toBe(0);
		expect(result.headers).toEqual({});
		return result.errors.map(({ code, pointer }) => ({ code, pointer }));
	}

	it.each([
		['missing queryConfig', undefined, undefined, [{ code: 'REQUIRED', pointer: '/queryConfig' }]],
		['queryConfig not an object', [], undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig' }]],
		['unknown operator', { filters: [{ field: 'Paid', operator: 'like', value: true }] }, undefined, [{ code: 'UNKNOWN_OPERATOR', pointer: '/queryConfig/filters/0/operator' }]],
		['unknown field', { filters: [{ field: 'Colour', operator: 'eq', value: 'red' }] }, undefined, [{ code: 'UNKNOWN_FIELD', pointer: '/queryConfig/filters/0/field' }]],
		['string compared with a number field', { filters: [{ field: 'Total Amount', operator: 'gt', value: '100' }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0/value' }]],
		['bad date literal', { filters: [{ field: 'Invoice Date', operator: 'gte', value: '01/02/2024' }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0/value' }]],
		['bad timestamp literal', { filters: [{ field: 'createdAt', operator: 'gte', value: 'yesterday' }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0/value' }]],
		['contains on a number field', { filters: [{ field: 'Total Amount', operator: 'contains', value: '1' }] }, undefined, [{ code: 'UNSUPPORTED_OPERATOR', pointer: '/queryConfig/filters/0/operator' }]],
		['gt on a boolean field', { filters: [{ field: 'Paid', operator: 'gt', value: false }] }, undefined, [{ code: 'UNSUPPORTED_OPERATOR', pointer: '/queryConfig/filters/0/operator' }]],
		['in without an array', { filters: [{ field: 'Paid', operator: 'in', value: true }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0/value' }]],
		['in with a wrong element', { filters: [{ field: 'Total Amount', operator: 'in', value: [1, 'two'] }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0/value/1' }]],
		['filter without value', { filters: [{ field: 'Paid', operator: 'eq' }] }, undefined, [{ code: 'REQUIRED', pointer: '/queryConfig/filters/0/value' }]],
		['table compared with a value', { filters: [{ field: 'Line Items', operator: 'eq', value: 'x' }] }, undefined, [{ code: 'INVALID_VALUE', pointer: '/queryConfig/filters/0/value' }]],
		['filters not an array', { filters: { field: 'Paid' } }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters' }]],
		['filter not an object', { filters: ['Paid = true'] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/filters/0' }]],
		['nested group error', { filterGroups: [{ operator: 'AND', groups: [{ operator: 'XOR', filters: [] }] }] }, undefined, [{ code: 'UNKNOWN_OPERATOR', pointer: '/queryConfig/filterGroups/0/groups/0/operator' }]],
		['unknown property', { filter: [] }, undefined, [{ code: 'UNKNOWN_PROPERTY', pointer: '/queryConfig/filter' }]],
		['unknown entry property', { selectedFields: [{ field: 'Paid', label: 'x' }] }, undefined, [{ code: 'UNKNOWN_PROPERTY', pointer: '/queryConfig/selectedFields/0/label' }]],
		['joins are not supported', { joins: [{ with: 'x' }] }, undefined, [{ code: 'UNSUPPORTED', pointer: '/queryConfig/joins' }]],
		['bad file type id', { documentTypes: ['invoice'] }, undefined, [{ code: 'INVALID_VALUE', pointer: '/queryConfig/documentTypes/0' }]],
		['bad folder list', { foldersContext: FOLDER_ROOT }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/foldersContext' }]],
		['selected field without field', { selectedFields: [{ alias: 'x' }] }, undefined, [{ code: 'REQUIRED', pointer: '/queryConfig/selectedFields/0/field' }]],
		['duplicate alias', { selectedFields: [{ field: 'Paid', alias: 'p' }, { field: 'fileId', alias: 'p' }] }, undefined, [{ code: 'DUPLICATE_ALIAS', pointer: '/queryConfig/selectedFields/1/alias' }]],
		['unknown aggregate', { aggregations: [{ function: 'median', field: 'Total Amount' }] }, undefined, [{ code: 'UNKNOWN_FUNCTION', pointer: '/queryConfig/aggregations/0/function' }]],
		['sum without field', { aggregations: [{ function: 'sum' }] }, undefined, [{ code: 'REQUIRED', pointer: '/queryConfig/aggregations/0/field' }]],
		['sum of a text field', { aggregations: [{ function: 'sum', field: 'Vendor Name' }] }, undefined, [{ code: 'INVALID_TYPE', pointer: '/queryConfig/aggregations/0/field' }]],
		['selected field not grouped', { selectedFields: select('fileName'), aggregations: [{ function: 'count' }] }, undefined, [{ code: 'NOT_GROUPED', pointer: '/queryConfig/selectedFields/0' }]],
		['order by an unknown alias', { selectedFields: select('Paid'), orderBy: [{ alias: 'total' }] }, undefined, [{ code: 'UNKNOWN_ALIAS', pointer: '/queryConfig/orderBy/0/alias' }]],
		['order by a bad direction', { orderBy: [{ field: 'Paid', direction: 'UP' }] }, undefined, [{ code: 'INVALID_VALUE', pointer: '/queryConfig/orderBy/0/direction' }]],
		['order by both field and alias', { orderBy: [{ field: 'Paid', alias: 'Paid' }] }, undefined, [{ code: 'REQUIRED', pointer: '/queryConfig/orderBy/0' }]],
		['grouped order by an ungrouped field', { groupBy: ['Paid'], orderBy: [{ field: 'Total Amount' }] }, undefined, [{ code: 'NOT_GROUPED', pointer: '/queryConfig/orderBy/0/field' }]],
		['headerOrder names no column', { selectedFields: select('Paid'), headerOrder: ['nope'] }, undefined, [{ code: 'UNKNOWN_ALIAS', pointer: '/queryConfig/headerOrder/0' }]],
		['limit zero', {}, { limit: 0 }, [{ code: 'INVALID_VALUE', pointer: '/options/limit' }]],
		['negative offset', {}, { offset: -1 }, [{ code: 'INVALID_VALUE', pointer: '/options/offset' }]],
		['limit as text', {}, { limit: '10' }, [{ code: 'INVALID_VALUE', pointer: '/options/limit' }]],
		['skipCache not boolean', {}, { skipCache: 'yes' }, [{ code: 'INVALID_TYPE', pointer: '/options/skipCache' }]],
		['options not an object', {}, 'fast', [{ code: 'INVALID_TYPE', pointer: '/options' }]],
		['unknown option', {}, { pageSize: 10 }, [{ code: 'UNKNOWN_PROPERTY', pointer: '/options/pageSize' }]],
	])('%s', (_name, queryConfig, options, expected) => {
		expect(errorsOf(queryConfig, options)).toEqual(expected);
	});

	it('reports every error of a configuration at once, each with a detail', () => {
		const result = run({
			filters: [{ field: 'Colour', operator: 'eq', value: 'red' }, { field: 'Paid', operator: 'between', value: [1, 2] }],
			orderBy: 'Paid',
		}, { limit: -5 });
		expect(result.errors.map((error) => error.pointer)).toEqual([
			'/options/limit',
			'/queryConfig/filters/0/field',
			'/queryConfig/filters/1/operator',
			'/queryConfig/orderBy',
		]);
		for (const error of result.errors) expect(error.detail.length).toBeGreaterThan(10);
	});

	it('accepts empty lists of the unsupported features', () => {
		expect(run({ joins: [], virtualColumns: [], queryConfigs: [], directoryValidation: {} }).errors).toEqual([]);
	});

	it('does not know a field that neither the catalog nor any document has', () => {
		const withoutCatalog = executeQuery({ selectedFields: select('Purchase Order Number') }, {}, documents);
		expect(withoutCatalog.errors.map((error) => error.code)).toEqual(['UNKNOWN_FIELD']);
		expect(run({ selectedFields: select('Purchase Order Number') }).data).toHaveLength(5);
	});

	it('infers field types from the documents when there is no catalog', () => {
		const result = executeQuery({ filters: [{ field: 'Total Amount', operator: 'gt', value: 'x' }] }, {}, documents);
		expect(result.errors.map((error) => error.code)).toEqual(['INVALID_TYPE']);
		expect(ids(executeQuery({ filters: [{ field: 'Total Amount', operator: 'gt', value: 99 }] }, {}, documents))).toEqual(['inv-a', 'inv-b']);
	});

	it('never throws, whatever arrives', () => {
		const inputs: unknown[] = [null, 0, 'x', true, [], [{}], { filters: [null] }, { filterGroups: [[]] }, { selectedFields: [7] }, { orderBy: [{}] }, { aggregations: [{ function: 5 }] }, { groupBy: [{}] }, { filterGroups: [{ filters: 'x', groups: 3 }] }];
		for (const input of inputs) {
			expect(() => executeQuery(input, input, documents, catalog)).not.toThrow();
		}
		const deep: Record<string, unknown> = {};
		let cursor = deep;
		for (let depth = 0; depth < 50; depth++) {
			const child: Record<string, unknown> = {};
			cursor.groups = [child];
			cursor = child;
		}
		expect(executeQuery({ filterGroups: [deep] }, {}, documents).errors[0]).toMatchObject({ code: 'INVALID_VALUE' });
	});

	it('leaves the documents untouched', () => {
		const before = JSON.stringify(documents);
		run({ orderBy: [{ field: 'Total Amount', direction: 'DESC' }], groupBy: [], aggregations: [] });
		run({ groupBy: ['Vendor Name'], aggregations: [{ function: 'sum', field: 'Total Amount' }] });
		expect(JSON.stringify(documents)).toBe(before);
	});
});
