import type { IDataObject } from 'n8n-workflow';

/**
 * Output shaping of extracted values ("Simplify"): a form's fields become `{ field title: value }`
 * and a table becomes an array of row objects keyed by column title.
 */

interface ExtractedField {
	title?: string;
	type?: string;
	value?: unknown;
	items?: unknown;
}

function isField(value: unknown): value is ExtractedField {
	return Boolean(value) && typeof value === 'object' && 'title' in (value as object);
}

/** A row given as a list of fields (`[{ title, value }, …]`) becomes `{ title: value }`. */
function rowFromFields(row: unknown[]): IDataObject {
	return simplifyFields(row.filter(isField));
}

function simplifyRows(rows: unknown[]): unknown[] {
	return rows.map((row) => {
		if (Array.isArray(row)) return rowFromFields(row);
		if (row && typeof row === 'object' && Array.isArray((row as IDataObject).fields)) {
			return rowFromFields((row as IDataObject).fields as unknown[]);
		}
		return row;
	});
}

function simplifyValue(field: ExtractedField): unknown {
	const { value, items } = field;
	// Tables: the API gives the rows in `value` (objects keyed by column title, or lists of
	// fields); `items` then holds the column definitions.
	if (Array.isArray(value)) return simplifyRows(value);
	// Rows given in `items` instead, as lists of fields.
	if ((value === null || value === undefined) && Array.isArray(items) && items.length) {
		if (items.every((row) => Array.isArray(row))) return simplifyRows(items);
		if (items.every(isField) && items.some((item) => (item as ExtractedField).value != null)) {
			return simplifyFields(items as ExtractedField[]);
		}
	}
	return value === undefined ? null : value;
}

/** `[{ title, value }, …]` → `{ title: value, … }`. Later duplicates of a title get a suffix. */
function simplifyFields(fields: ExtractedField[]): IDataObject {
	const result: IDataObject = {};
	for (const field of fields) {
		const title = String(field.title ?? '').trim() || 'untitled';
		let key = title;
		for (let n = 2; key in result; n++) key = `${title} (${n})`;
		result[key] = simplifyValue(field) as IDataObject[keyof IDataObject];
	}
	return result;
}

/** One form value record of GET /files/{fileId}/values, simplified. */
export function simplifyFormValue(formValue: IDataObject): IDataObject {
	const fields = Array.isArray(formValue.fields) ? (formValue.fields as ExtractedField[]) : [];
	return simplifyFields(fields);
}

/**
 * What "Simplify" keeps of a file record (File > Get Many): what a person or a model needs to pick
 * a file, in this order; absent keys stay absent. The whole record has about twenty-five keys.
 */
export const SIMPLE_FILE_KEYS = [
	'fileName',
	'status',
	'errorReason',
	'fileId',
	'fileClass',
	'referenceId',
	'summary',
	'isDuplicate',
	'createdAt',
	'updatedAt',
] as const;

/** A file record with only SIMPLE_FILE_KEYS. */
export function simplifyFile(file: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const key of SIMPLE_FILE_KEYS) {
		if (Object.prototype.hasOwnProperty.call(file, key)) simple[key] = file[key];
	}
	return simple;
}
