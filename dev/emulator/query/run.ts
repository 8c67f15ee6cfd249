/** Runs a query plan over the dataset's documents: scope and filters, then rows (grouped and aggregated, or one a document), order, header order, the page. */
import { compareByPlans, compareForSort, compareValues, stableSort } from './compare';
import { headerType, type FieldDirectory, type QueryDataset } from './fields';
import type { QueryPlan } from './plan';
import type { AggregationPlan, Column, FieldRef, OrderPlan, QueryError, QueryHeader, QueryResult, QueryableDocument, Row } from './types';

/** The answer to an invalid query: no data, the errors. */
export function failed(errors: QueryError[]): QueryResult {
	return { data: [], headers: {}, rowCount: 0, errors };
}

export function runPlan(query: QueryPlan, dataset: QueryDataset): QueryResult {
	const { documents, fields } = dataset;
	const { limit, offset, documentTypes, folders, filters, columns, groupBy, aggregations, grouped, orders, headerOrder } = query;
	const matching = documents.filter(
		(document) =>
			(!documentTypes || documentTypes.has(String(document.fileTypeId).toLowerCase())) &&
			(!folders || (document.directoryId !== null && folders.has(String(document.directoryId).toLowerCase()))) &&
			filters.every((predicate) => predicate(document)),
	);

	let rows: Row[];
	let headers: Record<string, QueryHeader>;
	if (grouped) {
		({ rows, headers } = aggregate(matching, groupBy, aggregations, fields));
		const groupOrders: OrderPlan[] = [...orders, ...groupBy.map((column) => ({ column: column.alias, type: column.field.type, descending: false }))];
		rows = stableSort(rows, (left, right) => compareByPlans(groupOrders, (plan, row) => row[plan.column as string], left, right));
	} else {
		const output = columns.length > 0 ? columns : defaultColumns(matching, fields);
		const sorted = stableSort(matching, (left, right) =>
			compareByPlans(orders, (plan, document) => (plan.readDocument as (document: QueryableDocument) => unknown)(document), left, right) ||
			compareForSort(left.createdAt, right.createdAt, 'datetime') ||
			compareForSort(left.fileId, right.fileId, 'string'),
		);
		rows = sorted.map((document) => Object.fromEntries(output.map((column) => [column.alias, column.read(document)])));
		headers = Object.fromEntries(output.map((column) => [column.alias, column.header]));
	}

	const headerErrors: QueryError[] = [];
	headerOrder.forEach((alias, index) => {
		if (typeof alias !== 'string' || !(alias in headers)) {
			headerErrors.push({ code: 'UNKNOWN_ALIAS', detail: `headerOrder names ${JSON.stringify(alias)}, which is not a column (${Object.keys(headers).join(', ')})`, pointer: `/queryConfig/headerOrder/${index}` });
		}
	});
	if (headerErrors.length > 0) return failed(headerErrors);
	const keyOrder = [...new Set([...(headerOrder as string[]), ...Object.keys(headers)])];

	const page = rows.slice(offset, limit === undefined ? undefined : offset + limit);
	const data = page.map((row) => Object.fromEntries(keyOrder.map((key) => [key, row[key] === undefined ? null : row[key]])));
	return { data, headers: Object.fromEntries(keyOrder.map((key) => [key, headers[key]])), rowCount: data.length, errors: [] };
}

function defaultColumns(documents: QueryableDocument[], fields: FieldDirectory): Column[] {
	const names = ['fileId', 'fileName', 'fileTypeId', 'directoryId', 'createdAt', 'updatedAt', ...fields.titlesOf(documents)];
	const columns: Column[] = [];
	for (const name of names) {
		const field = fields.resolve(name) as FieldRef;
		if (columns.some((column) => column.alias === field.title)) continue;
		columns.push({ alias: field.title, field, header: { title: field.title, type: headerType(field.type) }, read: (document) => fields.read(document, field) });
	}
	return columns;
}

function aggregate(documents: QueryableDocument[], groupBy: Column[], plans: AggregationPlan[], fields: FieldDirectory) {
	const groups = new Map<string, QueryableDocument[]>();
	for (const document of documents) {
		const key = JSON.stringify(groupBy.map((column) => column.read(document)));
		const members = groups.get(key);
		if (members) members.push(document);
		else groups.set(key, [document]);
	}
	// Without groupBy, aggregations summarise every matching document in one row, even none.
	if (groupBy.length === 0 && groups.size === 0) groups.set('[]', []);

	const rows: Row[] = [];
	for (const members of groups.values()) {
		const row: Row = {};
		for (const column of groupBy) row[column.alias] = members.length > 0 ? column.read(members[0]) : null;
		for (const plan of plans) {
			const values = plan.field ? members.map((document) => fields.read(document, plan.field as FieldRef)).filter((value) => value !== null) : members;
			row[plan.alias] = summarise(plan, values);
		}
		rows.push(row);
	}
	const headers: Record<string, QueryHeader> = {};
	for (const column of groupBy) headers[column.alias] = column.header;
	for (const plan of plans) headers[plan.alias] = plan.header;
	return { rows, headers };
}

function summarise(plan: AggregationPlan, values: unknown[]): unknown {
	if (plan.aggregate === 'count') return values.length;
	if (plan.aggregate === 'sum' || plan.aggregate === 'avg') {
		const numbers = values.filter((value): value is number => typeof value === 'number');
		if (numbers.length === 0) return null;
		const sum = numbers.reduce((total, value) => total + value, 0);
		return plan.aggregate === 'sum' ? sum : sum / numbers.length;
	}
	const type = plan.field?.type ?? 'unknown';
	let best: unknown = null;
	for (const value of values) {
		if (typeof value !== 'number' && typeof value !== 'string') continue;
		if (best === null) {
			best = value;
			continue;
		}
		const comparison = compareValues(value, best, type);
		if (comparison === undefined) continue;
		if (plan.aggregate === 'min' ? comparison < 0 : comparison > 0) best = value;
	}
	return best;
}
