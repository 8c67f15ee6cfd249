/**
 * The emulator's query builder: POST /query/execute over extracted values.
 * The specification leaves the inner shapes of the queryConfig arrays open; the subset this
 * engine understands is written down in QUERY.md. An invalid configuration never throws: it
 * answers no data and `errors[]` with JSON Pointers into the request body.
 */

export interface QueryableDocument {
	fileId: string;
	fileName: string;
	fileTypeId: string;
	schemaId: string;
	directoryId: string | null;
	createdAt: string;
	updatedAt: string;
	/** Extracted values: field title -> value (a table is an array of row objects). */
	values: Record<string, unknown>;
}

export interface QueryError {
	code: string;
	detail: string;
	pointer?: string;
}

export interface QueryHeader {
	title: string;
	type: string;
}

export interface QueryResult {
	data: Record<string, unknown>[];
	headers: Record<string, QueryHeader>;
	rowCount: number;
	errors: QueryError[];
}

/**
 * What the workspace knows beyond its documents (optional): schema fields, so that a field
 * no document has filled yet is still known and typed, and the directory tree, so that
 * foldersContext takes in subdirectories.
 */
export interface QueryCatalog {
	fields?: Array<{ title: string; type: string; items?: unknown[] | null }>;
	directories?: Array<{ id: string; parentId?: string | null }>;
}

export const QUERY_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'in'] as const;
export const QUERY_AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export const FILE_ATTRIBUTES = ['fileId', 'fileName', 'fileTypeId', 'schemaId', 'directoryId', 'createdAt', 'updatedAt'] as const;

type Operator = (typeof QUERY_OPERATORS)[number];
type Aggregate = (typeof QUERY_AGGREGATES)[number];
type FileAttribute = (typeof FILE_ATTRIBUTES)[number];
type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'table' | 'object' | 'unknown';

const QUERY_CONFIG_KEYS = [
	'documentTypes', 'foldersContext', 'filters', 'filterGroups', 'selectedFields', 'aggregations', 'groupBy',
	'joins', 'orderBy', 'virtualColumns', 'queryConfigs', 'directoryValidation', 'headerOrder',
];
const UNSUPPORTED_CONFIG_KEYS = ['joins', 'virtualColumns', 'queryConfigs', 'directoryValidation'];
const OPTION_KEYS = ['limit', 'offset', 'fieldMetadata', 'skipCache'];
const MAX_GROUP_DEPTH = 10;
const HEX_ID = /^[0-9a-f]{24}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

type FieldRef =
	| { kind: 'attribute'; name: FileAttribute; title: string; type: FieldType }
	| { kind: 'value'; key: string; title: string; type: FieldType };

type Row = Record<string, unknown>;
type Predicate = (document: QueryableDocument) => boolean;

interface Column {
	alias: string;
	header: QueryHeader;
	read: (document: QueryableDocument) => unknown;
	field: FieldRef;
}

interface AggregationPlan {
	alias: string;
	aggregate: Aggregate;
	field: FieldRef | null;
	header: QueryHeader;
}

interface OrderPlan {
	/** For plain queries: reads the sort key from a document; for grouped queries: the output column. */
	readDocument?: (document: QueryableDocument) => unknown;
	column?: string;
	type: FieldType;
	descending: boolean;
}

function normaliseTitle(title: string): string {
	return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

function pointerSegment(segment: string | number): string {
	return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

function schemaTypeToFieldType(type: string, items: unknown[] | null | undefined): FieldType {
	switch (type.toUpperCase()) {
		case 'STRING':
			return 'string';
		case 'NUMBER':
			return 'number';
		case 'BOOLEAN':
			return 'boolean';
		case 'DATE':
			return 'date';
		case 'OBJECT':
			return Array.isArray(items) && items.length > 0 ? 'table' : 'object';
		default:
			return 'unknown';
	}
}

function valueType(value: unknown): FieldType | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (typeof value === 'string') return ISO_DATE.test(value) ? 'date' : 'string';
	if (Array.isArray(value)) return 'table';
	return 'object';
}

function mergeTypes(known: FieldType | undefined, next: FieldType): FieldType {
	if (known === undefined || known === next) return next;
	if ((known === 'date' && next === 'string') || (known === 'string' && next === 'date')) return 'string';
	return 'unknown';
}

/** Field titles and types known to the query: the catalog's schema fields, then the documents' values. */
export class FieldDirectory {
	private readonly titles = new Map<string, string>();
	private readonly types = new Map<string, FieldType>();
	private readonly lowerCaseValues = new WeakMap<QueryableDocument, Map<string, unknown>>();

	constructor(documents: QueryableDocument[], catalog: QueryCatalog) {
		const catalogTypes = new Map<string, FieldType>();
		for (const field of catalog.fields ?? []) {
			if (typeof field?.title !== 'string' || typeof field.type !== 'string') continue;
			const key = normaliseTitle(field.title);
			if (!this.titles.has(key)) this.titles.set(key, field.title.trim());
			catalogTypes.set(key, mergeTypes(catalogTypes.get(key), schemaTypeToFieldType(field.type, field.items)));
		}
		const inferredTypes = new Map<string, FieldType>();
		for (const document of documents) {
			for (const [title, value] of Object.entries(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!this.titles.has(key)) this.titles.set(key, title.trim());
				const type = valueType(value);
				if (type) inferredTypes.set(key, mergeTypes(inferredTypes.get(key), type));
			}
		}
		for (const key of this.titles.keys()) this.types.set(key, catalogTypes.get(key) ?? inferredTypes.get(key) ?? 'unknown');
	}

	resolve(name: string): FieldRef | undefined {
		if ((FILE_ATTRIBUTES as readonly string[]).includes(name)) {
			const attribute = name as FileAttribute;
			const type: FieldType = attribute === 'createdAt' || attribute === 'updatedAt' ? 'datetime' : 'string';
			return { kind: 'attribute', name: attribute, title: attribute, type };
		}
		const key = normaliseTitle(name);
		const title = this.titles.get(key);
		if (title === undefined) return undefined;
		return { kind: 'value', key, title, type: this.types.get(key) ?? 'unknown' };
	}

	read(document: QueryableDocument, field: FieldRef): unknown {
		if (field.kind === 'attribute') return document[field.name] ?? null;
		let values = this.lowerCaseValues.get(document);
		if (!values) {
			values = new Map();
			for (const [title, value] of Object.entries(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!values.has(key)) values.set(key, value);
			}
			this.lowerCaseValues.set(document, values);
		}
		const value = values.get(field.key);
		return value === undefined ? null : value;
	}

	/** Value titles in order of first appearance among `documents`. */
	titlesOf(documents: QueryableDocument[]): string[] {
		const seen = new Map<string, string>();
		for (const document of documents) {
			for (const title of Object.keys(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!seen.has(key)) seen.set(key, this.titles.get(key) ?? title);
			}
		}
		return [...seen.values()];
	}
}

function headerType(type: FieldType): string {
	return type === 'unknown' ? 'string' : type;
}

/** Orders two values: numbers, strings, booleans compare within their kind; null sorts last. */
function compareForSort(left: unknown, right: unknown, type: FieldType): number {
	const leftMissing = left === null || left === undefined;
	const rightMissing = right === null || right === undefined;
	if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
	const comparison = compareValues(left, right, type);
	if (comparison !== undefined) return comparison;
	const rank = (value: unknown) => ['number', 'string', 'boolean'].indexOf(typeof value) + 1 || 4;
	return rank(left) - rank(right);
}

/** -1/0/1 for two comparable values, undefined when they are of different kinds. */
function compareValues(left: unknown, right: unknown, type: FieldType): number | undefined {
	if (type === 'datetime' && typeof left === 'string' && typeof right === 'string') {
		const leftTime = Date.parse(left);
		const rightTime = Date.parse(right);
		if (Number.isNaN(leftTime) || Number.isNaN(rightTime)) return undefined;
		return Math.sign(leftTime - rightTime);
	}
	if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
	if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
	if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
	return undefined;
}

function sameValue(left: unknown, right: unknown, type: FieldType): boolean {
	if ((left === null || left === undefined) && right === null) return true;
	return compareValues(left, right, type) === 0;
}

class QueryCompiler {
	readonly errors: QueryError[] = [];

	constructor(private readonly fields: FieldDirectory) {}

	error(code: string, detail: string, pointer: string): void {
		this.errors.push({ code, detail, pointer });
	}

	/** An optional array property; undefined when absent or not an array (the latter reported). */
	array(container: Record<string, unknown>, key: string, pointer: string): unknown[] | undefined {
		const value = container[key];
		if (value === undefined || value === null) return undefined;
		if (!Array.isArray(value)) {
			this.error('INVALID_TYPE', `${key} must be an array, got ${jsonType(value)}`, `${pointer}/${key}`);
			return undefined;
		}
		return value;
	}

	/** An object entry with only `allowed` keys; undefined (reported) otherwise. */
	entry(value: unknown, allowed: string[], what: string, pointer: string): Record<string, unknown> | undefined {
		if (!isRecord(value)) {
			this.error('INVALID_TYPE', `${what} must be an object, got ${jsonType(value)}`, pointer);
			return undefined;
		}
		for (const key of Object.keys(value)) {
			if (!allowed.includes(key)) {
				this.error('UNKNOWN_PROPERTY', `${what} has no property "${key}"; allowed: ${allowed.join(', ')}`, `${pointer}/${pointerSegment(key)}`);
			}
		}
		return value;
	}

	requiredString(container: Record<string, unknown>, key: string, pointer: string): string | undefined {
		const value = container[key];
		if (value === undefined || value === null) {
			this.error('REQUIRED', `${key} is required`, `${pointer}/${key}`);
			return undefined;
		}
		if (typeof value !== 'string' || value.trim() === '') {
			this.error('INVALID_TYPE', `${key} must be a non-empty string, got ${jsonType(value)}`, `${pointer}/${key}`);
			return undefined;
		}
		return value;
	}

	optionalString(container: Record<string, unknown>, key: string, pointer: string): string | undefined {
		if (container[key] === undefined || container[key] === null) return undefined;
		return this.requiredString(container, key, pointer);
	}

	field(name: string, pointer: string): FieldRef | undefined {
		const field = this.fields.resolve(name);
		if (!field) {
			this.error('UNKNOWN_FIELD', `"${name}" is neither a file attribute (${FILE_ATTRIBUTES.join(', ')}) nor an extracted field title`, pointer);
		}
		return field;
	}

	ids(config: Record<string, unknown>, key: string, what: string): Set<string> | undefined {
		const list = this.array(config, key, '/queryConfig');
		if (!list) return undefined;
		const ids = new Set<string>();
		list.forEach((id, index) => {
			if (typeof id !== 'string' || !HEX_ID.test(id)) {
				this.error('INVALID_VALUE', `${key} entries must be ${what} ids (24 hexadecimal characters)`, `/queryConfig/${key}/${index}`);
			} else {
				ids.add(id.toLowerCase());
			}
		});
		return list.length > 0 ? ids : undefined;
	}

	/** Checks `value` against the operator and field type; a predicate value test, or undefined. */
	filter(raw: unknown, pointer: string): Predicate | undefined {
		const filter = this.entry(raw, ['field', 'operator', 'value'], 'a filter', pointer);
		if (!filter) return undefined;
		const name = this.requiredString(filter, 'field', pointer);
		const operatorName = this.requiredString(filter, 'operator', pointer);
		const field = name === undefined ? undefined : this.field(name, `${pointer}/field`);
		let operator: Operator | undefined;
		if (operatorName !== undefined) {
			operator = QUERY_OPERATORS.find((candidate) => candidate === operatorName.toLowerCase());
			if (!operator) this.error('UNKNOWN_OPERATOR', `operator "${operatorName}" is not one of ${QUERY_OPERATORS.join(', ')}`, `${pointer}/operator`);
		}
		if (!('value' in filter)) this.error('REQUIRED', 'value is required (null is allowed with eq and ne)', `${pointer}/value`);
		if (!field || !operator || !('value' in filter)) return undefined;
		return this.predicate(field, operator, filter.value, pointer);
	}

	private predicate(field: FieldRef, operator: Operator, value: unknown, pointer: string): Predicate | undefined {
		const type = field.type;
		const valuePointer = `${pointer}/value`;
		const unsupported = () => {
			this.error('UNSUPPORTED_OPERATOR', `operator ${operator} does not apply to the ${type} field "${field.title}"`, `${pointer}/operator`);
			return undefined;
		};
		const read = (document: QueryableDocument) => this.fields.read(document, field);

		if (operator === 'in') {
			if (type === 'table' || type === 'object') return unsupported();
			if (!Array.isArray(value)) {
				this.error('INVALID_TYPE', `operator in needs an array value, got ${jsonType(value)}`, valuePointer);
				return undefined;
			}
			const valid = value.every((element, index) => this.operand(field, element, true, `${valuePointer}/${index}`));
			if (!valid) return undefined;
			return (document) => value.some((element) => sameValue(read(document), element, type));
		}
		if (operator === 'contains') {
			if (type !== 'string' && type !== 'unknown') return unsupported();
			if (typeof value !== 'string') {
				this.error('INVALID_TYPE', `operator contains needs a string value, got ${jsonType(value)}`, valuePointer);
				return undefined;
			}
			const needle = value.toLowerCase();
			return (document) => {
				const actual = read(document);
				return typeof actual === 'string' && actual.toLowerCase().includes(needle);
			};
		}
		if (operator === 'eq' || operator === 'ne') {
			if ((type === 'table' || type === 'object') && value !== null) {
				this.error('INVALID_VALUE', `the ${type} field "${field.title}" can only be compared with null`, valuePointer);
				return undefined;
			}
			if (!this.operand(field, value, true, valuePointer)) return undefined;
			const equal = (document: QueryableDocument) => {
				const actual = read(document);
				return value === null ? actual === null : sameValue(actual, value, type);
			};
			return operator === 'eq' ? equal : (document) => !equal(document);
		}
		if (type === 'boolean' || type === 'table' || type === 'object') return unsupported();
		if (value === null) {
			this.error('INVALID_TYPE', `operator ${operator} needs a value, got null`, valuePointer);
			return undefined;
		}
		if (!this.operand(field, value, false, valuePointer)) return undefined;
		const accepts: Record<string, (comparison: number) => boolean> = {
			gt: (comparison) => comparison > 0,
			gte: (comparison) => comparison >= 0,
			lt: (comparison) => comparison < 0,
			lte: (comparison) => comparison <= 0,
		};
		return (document) => {
			const comparison = compareValues(read(document), value, type);
			return comparison !== undefined && accepts[operator](comparison);
		};
	}

	/** Whether one comparison operand suits the field's type (reported when not). */
	private operand(field: FieldRef, value: unknown, nullAllowed: boolean, pointer: string): boolean {
		if (value === null) {
			if (nullAllowed) return true;
			this.error('INVALID_TYPE', 'null is not allowed here', pointer);
			return false;
		}
		const fail = (expected: string) => {
			this.error('INVALID_TYPE', `"${field.title}" is a ${field.type} field: expected ${expected}, got ${jsonType(value)} ${JSON.stringify(value)}`, pointer);
			return false;
		};
		switch (field.type) {
			case 'number':
				return typeof value === 'number' && Number.isFinite(value) ? true : fail('a number');
			case 'boolean':
				return typeof value === 'boolean' ? true : fail('true or false');
			case 'string':
				return typeof value === 'string' ? true : fail('a string');
			case 'date':
				return typeof value === 'string' && ISO_DATE.test(value) ? true : fail('a date YYYY-MM-DD');
			case 'datetime':
				return typeof value === 'string' && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value)) ? true : fail('an ISO 8601 timestamp');
			default:
				return ['string', 'number', 'boolean'].includes(typeof value) ? true : fail('a string, number or boolean');
		}
	}

	group(raw: unknown, pointer: string, depth: number): Predicate | undefined {
		const group = this.entry(raw, ['operator', 'filters', 'groups'], 'a filter group', pointer);
		if (!group) return undefined;
		if (depth > MAX_GROUP_DEPTH) {
			this.error('INVALID_VALUE', `filter groups nest at most ${MAX_GROUP_DEPTH} levels`, pointer);
			return undefined;
		}
		let combinator: 'AND' | 'OR' = 'AND';
		if (group.operator !== undefined) {
			if (typeof group.operator === 'string' && ['AND', 'OR'].includes(group.operator.toUpperCase())) {
				combinator = group.operator.toUpperCase() as 'AND' | 'OR';
			} else {
				this.error('UNKNOWN_OPERATOR', `a filter group's operator is AND or OR, got ${JSON.stringify(group.operator)}`, `${pointer}/operator`);
			}
		}
		const parts: Array<Predicate | undefined> = [
			...(this.array(group, 'filters', pointer) ?? []).map((filter, index) => this.filter(filter, `${pointer}/filters/${index}`)),
			...(this.array(group, 'groups', pointer) ?? []).map((child, index) => this.group(child, `${pointer}/groups/${index}`, depth + 1)),
		];
		if (parts.some((part) => part === undefined)) return undefined;
		const predicates = parts as Predicate[];
		if (predicates.length === 0) return () => true;
		return combinator === 'AND'
			? (document) => predicates.every((predicate) => predicate(document))
			: (document) => predicates.some((predicate) => predicate(document));
	}
}

function integerOption(compiler: QueryCompiler, options: Record<string, unknown>, key: string, minimum: number): number | undefined {
	const value = options[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
		compiler.error('INVALID_VALUE', `${key} must be an integer of at least ${minimum}, got ${JSON.stringify(value)}`, `/options/${key}`);
		return undefined;
	}
	return value;
}

function failed(errors: QueryError[]): QueryResult {
	return { data: [], headers: {}, rowCount: 0, errors };
}

/**
 * Runs a query-builder configuration over `documents` (the workspace's processed files).
 * See QUERY.md for the accepted shapes. Never throws for a bad configuration.
 */
export function executeQuery(queryConfig: unknown, options: unknown, documents: QueryableDocument[], catalog: QueryCatalog = {}): QueryResult {
	return executePreparedQuery(queryConfig, options, prepareQueryDataset(documents, catalog));
}

/**
 * Documents and catalog with their field directory built once, so that many queries over the
 * same unchanged data (the emulator caches one per workspace and data version) skip that work.
 * The documents must not change while the dataset is in use.
 */
export interface QueryDataset {
	readonly documents: QueryableDocument[];
	readonly catalog: QueryCatalog;
	readonly fields: FieldDirectory;
}

export function prepareQueryDataset(documents: QueryableDocument[], catalog: QueryCatalog = {}): QueryDataset {
	return { documents, catalog, fields: new FieldDirectory(documents, catalog) };
}

/** executeQuery over a prepared dataset: the same answers. */
export function executePreparedQuery(queryConfig: unknown, options: unknown, dataset: QueryDataset): QueryResult {
	const { documents, catalog, fields } = dataset;
	const compiler = new QueryCompiler(fields);

	if (queryConfig === undefined || queryConfig === null) return failed([{ code: 'REQUIRED', detail: 'queryConfig is required', pointer: '/queryConfig' }]);
	const config = compiler.entry(queryConfig, QUERY_CONFIG_KEYS, 'queryConfig', '/queryConfig');
	if (!config) return failed(compiler.errors);
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

	if (compiler.errors.length > 0) return failed(compiler.errors);

	// Run
	const filters = predicates as Predicate[];
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

function sameField(left: FieldRef, right: FieldRef): boolean {
	if (left.kind === 'attribute' && right.kind === 'attribute') return left.name === right.name;
	if (left.kind === 'value' && right.kind === 'value') return left.key === right.key;
	return false;
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

function compareByPlans<T>(plans: OrderPlan[], read: (plan: OrderPlan, item: T) => unknown, left: T, right: T): number {
	for (const plan of plans) {
		const leftValue = read(plan, left);
		const rightValue = read(plan, right);
		const leftMissing = leftValue === null || leftValue === undefined;
		const rightMissing = rightValue === null || rightValue === undefined;
		// nulls last in both directions
		const comparison = leftMissing || rightMissing ? compareForSort(leftValue, rightValue, plan.type) : compareForSort(leftValue, rightValue, plan.type) * (plan.descending ? -1 : 1);
		if (comparison !== 0) return comparison;
	}
	return 0;
}

function stableSort<T>(items: T[], compare: (left: T, right: T) => number): T[] {
	return items
		.map((item, index) => ({ item, index }))
		.sort((left, right) => compare(left.item, right.item) || left.index - right.index)
		.map(({ item }) => item);
}
