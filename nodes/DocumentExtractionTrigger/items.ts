import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { shown } from '../../credentials/shown';
import type { FileRecord } from '../shared/api';
import { withoutSecrets } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import { withLeadingKeys } from '../shared/output/keyOrder';
import type { FileStream } from './files';
import { fileIdOf, stampOf } from './files';

const { maxValueDepth: MAX_VALUE_DEPTH } = TRIGGER_LIMITS;

/** The key of an item's notes on what the trigger could not show or place as the service sent it. */
export const TRIGGER_NOTES_KEY = 'triggerNotes';

/** What stands where a value nested deeper than MAX_VALUE_DEPTH was. */
export const TOO_DEEP_MARKER = `[not shown: nested more than ${MAX_VALUE_DEPTH} levels deep; see ${TRIGGER_NOTES_KEY}]`;

/** Notes on one item at most; the last one counts the rest. */
const MAX_NOTES = 10;

type Container = IDataObject | unknown[];

/** Sets `key` as an own data property: "__proto__" stays a key, never the copy's prototype. */
function put(into: Container, key: string | number, value: unknown): void {
	if (Array.isArray(into)) into[key as number] = value;
	else Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainContainer(value: unknown): value is Container {
	if (Array.isArray(value)) return true;
	if (value === null || typeof value !== 'object') return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a record in which every array or object nested deeper than MAX_VALUE_DEPTH is
 * replaced by TOO_DEEP_MARKER (n8n can neither store nor show such a value: JSON.stringify
 * overflows its stack long before the 20,000 levels a service may send). One pass with an explicit
 * stack: no recursion, work linear in the part of the record it copies. Returns the top-level
 * fields that were cut.
 */
function boundedCopy(record: IDataObject): { copy: IDataObject; cutFields: string[] } {
	const copy: IDataObject = {};
	const cutFields = new Set<string>();
	const jobs: Array<{ value: unknown; into: Container; key: string | number; depth: number; field: string }> = [];
	const pushChildren = (source: Container, into: Container, depth: number, field: string | undefined) => {
		const entries: Array<[string | number, unknown]> = Array.isArray(source) ? source.map((entry, index) => [index, entry]) : Object.entries(source);
		// Every key first, in the record's order, then the values (the stack takes them in reverse).
		for (const [key] of entries) put(into, key, null);
		for (let index = entries.length - 1; index >= 0; index--) {
			const [key, value] = entries[index];
			jobs.push({ value, into, key, depth, field: field ?? String(key) });
		}
	};
	pushChildren(record, copy, 1, undefined);
	for (let job = jobs.pop(); job !== undefined; job = jobs.pop()) {
		const { value, into, key, depth, field } = job;
		if (!isPlainContainer(value)) {
			put(into, key, value);
		} else if (depth > MAX_VALUE_DEPTH) {
			put(into, key, TOO_DEEP_MARKER);
			cutFields.add(field);
		} else {
			const child: Container = Array.isArray(value) ? new Array<unknown>(value.length) : {};
			put(into, key, child);
			pushChildren(value, child, depth + 1, field);
		}
	}
	return { copy, cutFields: [...cutFields] };
}

/** What went into an item that is not the service's record as sent. */
export interface ItemReport {
	/** Values nested too deep were replaced by a marker. */
	cut: boolean;
	/** The record could not be made into an item: a short item with an `error` field stands for it. */
	failed: boolean;
}

/**
 * The output item of a file (with its values when asked): key order, values nested deeper than
 * MAX_VALUE_DEPTH replaced by a marker, secrets removed, and a note for each thing the trigger
 * could not show or place as sent (a timestamp that is not RFC 3339, a value cut). It never
 * throws: a record that cannot be made into an item by these steps still gives an item, with the
 * file's id, name, status and timestamps and an `error` field that says why, so no document is
 * passed without a word. Every item of a poll is built this way before the trigger's state moves.
 */
export function buildItem(
	file: FileRecord,
	extra: IDataObject | undefined,
	stream: FileStream,
	secrets: string[],
): { item: INodeExecutionData; report: ItemReport } {
	try {
		const { copy, cutFields } = boundedCopy({ ...file, ...(extra ?? {}) });
		const notes: string[] = [];
		if (stampOf(file, stream) === undefined) {
			notes.push(
				`${stream.sortBy} ${shown(file[stream.sortBy])} is not an RFC 3339 timestamp: the trigger cannot place this file among the others, so it emitted it once, apart from their order.`,
			);
		}
		for (const field of cutFields) {
			notes.push(`${shown(field)}: a value nested more than ${MAX_VALUE_DEPTH} levels deep was replaced by "${TOO_DEEP_MARKER}".`);
		}
		const json = withLeadingKeys(copy);
		if (notes.length > 0) {
			const kept = notes.length > MAX_NOTES ? [...notes.slice(0, MAX_NOTES - 1), `… and ${notes.length - MAX_NOTES + 1} more fields cut the same way.`] : notes;
			put(json, TRIGGER_NOTES_KEY, kept);
		}
		const [item] = withoutSecrets([{ json }], secrets);
		return { item, report: { cut: cutFields.length > 0, failed: false } };
	} catch (error) {
		return { item: fallbackItem(file, stream, error, secrets), report: { cut: false, failed: true } };
	}
}

/** The item that stands for a record the trigger could not make into an item: short values only. */
function fallbackItem(file: FileRecord, stream: FileStream, error: unknown, secrets: string[]): INodeExecutionData {
	const json: IDataObject = {};
	const id = fileIdOf(file);
	if (id !== undefined) json.fileId = id;
	for (const key of ['fileName', 'status'] as const) {
		const value = file[key];
		if (typeof value === 'string') json[key] = shown(value, secrets).slice(1, -1);
	}
	const stamp = stampOf(file, stream);
	if (stamp !== undefined) json[stream.sortBy] = stamp.text;
	const cause = error instanceof Error ? error.message : String(error);
	json.error = `The trigger could not make an item of this file's record (${shown(cause, secrets).slice(1, -1)}). Read it with the Document Extraction node (File > Get) by its fileId.`;
	return { json };
}
