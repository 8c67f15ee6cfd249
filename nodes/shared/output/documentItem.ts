import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { shown } from '../../../credentials/shown';
import { isId, withoutSecrets } from '../api';
import { OUTPUT_LIMITS } from '../limits';
import { TOO_DEEP_MARKER, TRIGGER_NOTES_KEY, boundedCopy, put } from './boundedCopy';
import { withLeadingKeys } from './keyOrder';

export { TOO_DEEP_MARKER, TRIGGER_NOTES_KEY };

/** Notes on one item at most; the last one counts the rest. */
const MAX_NOTES = 10;

/** What went into an item that is not the service's record as sent. */
export interface ItemReport {
	/** Values nested too deep were replaced by a marker. */
	cut: boolean;
	/** The record could not be made into an item: a short item with an `error` field stands for it. */
	failed: boolean;
}

export interface ItemOptions {
	/** The run's API keys: no form of them stays anywhere in the item, at any depth. */
	secrets: string[];
	/** The caller's notes on the record (a timestamp the polling trigger cannot place); run inside the guard. */
	notesOf?: (record: IDataObject) => string[];
	/** Short fields the caller has checked, kept in the item that stands for a record that could not be made into one. */
	checkedFieldsOf?: (record: IDataObject) => IDataObject;
	/** A file's key order (name, status, values first; the default), or the record's own (a step). */
	fileKeyOrder?: boolean;
}

/**
 * The output item of a record the service sent (a processed document with its values when asked,
 * a failed file, a step), as BOTH triggers emit it (the polling trigger and the Callback Trigger):
 * key order, values nested deeper than OUTPUT_LIMITS.maxItemDepth replaced by a marker, secrets
 * removed, and a note (under triggerNotes) for each thing the trigger could not show or place as
 * sent. It never throws: a record that cannot be made into an item by these steps still gives an
 * item, with the file's id, name and status (and the fields the caller checked) and an `error`
 * field that says why, so no document is passed without a word. The polling trigger builds every
 * item of a poll this way before its state moves; the Callback Trigger before it emits.
 */
export function buildItem(record: IDataObject, extra: IDataObject | undefined, options: ItemOptions): { item: INodeExecutionData; report: ItemReport } {
	const { secrets } = options;
	try {
		const { copy, cutFields } = boundedCopy({ ...record, ...(extra ?? {}) });
		const notes = options.notesOf?.(record) ?? [];
		for (const field of cutFields) {
			notes.push(`${shown(field)}: a value nested more than ${OUTPUT_LIMITS.maxItemDepth} levels deep was replaced by "${TOO_DEEP_MARKER}".`);
		}
		const json = options.fileKeyOrder === false ? copy : withLeadingKeys(copy);
		if (notes.length > 0) {
			const kept = notes.length > MAX_NOTES ? [...notes.slice(0, MAX_NOTES - 1), `… and ${notes.length - MAX_NOTES + 1} more fields cut the same way.`] : notes;
			put(json, TRIGGER_NOTES_KEY, kept);
		}
		const [item] = withoutSecrets([{ json }], secrets);
		return { item, report: { cut: cutFields.length > 0, failed: false } };
	} catch (error) {
		return { item: fallbackItem(record, options, error), report: { cut: false, failed: true } };
	}
}

/** The item that stands for a record that could not be made into an item: short values only. */
function fallbackItem(record: IDataObject, { secrets, checkedFieldsOf }: ItemOptions, error: unknown): INodeExecutionData {
	const json: IDataObject = {};
	if (isId(record.fileId, 'uuid')) json.fileId = record.fileId;
	for (const key of ['fileName', 'status'] as const) {
		const value = record[key];
		if (typeof value === 'string') json[key] = shown(value, secrets).slice(1, -1);
	}
	try {
		Object.assign(json, checkedFieldsOf?.(record));
	} catch {
		// nothing more than the id, name and status can be shown of this record
	}
	const cause = error instanceof Error ? error.message : String(error);
	json.error = `The trigger could not make an item of this file's record (${shown(cause, secrets).slice(1, -1)}). Read it with the Document Extraction node (File > Get) by its fileId.`;
	return { json };
}

/** Both triggers' option that adds `values` to each document item (read as `options.includeValues`). */
export const includeValuesOption: INodeProperties = {
	displayName: 'Include Extracted Values',
	name: 'includeValues',
	type: 'boolean',
	default: false,
	description:
		'Whether to add the extracted values to each document, simplified to { field title: value } (tables as lists of row objects). Costs one more request per document.',
};
