import type { ApiContext } from '../run/context';
import { invalidParameter, kindOf } from './message';

/** Text parameters: trimmed, within a length, on one line where that matters. */

/**
 * The text of a text parameter, trimmed: text as given, a number (an expression may give one) as
 * its text, nothing as ''. An array, object or true/false is refused: it is never what was meant
 * (String() would turn an array of one id into that id, an object into "[object Object]").
 */
export function textOf(context: ApiContext, itemIndex: number | undefined, parameter: string, value: unknown, expected: string): string {
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
 * A text parameter that must be given: 1 to `maxLength` characters after trimming; on one line
 * (no line breaks or other control characters) unless `multiline`.
 */
export function requireText(
	context: ApiContext,
	itemIndex: number | undefined,
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
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
	multiline = false,
): string {
	const text = textOf(context, itemIndex, parameter, value, 'text');
	return text ? checkCharacters(context, itemIndex, parameter, value, text, 'text', multiline) : '';
}

function checkCharacters(
	context: ApiContext,
	itemIndex: number | undefined,
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
