/**
 * The invariants of Simplify (nodes/shared/output/simplifyForm.ts), checked on any form record
 * the service may send and the item made of it. Values are traced by tags: every string (and key)
 * the generators put in a value position starts with TAG, and numberTags gives each a number, so
 * a tag missing from the output is a value dropped. Every walk here is iterative: the inputs are
 * as deep as the code under test must survive.
 *
 * 1. It never throws, and its output can be written as JSON.
 * 2. Output bounded: at most as many values as the answer had, plus the notes (one list of at most
 *    OUTPUT_LIMITS.maxSimplifyNotes + 1 lines of at most NOTE_MAX_CHARS); no container deeper than
 *    OUTPUT_LIMITS.maxSimplifiedDepth levels below the item. The answer itself is bounded by Max Answer
 *    Size, a node option the user sets (64 MB by default).
 * 3. Nothing silently dropped: a value of the answer is in the output, or it stood deeper than the
 *    limit (where a marker stands) or in a field that is not a record, and the notes say so; every
 *    marker and every such field is counted by the notes.
 * 4. Key order: the form's fields in the service's order (JS puts integer-like keys first in any
 *    object), named as documented (repeats "x (2)" …, the notes key reserved); the notes, when
 *    there are any, first of the other keys; a value kept as sent keeps its keys' order.
 * 5. Linear: Simplify's steps (meter) stay under STEPS_PER_NODE per value of the answer.
 */
import type { IDataObject } from 'n8n-workflow';

import { OUTPUT_LIMITS } from '../../nodes/shared/limits';
import { NOT_SHOWN_MARKER, SIMPLIFY_NOTES_KEY } from '../../nodes/shared/output/simplify';

export const TAG = '§v';
const TAG_ID = /^§v(\d+):/;
export const NOTE_MAX_CHARS = 600;
export const STEPS_PER_NODE = 8;
const ADVICE = 'Turn off Simplify to get the raw form values (formValues).';

function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A field of the form's list: a record with a title, a value or items (the others are reported). */
function isFieldRecord(value: unknown): value is IDataObject {
	return isRecord(value) && ('title' in value || 'value' in value || 'items' in value);
}

function define(into: unknown[] | IDataObject, key: string | number, value: unknown): void {
	if (Array.isArray(into)) into[key as number] = value;
	else Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `value` with every TAG-prefixed string and key numbered: `§v12:` + the rest. */
export function numberTags(value: unknown): unknown {
	let next = 0;
	const tagged = (text: string) => (text.startsWith(TAG) ? `${TAG}${next++}:${text.slice(TAG.length)}` : text);
	const holder: IDataObject = {};
	const stack: Array<{ input: unknown; into: unknown[] | IDataObject; key: string | number }> = [{ input: value, into: holder, key: 'root' }];
	for (let job = stack.pop(); job; job = stack.pop()) {
		const { input } = job;
		if (typeof input === 'string') define(job.into, job.key, tagged(input));
		else if (Array.isArray(input)) {
			const list: unknown[] = [];
			define(job.into, job.key, list);
			input.forEach((item, index) => stack.push({ input: item, into: list, key: index }));
		} else if (isRecord(input)) {
			const object: IDataObject = {};
			define(job.into, job.key, object);
			const keys = Object.keys(input);
			const renamed = keys.map(tagged);
			for (const key of renamed) define(object, key, null);
			keys.forEach((key, index) => stack.push({ input: input[key], into: object, key: renamed[index] }));
		} else define(job.into, job.key, input);
	}
	return holder.root;
}

export interface Shape {
	/** Values (objects, lists, primitives) in it. */
	nodes: number;
	/** Containers on the longest path from the top (the top one counted). */
	depth: number;
	/** Each tag's depth, and whether it stands in a field of the form that is not a record. */
	tags: Map<string, { depth: number; inNonRecordField: boolean }>;
	/** Strings equal to the marker Simplify leaves where it did not render a value. */
	markers: number;
}

/** Counts and tags of `value`, walked iteratively; `nonRecordFieldsOf` marks the form's non-record fields. */
export function shapeOf(value: unknown, nonRecordFields: ReadonlySet<unknown> = new Set()): Shape {
	const shape: Shape = { nodes: 0, depth: 0, tags: new Map(), markers: 0 };
	const note = (text: string, depth: number, inNonRecordField: boolean) => {
		const id = TAG_ID.exec(text)?.[1];
		if (id !== undefined) shape.tags.set(id, { depth, inNonRecordField });
	};
	const stack: Array<{ value: unknown; depth: number; inNonRecordField: boolean }> = [{ value, depth: 0, inNonRecordField: false }];
	for (let job = stack.pop(); job; job = stack.pop()) {
		const { depth } = job;
		const inNonRecordField = job.inNonRecordField || nonRecordFields.has(job.value);
		shape.nodes++;
		if (typeof job.value === 'string') {
			if (job.value === NOT_SHOWN_MARKER) shape.markers++;
			note(job.value, depth, inNonRecordField);
		} else if (Array.isArray(job.value)) {
			shape.depth = Math.max(shape.depth, depth + 1);
			for (const item of job.value) stack.push({ value: item, depth: depth + 1, inNonRecordField });
		} else if (isRecord(job.value)) {
			shape.depth = Math.max(shape.depth, depth + 1);
			for (const key of Object.keys(job.value)) {
				note(key, depth + 1, inNonRecordField);
				stack.push({ value: job.value[key], depth: depth + 1, inNonRecordField });
			}
		}
	}
	return shape;
}

/** Names as documented, computed the plain (quadratic) way: the oracle of uniqueNames. */
export function expectedNames(titles: readonly string[], reserved: readonly string[]): string[] {
	const titled = new Set(titles);
	const given = new Set(reserved);
	return titles.map((title) => {
		if (!given.has(title)) {
			given.add(title);
			return title;
		}
		for (let suffix = 2; ; suffix++) {
			const name = `${title} (${suffix})`;
			if (!titled.has(name) && !given.has(name)) {
				given.add(name);
				return name;
			}
		}
	});
}

function titleOf(field: IDataObject): string {
	const { title } = field;
	if (typeof title === 'string') return title.trim() || 'untitled';
	if (typeof title === 'number' || typeof title === 'boolean') return String(title);
	return 'untitled';
}

/** How many values the notes report (the detailed lines, plus the count of the last line). */
function reportedCount(notes: string[]): number {
	return notes.reduce((sum, line) => {
		const more = /^… and (\d+) more values/.exec(line);
		return sum + (more ? Number(more[1]) : 1);
	}, 0);
}

/** Checks invariants 1 to 4 (and 5 with `steps`) of `output`, Simplify's item for `form`; throws on the first broken. */
export function checkSimplified(form: unknown, output: IDataObject, steps?: number): void {
	const fields = isRecord(form) && Array.isArray(form.fields) ? (form.fields as unknown[]) : undefined;
	const nonRecordFields = new Set((fields ?? []).filter((field) => !isFieldRecord(field)));
	const input = shapeOf(form, nonRecordFields);
	const out = shapeOf(output);
	const notes = (output[SIMPLIFY_NOTES_KEY] as string[] | undefined) ?? [];

	// 1 and 2: writable as JSON, bounded.
	expect(() => JSON.stringify(output)).not.toThrow();
	// The item and the 100 levels below it.
	expect(out.depth).toBeLessThanOrEqual(OUTPUT_LIMITS.maxSimplifiedDepth + 1);
	expect(notes.length).toBeLessThanOrEqual(OUTPUT_LIMITS.maxSimplifyNotes + 1);
	for (const line of notes) {
		expect(line.length).toBeLessThanOrEqual(NOTE_MAX_CHARS);
		expect(line.endsWith(ADVICE)).toBe(true);
	}
	expect(out.nodes).toBeLessThanOrEqual(input.nodes + 1 + notes.length);

	// 3: every tag is in the output, or stood past the depth limit or in a non-record field, and was reported.
	const unreported: string[] = [];
	for (const [id, where] of input.tags) {
		if (out.tags.has(id)) continue;
		const explained = fields === undefined || where.inNonRecordField || where.depth > OUTPUT_LIMITS.maxSimplifiedDepth + 2;
		if (!explained || notes.length === 0) unreported.push(`${id} at depth ${where.depth}`);
	}
	expect(unreported).toEqual([]);
	expect(reportedCount(notes)).toBeGreaterThanOrEqual(out.markers + nonRecordFields.size);

	// 4: the fields' names and order; the notes first of the other keys; values kept as sent keep their keys' order.
	if (fields !== undefined) {
		const records = fields.filter(isFieldRecord);
		const names = expectedNames(records.map(titleOf), [SIMPLIFY_NOTES_KEY]);
		const keys = Object.keys(output);
		expect(keys.filter((key) => key !== SIMPLIFY_NOTES_KEY)).toEqual(Object.keys(Object.fromEntries(names.map((name) => [name, 0]))));
		if (notes.length > 0) expect(keys.find((key) => !/^(0|[1-9]\d*)$/.test(key))).toBe(SIMPLIFY_NOTES_KEY);
		records.forEach((field, index) => {
			const { value } = field;
			if (!isRecord(value) || shapeOf(value).depth > OUTPUT_LIMITS.maxSimplifiedDepth - 2) return;
			expect(JSON.stringify(output[names[index]])).toBe(JSON.stringify(value));
		});
	}

	// 5: linear in the answer.
	if (steps !== undefined) expect(steps).toBeLessThanOrEqual(STEPS_PER_NODE * input.nodes + 16);
}
