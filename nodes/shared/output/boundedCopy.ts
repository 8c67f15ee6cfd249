import type { IDataObject } from 'n8n-workflow';

import { OUTPUT_LIMITS } from '../limits';

const { maxItemDepth: MAX_ITEM_DEPTH } = OUTPUT_LIMITS;

/** The key of a trigger item's notes on what the trigger could not show or place as the service sent it. */
export const TRIGGER_NOTES_KEY = 'triggerNotes';

/** What stands where a value nested deeper than OUTPUT_LIMITS.maxItemDepth was. */
export const TOO_DEEP_MARKER = `[not shown: nested more than ${MAX_ITEM_DEPTH} levels deep; see ${TRIGGER_NOTES_KEY}]`;

type Container = IDataObject | unknown[];

/** Sets `key` as an own data property: "__proto__" stays a key, never the copy's prototype. */
export function put(into: Container, key: string | number, value: unknown): void {
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
 * A copy of a record in which every array or object nested deeper than OUTPUT_LIMITS.maxItemDepth
 * is replaced by TOO_DEEP_MARKER (n8n can neither store nor show such a value: JSON.stringify
 * overflows its stack long before the 20,000 levels a service may send). One pass with an explicit
 * stack: no recursion, work linear in the part of the record it copies. Returns the top-level
 * fields that were cut.
 */
export function boundedCopy(record: IDataObject): { copy: IDataObject; cutFields: string[] } {
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
		} else if (depth > MAX_ITEM_DEPTH) {
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
