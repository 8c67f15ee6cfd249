import type { IExecuteFunctions } from 'n8n-workflow';

import type { IdForm } from '../api';
import { ID_FORMS, isId } from '../api';
import { splitList } from './lists';
import { invalidParameter, textOf } from './validation';

/** Parameters that hold an ID or a list (of IDs, titles, messages), checked before any request. */

/** Between the IDs of a list given as text. */
const ID_SEPARATORS = /[\s,]/;

function requireId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string {
	const id = textOf(context, itemIndex, parameter, value, ID_FORMS[form].expected);
	if (!isId(id, form)) {
		throw invalidParameter(context, itemIndex, parameter, value, ID_FORMS[form].expected);
	}
	return id;
}

/** A file or upload ID: a UUID. */
export function requireUuid(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'uuid');
}

/** A directory, schema, file-type, workflow or workspace ID: 24 hexadecimal characters. */
export function requireObjectId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'objectId');
}

/**
 * A list of IDs, given as an array (e.g. from an expression) or as text separated by commas,
 * spaces or new lines. Empty entries are dropped, duplicates kept once; every ID is checked and
 * a bad one is named with its position.
 */
export function requireIdList(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string[] {
	// A Set keeps the first of each id in order, in one pass (an array's includes() made it quadratic).
	const ids = new Set<string>();
	const expected = `IDs (${ID_FORMS[form].expected}) separated by commas, spaces or new lines, or an array of IDs`;
	requireTextList(context, itemIndex, parameter, value, ID_SEPARATORS, expected, ID_FORMS[form].expected).forEach((entry, position) => {
		ids.add(requireId(context, itemIndex, `${parameter} (entry ${position + 1})`, entry, form));
	});
	return [...ids];
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
