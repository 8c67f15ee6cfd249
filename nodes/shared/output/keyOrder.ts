import type { IDataObject } from 'n8n-workflow';

/**
 * Key order of output items. n8n's Table view shows an item's keys as columns from left to
 * right in the order of its JSON, and a file record has more than twenty keys: what a person
 * looks for first (the file's name, its status and the extracted values) goes in front.
 */

/** A file, as the Upload, Get Many and trigger items give it: name, status, values, then the IDs. */
const FILE_LEADING_KEYS = ['fileName', 'status', 'errorReason', 'values', 'formValues', 'fileId'] as const;

/** A form record of Get Values with Simplify off: the file's name, the fields, then the IDs. */
export const FORM_LEADING_KEYS = ['fileName', 'fields', 'fileId', 'id'] as const;

/**
 * A copy of `json` with the `leading` keys (those present) first, then the others in their own
 * order. Built with Object.fromEntries, which defines every key as an own property: a key
 * "__proto__" that the service answered stays data and never becomes the copy's prototype (an
 * assignment `copy[key] = value` would make it one).
 */
export function withLeadingKeys(json: IDataObject, leading: readonly string[] = FILE_LEADING_KEYS): IDataObject {
	const first = leading.filter((key) => Object.prototype.hasOwnProperty.call(json, key));
	const placed = new Set(first);
	return Object.fromEntries([
		...first.map((key) => [key, json[key]] as const),
		...Object.entries(json).filter(([key]) => !placed.has(key)),
	]) as IDataObject;
}
