import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitList } from './lists';

/** Local checks that run before any request, with errors naming the parameter, item and form. */

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/i;

function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text === undefined ? 'nothing' : `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
}

export function invalidParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	expected: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Invalid ${parameter} in item ${itemIndex}: expected ${expected}, got ${shown(value)}`,
		{
			itemIndex,
			description: `Correct "${parameter}" (it is checked before anything is sent to the API).`,
		},
	);
}

/** How a value that is not text reads in a message ("an array", "an object", "true/false"). */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'boolean') return 'true/false';
	if (typeof value === 'number') return 'a number that is not finite';
	return typeof value === 'object' ? 'an object' : `a value of type ${typeof value}`;
}

/**
 * The text of a text parameter, trimmed: text as given, a number (an expression may give one) as
 * its text, nothing as ''. An array, object or true/false is refused: it is never what was meant
 * (String() would turn an array of one id into that id, an object into "[object Object]").
 */
function textOf(context: IExecuteFunctions, itemIndex: number, parameter: string, value: unknown, expected: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalidParameter(context, itemIndex, parameter, value, `${expected}, not ${kindOf(value)}`);
}

/** Control characters (line breaks included): refused in names, ids and URLs. */
const CONTROL_CHARACTERS = /\p{Cc}/u;
/** Control characters other than tab and line breaks: refused in text of several lines. */
const CONTROL_CHARACTERS_BUT_LINES = /(?![\t\n\r])\p{Cc}/u;

/** The two id forms of the API: UUIDs (files, uploads) and 24-hex ids (everything else). */
const ID_FORMS = {
	uuid: { pattern: UUID_PATTERN, expected: 'a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23' },
	objectId: { pattern: OBJECT_ID_PATTERN, expected: '24 hexadecimal characters such as 6650a00000000000000e1001' },
} as const;

export type IdForm = keyof typeof ID_FORMS;

/** Between the ids of a list given as text. */
const ID_SEPARATORS = /[\s,]/;

function requireId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string {
	const id = textOf(context, itemIndex, parameter, value, ID_FORMS[form].expected);
	if (!ID_FORMS[form].pattern.test(id)) {
		throw invalidParameter(context, itemIndex, parameter, value, ID_FORMS[form].expected);
	}
	return id;
}

/** A file or upload id: a UUID. */
export function requireUuid(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'uuid');
}

/** A directory, schema, file-type, workflow or workspace id: 24 hexadecimal characters. */
export function requireObjectId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'objectId');
}

/**
 * A list of ids, given as an array (e.g. from an expression) or as text separated by commas,
 * spaces or new lines. Empty entries are dropped, duplicates kept once; every id is checked and
 * a bad one is named with its position.
 */
export function requireIdList(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string[] {
	const ids: string[] = [];
	const expected = `IDs (${ID_FORMS[form].expected}) separated by commas, spaces or new lines, or an array of IDs`;
	requireTextList(context, itemIndex, parameter, value, ID_SEPARATORS, expected, ID_FORMS[form].expected).forEach((entry, position) => {
		const id = requireId(context, itemIndex, `${parameter} (entry ${position + 1})`, entry, form);
		if (!ids.includes(id)) ids.push(id);
	});
	return ids;
}

/**
 * A JSON parameter: n8n hands it over as text, or as a value when an expression produced one.
 * Returns the parsed object (or array), or throws naming the parameter and the item.
 */
export function requireJson<T extends 'object' | 'array'>(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	shape: T,
): T extends 'array' ? unknown[] : IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = value.trim() === '' ? undefined : (JSON.parse(value) as unknown);
		} catch (error) {
			throw invalidParameter(context, itemIndex, parameter, value, `valid JSON (${(error as Error).message})`);
		}
	}
	const ok =
		shape === 'array'
			? Array.isArray(parsed)
			: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
	if (!ok) {
		throw invalidParameter(context, itemIndex, parameter, value, shape === 'array' ? 'a JSON array' : 'a JSON object');
	}
	return parsed as T extends 'array' ? unknown[] : IDataObject;
}

/**
 * A list given as text split at `separator`, or as an array (e.g. from an expression) of texts;
 * entries are trimmed and empty ones dropped. An object, or an array entry that is not text (a
 * whole record where its id was meant), is refused naming its position.
 */
export function requireTextList(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	separator: RegExp,
	expected: string,
	entryExpected = 'text',
): string[] {
	if (Array.isArray(value)) {
		value.forEach((entry, position) => textOf(context, itemIndex, `${parameter} (entry ${position + 1})`, entry, entryExpected));
		return splitList(value, separator);
	}
	return splitList(textOf(context, itemIndex, parameter, value, expected), separator);
}

/** Longest Callback URL accepted: what servers and proxies commonly accept in a request line. */
const MAX_URL_LENGTH = 2048;

/** Spaces, control and invisible characters, backslashes: the URL parser would drop or reinterpret them. */
const URL_HAZARDS = /[\s\\\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u;

/**
 * A URL the service will call (Callback URL): https with a host, no user name or password, no
 * spaces, control or invisible characters or backslashes (which the URL parser would silently
 * drop or turn into "/"), at most 2,048 characters.
 */
export function requireHttpsUrl(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	const text = textOf(context, itemIndex, parameter, value, 'an https:// URL');
	const refuse = (expected: string) => invalidParameter(context, itemIndex, parameter, value, expected);
	if (text.length > MAX_URL_LENGTH) throw refuse(`an https:// URL of at most ${MAX_URL_LENGTH} characters`);
	if (URL_HAZARDS.test(text)) {
		throw refuse('an https:// URL without spaces, control or invisible characters or backslashes');
	}
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || url.protocol !== 'https:' || !url.hostname) throw refuse('an https:// URL');
	if (url.username !== '' || url.password !== '') {
		throw refuse('an https:// URL without a user name or password (user:password@)');
	}
	return text;
}

/** Bounds of a number parameter; `expected` says them in words for the message. */
export interface NumberRange {
	min: number;
	max?: number;
	integer?: boolean;
}

/**
 * A number parameter: a number, or text holding one (what an expression may give), within its
 * range. Anything else (empty, NaN, Infinity, an array, out of range) is refused.
 */
export function requireNumber(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	range: NumberRange,
	expected: string,
): number {
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
	if (
		!Number.isFinite(number) ||
		(range.integer && !Number.isInteger(number)) ||
		number < range.min ||
		(range.max !== undefined && number > range.max)
	) {
		throw invalidParameter(context, itemIndex, parameter, value, expected);
	}
	return number;
}

export function requirePositiveInteger(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): number {
	return requireNumber(context, itemIndex, parameter, value, { min: 1, integer: true }, 'a whole number of 1 or more');
}

/**
 * A boolean parameter: true or false, or the text "true" or "false" (an expression over text
 * data gives those). Anything else is refused: "no" or "false " would otherwise count as true.
 */
export function requireBoolean(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalidParameter(context, itemIndex, parameter, value, 'true or false');
}

/** A choice among the values a parameter offers (an expression can give any text). */
export function requireOneOf<T extends string>(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	allowed: readonly T[],
): T {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined || !(allowed as readonly string[]).includes(text)) {
		throw invalidParameter(context, itemIndex, parameter, value, `one of ${allowed.join(', ')}`);
	}
	return text as T;
}

/**
 * A text parameter that must be given: 1 to `maxLength` characters after trimming; on one line
 * (no line breaks or other control characters) unless `multiline`.
 */
export function requireText(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	maxLength = 255,
	multiline = false,
): string {
	const expected = `text of 1 to ${maxLength} characters`;
	const text = textOf(context, itemIndex, parameter, value, expected);
	if (!text || text.length > maxLength) {
		throw invalidParameter(context, itemIndex, parameter, value, expected);
	}
	return checkCharacters(context, itemIndex, parameter, value, text, expected, multiline);
}

/** An optional text parameter: '' when not given, else as requireText without a length limit. */
export function optionalText(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	multiline = false,
): string {
	const text = textOf(context, itemIndex, parameter, value, 'text');
	return text ? checkCharacters(context, itemIndex, parameter, value, text, 'text', multiline) : '';
}

function checkCharacters(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	text: string,
	expected: string,
	multiline: boolean,
): string {
	if ((multiline ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).test(text)) {
		throw invalidParameter(
			context,
			itemIndex,
			parameter,
			value,
			multiline ? `${expected} without control characters` : `${expected} on one line (no line breaks or control characters)`,
		);
	}
	return text;
}

