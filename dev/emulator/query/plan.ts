/**
 * A query configuration read into a plan: scope (file types, folders with their subfolders),
 * filters, selected columns, grouping, aggregations, order and header order; or the errors that
 * make it invalid, every one of them, each with its JSON Pointer.
 */
import { QueryCompiler, integerOption, isRecord, jsonType } from './compiler';
import { headerType, sameField, type QueryDataset } from './fields';
import { QUERY_AGGREGATES, type AggregationPlan, type Column, type OrderPlan, type Predicate, type QueryError } from './types';

const QUERY_CONFIG_KEYS = [
	'documentTypes', 'foldersContext', 'filters', 'filterGroups', 'selectedFields', 'aggregations', 'groupBy',
	'joins', 'orderBy', 'virtualColumns', 'queryConfigs', 'directoryValidation', 'headerOrder',
];
const UNSUPPORTED_CONFIG_KEYS = ['joins', 'virtualColumns', 'queryConfigs', 'directoryValidation'];
const OPTION_KEYS = ['limit', 'offset', 'fieldMetadata', 'skipCache'];

export interface QueryPlan {
	limit: number | undefined;
	offset: number;
	/** File type ids (lower case); undefined: every type. */
	documentTypes: Set<string> | undefined;
	/** Directory ids with their subdirectories (lower case); undefined: every folder. */
	folders: Set<string> | undefined;
	/** Every one must hold. */
	filters: Predicate[];
	columns: Column[];
	groupBy: Column[];
	aggregations: AggregationPlan[];
	/** Whether the query groups or aggregates. */
	grouped: boolean;
	orders: OrderPlan[];
	headerOrder: unknown[];
}

/** The plan of a query configuration over `dataset`, or the errors that make it invalid. */
export function planQuery(queryConfig: unknown, options: unknown, dataset: QueryDataset): QueryPlan | QueryError[] {
	const { catalog, fields } = dataset;
	const compiler = new QueryCompiler(fields);


	if (queryConfig === undefined || queryConfig === null) return [{ code: 'REQUIRED', detail: 'queryConfig is required', pointer: '/queryConfig' }];
	const config = compiler.entry(queryConfig, QUERY_CONFIG_KEYS, 'queryConfig', '/queryConfig');
	if (!config) return compiler.errors;
	let optionValues: Record<string, unknown> = {};
	if (options !== undefined && options !== null) optionValues = compiler.entry(options, OPTION_KEYS, 'options', '/options') ?? {};

	for (const key of UNSUPPORTED_CONFIG_KEYS) {
		const value = config[key];
		const empty = value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);
		if (!empty) compiler.error('UNSUPPORTED', `${key} is not supported by this service emulator`, `/queryConfig/${key}`);
	}

	const limit = integerOption(compiler, optionValues, 'limit', 1);
	const offset = integerOption(compiler, optionValues, 'offset', 0) ?? 0;
	if (optionValues.skipCache !== undefined && typeof optionValues.skipCache !== 'boolean') {
		compiler.error('INVALID_TYPE', `skipCache must be a boolean, got ${jsonType(optionValues.skipCache)}`, '/options/skipCache');
	}
	if (optionValues.fieldMetadata !== undefined && !isRecord(optionValues.fieldMetadata)) {
		compiler.error('INVALID_TYPE', `fieldMetadata must be an object, got ${jsonType(optionValues.fieldMetadata)}`, '/options/fieldMetadata');
	}

	// Scope
	const documentTypes = compiler.ids(config, 'documentTypes', 'file type');
	let folders = compiler.ids(config, 'foldersContext', 'directory');
	if (folders) folders = withSubdirectories(folders, catalog.directories ?? []);

	// Filters: every top-level filter and every top-level group must hold.
	const predicates: Array<Predicate | undefined> = [
		...(compiler.array(config, 'filters', '/queryConfig') ?? []).map((filter, index) => compiler.filter(filter, `/queryConfig/filters/${index}`)),
		...(compiler.array(config, 'filterGroups', '/queryConfig') ?? []).map((group, index) => compiler.group(group, `/queryConfig/filterGroups/${index}`, 1)),
	];

	// Selection
	const columns: Column[] = [];
	const aliases = new Set<string>();
	const claimAlias = (alias: string, pointer: string) => {
		if (aliases.has(alias)) {
			compiler.error('DUPLICATE_ALIAS', `the alias "${alias}" is used twice`, pointer);
			return false;
		}
		aliases.add(alias);
		return true;
	};
	const selected = compiler.array(config, 'selectedFields', '/queryConfig') ?? [];
	selected.forEach((raw, index) => {
		const pointer = `/queryConfig/selectedFields/${index}`;
		const entry = compiler.entry(raw, ['field', 'alias'], 'a selected field', pointer);
		if (!entry) return;
		const name = compiler.requiredString(entry, 'field', pointer);
		const alias = compiler.optionalString(entry, 'alias', pointer) ?? name;
		const field = name === undefined ? undefined : compiler.field(name, `${pointer}/field`);
		if (!field || alias === undefined || !claimAlias(alias, `${pointer}/alias`)) return;
		columns.push({ alias, field, header: { title: field.title, type: headerType(field.type) }, read: (document) => fields.read(document, field) });
	});

	// Grouping and aggregation
	const groupBy: Column[] = [];
	const groupList = compiler.array(config, 'groupBy', '/queryConfig') ?? [];
	groupList.forEach((name, index) => {
		const pointer = `/queryConfig/groupBy/${index}`;
		if (typeof name !== 'string' || name.trim() === '') {
			compiler.error('INVALID_TYPE', `groupBy entries are field names or selected aliases, got ${jsonType(name)}`, pointer);
			return;
		}
		const byAlias = columns.find((column) => column.alias === name);
		const field = byAlias?.field ?? compiler.field(name, pointer);
		if (!field) return;
		const byField = byAlias ?? columns.find((column) => sameField(column.field, field));
		if (groupBy.some((column) => sameField(column.field, field))) {
			compiler.error('DUPLICATE_ALIAS', `"${name}" is grouped twice`, pointer);
			return;
		}
		if (!byField && !claimAlias(name, pointer)) return;
		groupBy.push(byField ?? { alias: name, field, header: { title: field.title, type: headerType(field.type) }, read: (document) => fields.read(document, field) });
	});

	const aggregations: AggregationPlan[] = [];
	(compiler.array(config, 'aggregations', '/queryConfig') ?? []).forEach((raw, index) => {
		const pointer = `/queryConfig/aggregations/${index}`;
		const entry = compiler.entry(raw, ['function', 'field', 'alias'], 'an aggregation', pointer);
		if (!entry) return;
		const functionName = compiler.requiredString(entry, 'function', pointer);
		const aggregate = QUERY_AGGREGATES.find((candidate) => candidate === functionName?.toLowerCase());
		if (functionName !== undefined && !aggregate) {
			compiler.error('UNKNOWN_FUNCTION', `function "${functionName}" is not one of ${QUERY_AGGREGATES.join(', ')}`, `${pointer}/function`);
		}
		let fieldName: string | undefined;
		if (aggregate === 'count') fieldName = compiler.optionalString(entry, 'field', pointer);
		else if (aggregate) fieldName = compiler.requiredString(entry, 'field', pointer);
		if (fieldName === '*') fieldName = aggregate === 'count' ? undefined : fieldName;
		const field = fieldName === undefined ? null : compiler.field(fieldName, `${pointer}/field`) ?? undefined;
		if (!aggregate || field === undefined) return;
		if (field && (aggregate === 'sum' || aggregate === 'avg') && !['number', 'unknown'].includes(field.type)) {
			compiler.error('INVALID_TYPE', `${aggregate} needs a number field; "${field.title}" is a ${field.type} field`, `${pointer}/field`);
			return;
		}
		if (field && (aggregate === 'min' || aggregate === 'max') && ['boolean', 'table', 'object'].includes(field.type)) {
			compiler.error('INVALID_TYPE', `${aggregate} does not apply to the ${field.type} field "${field.title}"`, `${pointer}/field`);
			return;
		}
		const defaultAlias = field ? `${aggregate}_${field.title}` : 'count';
		const alias = compiler.optionalString(entry, 'alias', pointer) ?? defaultAlias;
		if (!claimAlias(alias, `${pointer}/alias`)) return;
		const type = aggregate === 'min' || aggregate === 'max' ? headerType(field?.type ?? 'unknown') : 'number';
		aggregations.push({ alias, aggregate, field, header: { title: `${aggregate.toUpperCase()}(${field ? field.title : '*'})`, type } });
	});

	const grouped = aggregations.length > 0 || groupBy.length > 0;
	if (grouped) {
		columns.forEach((column, index) => {
			if (!groupBy.includes(column)) {
				compiler.error('NOT_GROUPED', `"${column.alias}" must appear in groupBy when the query aggregates or groups`, `/queryConfig/selectedFields/${index}`);
			}
		});
	}

	// Ordering
	const outputColumns = grouped ? [...groupBy.map((column) => column.alias), ...aggregations.map((plan) => plan.alias)] : [];
	const orders: OrderPlan[] = [];
	(compiler.array(config, 'orderBy', '/queryConfig') ?? []).forEach((raw, index) => {
		const pointer = `/queryConfig/orderBy/${index}`;
		const entry = compiler.entry(raw, ['field', 'alias', 'direction'], 'an orderBy entry', pointer);
		if (!entry) return;
		let descending = false;
		if (entry.direction !== undefined) {
			if (typeof entry.direction === 'string' && ['ASC', 'DESC'].includes(entry.direction.toUpperCase())) {
				descending = entry.direction.toUpperCase() === 'DESC';
			} else {
				compiler.error('INVALID_VALUE', `direction is ASC or DESC, got ${JSON.stringify(entry.direction)}`, `${pointer}/direction`);
			}
		}
		if ((entry.field === undefined) === (entry.alias === undefined)) {
			compiler.error('REQUIRED', 'an orderBy entry names exactly one of field or alias', pointer);
			return;
		}
		const byAlias = entry.alias !== undefined;
		const name = byAlias ? compiler.requiredString(entry, 'alias', pointer) : compiler.requiredString(entry, 'field', pointer);
		if (name === undefined) return;
		const namePointer = `${pointer}/${byAlias ? 'alias' : 'field'}`;
		if (grouped) {
			const groupColumn = groupBy.find((column) => column.alias === name);
			const aggregation = aggregations.find((plan) => plan.alias === name);
			if (groupColumn || aggregation) {
				const type = groupColumn ? groupColumn.field.type : aggregation?.aggregate === 'min' || aggregation?.aggregate === 'max' ? aggregation.field?.type ?? 'unknown' : 'number';
				orders.push({ column: name, type, descending });
				return;
			}
			const field = byAlias ? undefined : fields.resolve(name);
			const byField = field && groupBy.find((column) => sameField(column.field, field));
			if (byField) orders.push({ column: byField.alias, type: byField.field.type, descending });
			else compiler.error(byAlias ? 'UNKNOWN_ALIAS' : 'NOT_GROUPED', `"${name}" is not a column of this grouped query (${outputColumns.join(', ')})`, namePointer);
			return;
		}
		const column = columns.find((candidate) => candidate.alias === name);
		if (byAlias && !column) {
			compiler.error('UNKNOWN_ALIAS', `"${name}" is not the alias of a selected field`, namePointer);
			return;
		}
		const field = column?.field ?? compiler.field(name, namePointer);
		if (field) orders.push({ readDocument: (document) => fields.read(document, field), type: field.type, descending });
	});

	const headerOrder = compiler.array(config, 'headerOrder', '/queryConfig') ?? [];
	if (compiler.errors.length > 0) return compiler.errors;
	return { limit, offset, documentTypes, folders, filters: predicates as Predicate[], columns, groupBy, aggregations, grouped, orders, headerOrder };
}

function withSubdirectories(roots: Set<string>, directories: Array<{ id: string; parentId?: string | null }>): Set<string> {
	const result = new Set(roots);
	let grew = true;
	while (grew) {
		grew = false;
		for (const directory of directories) {
			const id = String(directory.id).toLowerCase();
			if (directory.parentId && result.has(String(directory.parentId).toLowerCase()) && !result.has(id)) {
				result.add(id);
				grew = true;
			}
		}
	}
	return result;
}
