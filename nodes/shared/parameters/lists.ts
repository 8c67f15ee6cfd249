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
