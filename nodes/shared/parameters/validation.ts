import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseDateTime } from './dates';

/** Local checks that run before any request, with errors naming the parameter, item and form. */

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
export function textOf(context: IExecuteFunctions, itemIndex: number, parameter: string, value: unknown, expected: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalidParameter(context, itemIndex, parameter, value, `${expected}, not ${kindOf(value)}`);
}

/** Control characters (line breaks included): refused in names, ids and URLs. */
const CONTROL_CHARACTERS = /\p{Cc}/u;
/** Control characters other than tab and line breaks: refused in text of several lines. */
const CONTROL_CHARACTERS_BUT_LINES = /(?![\t\n\r])\p{Cc}/u;

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
interface NumberRange {
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

/** Whether an optional parameter was given (an expression may give '' for "not set"). */
export function given(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/**
 * An optional date parameter as the API wants it (ISO 8601 in UTC): undefined when empty, an
 * error naming the parameter and the item when it is not a date.
 */
export function optionalTimestamp(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string | undefined {
	if (!given(value)) return undefined;
	const ms = parseDateTime(value, context.getTimezone());
	if (ms === undefined) {
		throw invalidParameter(
			context,
			itemIndex,
			parameter,
			value,
			'a date and time such as 2026-01-31T00:00:00Z (without a zone, the workflow time zone applies)',
		);
	}
	return new Date(ms).toISOString();
}
