import type { ApiContext } from '../run/context';
import { textOf } from './text';

/** List parameters: an array (e.g. from an expression) or text split at a separator. */

/**
 * A list parameter: an array (e.g. from an expression) or text split at `separator`. Entries are
 * trimmed and empty ones dropped (so a separator is one character: runs of them give empty entries).
 */
export function splitList(value: unknown, separator: RegExp): string[] {
	const entries = Array.isArray(value)
		? value.map((entry) => (entry === undefined || entry === null ? '' : String(entry)))
		: typeof value === 'string'
			? value.split(separator)
			: value === undefined || value === null
				? []
				: [String(value)];
	return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Comma or new line: for names that may contain spaces (field titles). */
export const COMMA_OR_NEW_LINE = /[,\n\r]/;

/** New line only: for free text that may contain commas (messages). */
export const NEW_LINE = /[\n\r]/;

/**
 * A list given as text split at `separator`, or as an array (e.g. from an expression) of texts;
 * entries are trimmed and empty ones dropped. An object, or an array entry that is not text (a
 * whole record where its id was meant), is refused naming its position.
 */
export function requireTextList(
	context: ApiContext,
	itemIndex: number | undefined,
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
