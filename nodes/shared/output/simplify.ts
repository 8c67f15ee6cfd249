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

/**
 * Names for `titles`, in order. The first field with a title is named by it; a repeat gets
 * "title (n)", the smallest n from 2 that is neither the title of a field of the list nor a name
 * already given. One pass: each title remembers its next suffix, and a probe can only fail on a
 * field titled exactly that ("x (2)"), once per such field, so the work is linear in the fields
 * however often a title repeats (probing from 2 for each repeat, 20,000 fields titled "x" took
 * 25.6 s on the event loop; now 9 ms).
 * Sets, not `in`, so titles such as "constructor" or "toString" are names like any other.
 */
export function uniqueNames(titles: readonly string[]): string[] {
	const titled = new Set(titles);
	const given = new Set<string>();
	const nextSuffix = new Map<string, number>();
	return titles.map((title) => {
		if (!given.has(title)) {
			given.add(title);
			return title;
		}
		let suffix = nextSuffix.get(title) ?? 2;
		let name = `${title} (${suffix})`;
		while (titled.has(name) || given.has(name)) {
			suffix += 1;
			name = `${title} (${suffix})`;
		}
		nextSuffix.set(title, suffix + 1);
		given.add(name);
		return name;
	});
}

/**
 * `[{ title, value }, …]` → `{ title: value, … }`; repeated titles are named by uniqueNames.
 * Built with Object.fromEntries, which defines each key as an own property: a field titled
 * "__proto__" is a key like any other and never becomes the object's prototype (an assignment
 * `result[title] = value` would make it one).
 */
function simplifyFields(fields: ExtractedField[]): IDataObject {
	const names = uniqueNames(fields.map((field) => String(field.title ?? '').trim() || 'untitled'));
	return Object.fromEntries(fields.map((field, index) => [names[index], simplifyValue(field)])) as IDataObject;
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
const SIMPLE_FILE_KEYS = [
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
