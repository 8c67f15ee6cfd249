import type { IDataObject } from 'n8n-workflow';

import { uniqueNames } from '../uniqueNames';

/**
 * A file's fields as the node reads them, from a file type's schema field definitions
 * (`currentSchemaVersion.fields`) or from a file's values (`formValues[].fields`): the one reading
 * that the editor's field mapper, Update Values' checks and the converter share
 * (docs/dev/api-contract.md#schema-fields-and-their-kinds).
 */

/** What a field holds. A table is an OBJECT with child fields (`items`), its columns. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'table' | 'other';

export interface SchemaField {
	/** Unique among its list: the title, or "Title (2)" for a repeated one (as Simplify names them). */
	name: string;
	title: string;
	kind: FieldKind;
	/** The allowed values of a choice field; empty for free text. */
	enumValues: string[];
	hidden: boolean;
	readOnly: boolean;
	/** Another field of the list has the same title: a write, which names fields by title, cannot tell them apart. */
	repeated: boolean;
	/** A table's columns (never themselves tables: a column with child fields reads as an object). */
	columns: SchemaField[];
	/** The value a file holds for the field, as the service sent it (read from a file's values; absent for a file type's definitions). */
	current?: unknown;
}

const KINDS: Readonly<Record<string, FieldKind>> = {
	STRING: 'string',
	NUMBER: 'number',
	BOOLEAN: 'boolean',
	DATE: 'date',
	OBJECT: 'object',
};

function isRecord(value: unknown): value is IDataObject {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** The kind of a field from its `type` (upper case in definitions, lower case in values) and `items`. */
export function fieldKind(type: unknown, items: unknown, tablesAllowed = true): FieldKind {
	const kind = typeof type === 'string' ? (KINDS[type.trim().toUpperCase()] ?? 'other') : 'other';
	if (kind === 'object' && tablesAllowed && Array.isArray(items) && items.some(isRecord)) return 'table';
	return kind;
}

/**
 * Whether the service fills a field and a client may not write it. The specification has no such
 * attribute; our choice, kept here only: `readOnly: true` on a schema field definition or on a
 * file's value field (docs/dev/api-contract.md#read-only-fields).
 */
export function isReadOnlyField(field: IDataObject): boolean {
	return field.readOnly === true;
}

function textOf(value: unknown): string {
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

function readList(raw: unknown, tablesAllowed: boolean): SchemaField[] {
	const records = Array.isArray(raw) ? raw.filter(isRecord) : [];
	const titles = records.map((record) => textOf(record.title) || 'untitled');
	const names = uniqueNames(titles);
	const count = new Map<string, number>();
	for (const title of titles) count.set(title, (count.get(title) ?? 0) + 1);
	return records.map((record, index) => {
		const kind = fieldKind(record.type, record.items, tablesAllowed);
		const enumValues = Array.isArray(record.enumValues) ? record.enumValues.filter((value): value is string => typeof value === 'string') : [];
		return {
			name: names[index],
			title: titles[index],
			kind,
			enumValues: kind === 'string' ? enumValues : [],
			hidden: record.hidden === true,
			readOnly: isReadOnlyField(record),
			repeated: (count.get(titles[index]) ?? 0) > 1,
			columns: kind === 'table' ? readList(record.items, false) : [],
			...('value' in record ? { current: record.value } : {}),
		};
	});
}

/** The fields of a list of definitions or value fields, in order; anything that is not an object is skipped. */
export function readFields(raw: unknown): SchemaField[] {
	return readList(raw, true);
}

/**
 * A file's fields with what only its file type's schema says: a field's allowed values (and its
 * columns'), and read-only where the schema marks it. Matched by title; the file's own fields
 * (their titles and kinds) stay the truth, as a write names them.
 */
export function withSchemaDetails(fileFields: SchemaField[], schemaFields: SchemaField[]): SchemaField[] {
	const merged = (field: SchemaField, schema: SchemaField | undefined): SchemaField => ({
		...field,
		enumValues: field.enumValues.length || field.kind !== 'string' || schema?.kind !== 'string' ? field.enumValues : schema.enumValues,
		readOnly: field.readOnly || schema?.readOnly === true,
		columns: mergedList(field.columns, schema?.columns ?? []),
	});
	// One map per list, so that matching is linear in the fields (and in a table's columns).
	const mergedList = (fields: SchemaField[], schemas: SchemaField[]): SchemaField[] => {
		if (fields.length === 0) return fields;
		const byTitle = new Map<string, SchemaField>();
		for (const schema of schemas) if (!byTitle.has(schema.title)) byTitle.set(schema.title, schema);
		return fields.map((field) => merged(field, byTitle.get(field.title)));
	};
	return mergedList(fileFields, schemaFields);
}
