import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { SCHEMA_LIMITS } from '../limits';
import { isoDate } from '../schema/convert';
import type { FieldKind } from '../schema/fields';
import { fieldKind } from '../schema/fields';

/**
 * Typed values (Simplify, from typeVersion 2 of both nodes): before a form record is simplified,
 * each field's value is made what its type says, the way the service would have sent it typed:
 *
 * - number: a number; text that is a plain decimal number (digits, one point, a leading minus, at
 *   most 15 significant digits: read back exactly) becomes that number;
 * - boolean: true or false; the text "true"/"false" (any case) becomes one;
 * - date: ISO text "YYYY-MM-DD"; an ISO 8601 date and time becomes its date (in its own offset);
 * - object: an object; JSON text of an object is parsed;
 * - table: an array of rows (JSON text of one is parsed), each row's cells typed by its column;
 * - text: a number or true/false becomes text;
 * - "" is no value (null) for every type but text.
 *
 * Anything else is kept exactly as the service sent it: nothing is lost or guessed (no locale
 * reading of "1,234.50"). One pass over the fields and the cells of tables; text longer than
 * SCHEMA_LIMITS.maxTypedTextChars is never parsed as a number or date, and only tables' cells are
 * walked below a field (a cell that is itself a table is kept as it is), so the work is linear in
 * the answer and no regular expression runs on service text.
 */

function isRecord(value: unknown): value is IDataObject {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** A plain decimal number ("-12.50"), read back exactly: at most 15 significant digits. */
function decimal(text: string): number | undefined {
	const body = text.startsWith('-') ? text.slice(1) : text;
	const point = body.indexOf('.');
	const whole = point < 0 ? body : body.slice(0, point);
	const fraction = point < 0 ? '' : body.slice(point + 1);
	if (whole === '' || (point >= 0 && fraction === '')) return undefined;
	const digits = whole + fraction;
	let first = -1;
	let last = -1;
	for (let index = 0; index < digits.length; index++) {
		const char = digits[index];
		if (char < '0' || char > '9') return undefined;
		if (char !== '0') {
			if (first < 0) first = index;
			last = index;
		}
	}
	if (first >= 0 && last - first + 1 > 15) return undefined;
	return Number(text);
}

function parsedJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** `value` as its scalar or object kind; kept as it is when it does not read as one. */
function typedScalar(value: unknown, kind: FieldKind): unknown {
	if (kind === 'string') return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
	if (kind === 'other' || typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return null;
	if (kind === 'object') {
		const parsed = parsedJson(text);
		return isRecord(parsed) ? parsed : value;
	}
	if (text.length > SCHEMA_LIMITS.maxTypedTextChars) return value;
	if (kind === 'number') return decimal(text) ?? value;
	if (kind === 'boolean') {
		const lower = text.toLowerCase();
		return lower === 'true' ? true : lower === 'false' ? false : value;
	}
	if (kind === 'date') {
		return isoDate(DateTime.fromISO(text, { setZone: true })) ?? value;
	}
	return value;
}

/** A table's rows with their cells typed by column (rows of another shape are kept as they are). */
function typedRows(value: unknown, columns: unknown): unknown {
	const rows = typeof value === 'string' && value.trim().startsWith('[') ? parsedJson(value) : value;
	if (!Array.isArray(rows)) return value;
	const kinds = new Map<string, FieldKind>();
	if (Array.isArray(columns)) {
		for (const column of columns) {
			if (isRecord(column) && typeof column.title === 'string' && !kinds.has(column.title)) kinds.set(column.title, fieldKind(column.type, column.items, false));
		}
	}
	return rows.map((row) => {
		if (Array.isArray(row)) return row.map((cell) => (isRecord(cell) ? typedCell(cell) : cell));
		if (!isRecord(row)) return row;
		if (Array.isArray(row.fields)) return { ...row, fields: row.fields.map((cell) => (isRecord(cell) ? typedCell(cell) : cell)) };
		return Object.fromEntries(Object.entries(row).map(([title, cell]) => [title, typedScalar(cell, kinds.get(title) ?? 'other')]));
	});
}

/** A cell given as a field ({ title, type, value }): typed by its own type, never walked further. */
function typedCell(cell: IDataObject): IDataObject {
	const kind = fieldKind(cell.type, cell.items, false);
	return 'value' in cell ? ({ ...cell, value: typedScalar(cell.value, kind) } as IDataObject) : cell;
}

function typedField(field: unknown): unknown {
	if (!isRecord(field)) return field;
	const kind = fieldKind(field.type, field.items);
	if (kind === 'table') return { ...field, value: typedRows(field.value, field.items) };
	if (kind === 'object' && Array.isArray(field.value)) return { ...field, value: typedRows(field.value, field.items) };
	return 'value' in field ? { ...field, value: typedScalar(field.value, kind) } : field;
}

/** A form record of GET /files/{fileId}/values with its fields' values typed (a copy; the record is not changed). */
export function typedFormValue(formValue: IDataObject): IDataObject {
	if (!Array.isArray(formValue.fields)) return formValue;
	return { ...formValue, fields: formValue.fields.map(typedField) as IDataObject[] };
}
