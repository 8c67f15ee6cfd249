import type { IdForm } from '../ids';
import { ID_FORMS, isId } from '../ids';
import type { ApiContext } from '../run/context';
import { requireTextList } from './lists';
import { invalidParameter } from './message';
import { textOf } from './text';

/**
 * Parameters that hold an ID or a list of IDs, checked before any request. The ID forms are the
 * API layer's (nodes/shared/ids.ts, on the ground floor below both), so a typed ID and an ID the
 * service answers pass the same check.
 */

/** Between the IDs of a list given as text. */
const ID_SEPARATORS = /[\s,]/;

function requireId(
	context: ApiContext,
	itemIndex: number | undefined,
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
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'uuid');
}

/** A directory, schema, file-type, workflow or workspace ID: 24 hexadecimal characters. */
export function requireObjectId(
	context: ApiContext,
	itemIndex: number | undefined,
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
	context: ApiContext,
	itemIndex: number | undefined,
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
