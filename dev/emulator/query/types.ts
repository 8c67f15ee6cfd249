/** The query engine's types: what it reads (documents, catalog), what it answers, and the plan it builds. */

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

export type Operator = (typeof QUERY_OPERATORS)[number];
export type Aggregate = (typeof QUERY_AGGREGATES)[number];
export type FileAttribute = (typeof FILE_ATTRIBUTES)[number];
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'table' | 'object' | 'unknown';

export type FieldRef =
	| { kind: 'attribute'; name: FileAttribute; title: string; type: FieldType }
	| { kind: 'value'; key: string; title: string; type: FieldType };

export type Row = Record<string, unknown>;
export type Predicate = (document: QueryableDocument) => boolean;

export interface Column {
	alias: string;
	header: QueryHeader;
	read: (document: QueryableDocument) => unknown;
	field: FieldRef;
}

export interface AggregationPlan {
	alias: string;
	aggregate: Aggregate;
	field: FieldRef | null;
	header: QueryHeader;
}

export interface OrderPlan {
	/** For plain queries: reads the sort key from a document; for grouped queries: the output column. */
	readDocument?: (document: QueryableDocument) => unknown;
	column?: string;
	type: FieldType;
	descending: boolean;
}
