import type { IDataObject } from 'n8n-workflow';

/**
 * Output shaping ("Simplify"): a form's values (simplifyForm.ts) and a file record.
 */

export type { SimplifyMeter } from '../uniqueNames';
export { NOT_SHOWN_MARKER, SIMPLIFY_NOTES_KEY, simplifyFormValue } from './simplifyForm';
export { uniqueNames } from '../uniqueNames';

/**
 * What "Simplify" keeps of a file record (File > Get Many): what a person or a model needs to pick
 * a file, in this order; absent keys stay absent. The whole record has about twenty-five keys.
 */
const SIMPLE_FILE_KEYS = [
	'fileName',
	'status',
	'errorReason',
	'fileId',
	'fileClass',
	'referenceId',
	'summary',
	'isDuplicate',
	'createdAt',
	'updatedAt',
] as const;

/** A file record with only SIMPLE_FILE_KEYS. */
export function simplifyFile(file: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const key of SIMPLE_FILE_KEYS) {
		if (Object.prototype.hasOwnProperty.call(file, key)) simple[key] = file[key];
	}
	return simple;
}
