import { DateTime } from 'luxon';
import type { FieldType } from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import { SCHEMA_LIMITS } from '../limits';
import type { SchemaField } from './fields';

/**
 * The one converter of values to write (Update Values: the field mapper, Map Automatically and
 * JSON alike): a value given for a field becomes what the service takes for the field's kind, or
 * the reason it cannot. n8n's own validation of mapper values is not used (the node reads them with
 * skipValidation): strict, it refuses the JSON text its own editor stores for object fields, and
 * lenient, it reads "" as 0. Where a conversion is asked for ("Attempt to Convert Types"),
 * n8n's exported validateFieldType reads numbers, true/false and dates as n8n does elsewhere.
 *
 * - text: text; a number or true/false becomes text (n8n's editor converts these for text
 *   fields too). A choice: one of its values exactly; with conversion, in any case and spacing.
 * - number: a finite number; with conversion, numeric text.
 * - boolean: true or false; with conversion, "true"/"false"/"1"/"0" and 1/0.
 * - date: a date or date and time in ISO 8601 (or a Date, a luxon DateTime), written as its
 *   YYYY-MM-DD in the offset it was given in; with conversion, the other forms n8n reads.
 * - object: an object, or JSON text of one (always parsed: it is how the editor stores it).
 * - table: an array of row objects, or JSON text of one; each key a column title, each cell
 *   converted by its column's kind; at most SCHEMA_LIMITS.maxTableRows rows.
 * - a kind the node does not know: sent as given.
 */

export type Conversion =
	| { ok: true; value: unknown }
	| { ok: false; expected: string; got: unknown; at?: string };

/** '' (or only spaces), null and undefined: no value (never 0 or false). */
export function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const CONVERT_HINT = ' (or turn on Attempt to Convert Types)';

function fail(expected: string, got: unknown, at?: string): Conversion {
	return { ok: false, expected, got, ...(at ? { at } : {}) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value) && !DateTime.isDateTime(value) && !(value instanceof Date);
}

/** n8n's own reading of a value as `type` (lenient), or undefined when it cannot read it. */
function n8nReading(value: unknown, type: FieldType): unknown {
	const result = validateFieldType('value', value, type, { strict: false, parseStrings: false });
	return result.valid ? result.newValue : undefined;
}

function normalised(text: string): string {
	return text.trim().split(/\s+/).join(' ').toLowerCase();
}

/**
 * A choice field's allowed values as lookups, built once per field (a table's column: once for all
 * its rows) and only as far as asked: `exact` at the first value, `loose` (normalised: case and
 * spacing, the first allowed value of each form) at the first value that needs it. Converting a
 * column is then linear in its rows plus its allowed values, never their product.
 */
interface ChoiceLookup {
	exact: Set<string>;
	loose?: Map<string, string>;
}

const choiceLookups = new WeakMap<SchemaField, ChoiceLookup>();

function choiceLookup(field: SchemaField): ChoiceLookup {
	let lookup = choiceLookups.get(field);
	if (lookup === undefined) {
		lookup = { exact: new Set(field.enumValues) };
		choiceLookups.set(field, lookup);
	}
	return lookup;
}

function looseMatch(lookup: ChoiceLookup, field: SchemaField, text: string): string | undefined {
	if (lookup.loose === undefined) {
		lookup.loose = new Map();
		for (const allowed of field.enumValues) {
			const form = normalised(allowed);
			if (!lookup.loose.has(form)) lookup.loose.set(form, allowed);
		}
	}
	return lookup.loose.get(normalised(text));
}

function choice(value: unknown, field: SchemaField, convert: boolean): Conversion {
	const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
	const lookup = choiceLookup(field);
	if (text !== undefined && lookup.exact.has(text)) return { ok: true, value: text };
	if (text !== undefined && convert) {
		const match = looseMatch(lookup, field, text);
		if (match !== undefined) return { ok: true, value: match };
	}
	const listed = field.enumValues.slice(0, SCHEMA_LIMITS.choicesInMessage).join(', ');
	const more = field.enumValues.length > SCHEMA_LIMITS.choicesInMessage ? ', …' : '';
	return fail(`one of ${listed}${more}${convert ? '' : ' (exactly as written; Attempt to Convert Types also accepts another case)'}`, value);
}

function text(value: unknown, field: SchemaField, convert: boolean): Conversion {
	if (field.enumValues.length) return choice(value, field, convert);
	if (typeof value === 'string') return { ok: true, value };
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return { ok: true, value: String(value) };
	return fail('text', value);
}

/** YYYY-MM-DD of a valid date: years 0000 to 9999 only (luxon writes others with a sign and six digits). */
export function isoDate(date: DateTime): string | undefined {
	const text = date.isValid ? date.toISODate() : null;
	return text && text.length === 10 && text[0] !== '-' && text[0] !== '+' ? text : undefined;
}

function dateOf(value: unknown, convert: boolean): string | undefined {
	if (DateTime.isDateTime(value)) return isoDate(value);
	if (value instanceof Date) return isoDate(DateTime.fromJSDate(value, { zone: 'utc' }));
	if (typeof value === 'string' && value.trim().length <= SCHEMA_LIMITS.maxTypedTextChars) {
		const parsed = isoDate(DateTime.fromISO(value.trim(), { setZone: true }));
		if (parsed !== undefined) return parsed;
	}
	if (!convert || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
	const read = n8nReading(value, 'dateTime');
	return DateTime.isDateTime(read) ? isoDate(read) : undefined;
}

function object(value: unknown): Conversion {
	const parsed = typeof value === 'string' ? parsedJson(value) : value;
	return isPlainObject(parsed) ? { ok: true, value: parsed } : fail('a JSON object', value);
}

function parsedJson(value: string): unknown {
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return undefined;
	}
}

function table(value: unknown, field: SchemaField, convert: boolean): Conversion {
	const rows = typeof value === 'string' ? parsedJson(value) : value;
	const columnsNamed = field.columns.map((column) => column.title).join(', ');
	if (!Array.isArray(rows)) return fail(`an array of row objects such as [{ "${field.columns[0]?.title ?? 'Column'}": … }]`, value);
	if (rows.length > SCHEMA_LIMITS.maxTableRows) return fail(`at most ${SCHEMA_LIMITS.maxTableRows} rows`, `${rows.length} rows`);
	const columns = new Map(field.columns.map((column) => [column.title, column]));
	const converted: Array<Record<string, unknown>> = [];
	for (const [index, row] of rows.entries()) {
		const at = `row ${index + 1}`;
		if (!isPlainObject(row)) return fail(`an object of column title: value (columns: ${columnsNamed})`, row, at);
		const cells: Array<[string, unknown]> = [];
		for (const [key, cell] of Object.entries(row)) {
			const column = columns.get(key);
			if (!column) return fail(`a column of the table: ${columnsNamed}`, key, `${at}, column`);
			if (isEmptyValue(cell)) {
				cells.push([key, null]);
				continue;
			}
			const result = convertValue(cell, column, convert);
			if (!result.ok) return fail(result.expected, result.got, `${at}, ${key}`);
			cells.push([key, result.value]);
		}
		converted.push(Object.fromEntries(cells));
	}
	return { ok: true, value: converted };
}

/** `value` (not empty: see isEmptyValue) converted for `field`; `convert`: Attempt to Convert Types. */
export function convertValue(value: unknown, field: SchemaField, convert: boolean): Conversion {
	switch (field.kind) {
		case 'string':
			return text(value, field, convert);
		case 'number': {
			if (typeof value === 'number') return Number.isFinite(value) ? { ok: true, value } : fail('a finite number', value);
			const read = convert && typeof value === 'string' ? n8nReading(value, 'number') : undefined;
			if (typeof read === 'number' && Number.isFinite(read)) return { ok: true, value: read };
			return fail(`a number${typeof value === 'string' && !convert ? CONVERT_HINT : ''}`, value);
		}
		case 'boolean': {
			if (typeof value === 'boolean') return { ok: true, value };
			const read = convert && (typeof value === 'string' || typeof value === 'number') ? n8nReading(value, 'boolean') : undefined;
			if (typeof read === 'boolean') return { ok: true, value: read };
			return fail(`true or false${convert ? '' : CONVERT_HINT}`, value);
		}
		case 'date': {
			const date = dateOf(value, convert);
			return date !== undefined ? { ok: true, value: date } : fail(`a date such as 2024-03-15 (ISO 8601)${convert ? '' : CONVERT_HINT}`, value);
		}
		case 'object':
			return object(value);
		case 'table':
			return table(value, field, convert);
		default:
			return { ok: true, value };
	}
}
