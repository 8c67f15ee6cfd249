import type { IDataObject } from 'n8n-workflow';

import { OUTPUT_LIMITS } from '../limits';
import type { SimplifyMeter } from '../uniqueNames';
import { uniqueNames } from '../uniqueNames';

/**
 * Simplify of extracted values: a form's fields become `{ field title: value }` and a table
 * becomes an array of row objects keyed by column title.
 *
 * Whatever the service sends (any depth, any width, keys such as "__proto__"), this never throws,
 * works in one pass without recursion (an explicit stack: no call stack to overflow), and drops no
 * value without a word: a value it cannot render (nested deeper than OUTPUT_LIMITS.maxSimplifiedDepth,
 * a field that is not a record) is reported under SIMPLIFY_NOTES_KEY in the same item, with the
 * field's place, why, and what to do (turn Simplify off). Rows whose shape is not a list of fields
 * are kept as sent, never emptied.
 */

/** The key of the notes on values Simplify could not render; a field with this title is renamed. */
export const SIMPLIFY_NOTES_KEY = 'simplifyNotes';

/** What stands where a value was not rendered; the notes say why. */
export const NOT_SHOWN_MARKER = `[not shown by Simplify: see ${SIMPLIFY_NOTES_KEY}]`;

export type { SimplifyMeter };

interface ExtractedField {
	title?: unknown;
	value?: unknown;
	items?: unknown;
}

type Container = IDataObject | unknown[];

/** A place in the item, as a chain to the root: built into text only for a note. */
interface Place {
	parent?: Place;
	segment: string;
}

function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isField(value: unknown): value is ExtractedField {
	return isRecord(value) && 'title' in value;
}

/** A list of fields: non-empty, every entry a record with a title. */
function isFieldList(value: unknown, meter?: SimplifyMeter): value is ExtractedField[] {
	if (!Array.isArray(value) || value.length === 0) return false;
	if (meter) meter.steps += value.length;
	return value.every(isField);
}

/** Sets `key` as an own data property: "__proto__" stays a key, never the object's prototype. */
function put(into: Container, key: string | number, value: unknown): void {
	if (Array.isArray(into)) into[key as number] = value;
	else Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

const SEGMENT_CHARS = 40;
const SHOWN_SEGMENTS = 3;

/** "Lines › row 2 › Amount", each part cut to 40 characters, the middle left out past 6 parts. */
function placeText(place: Place): string {
	const segments: string[] = [];
	let count = 0;
	// A place is never deeper than the depth limit allows (a deeper value is reported, not entered),
	// and only the first maxSimplifyNotes notes are written out: this walk costs no more than that.
	for (let at: Place | undefined = place; at; at = at.parent) {
		count++;
		segments.push(at.segment.length > SEGMENT_CHARS ? `${at.segment.slice(0, SEGMENT_CHARS - 1)}…` : at.segment);
	}
	segments.reverse();
	const shown = count > 2 * SHOWN_SEGMENTS ? [...segments.slice(0, SHOWN_SEGMENTS), '…', ...segments.slice(-SHOWN_SEGMENTS)] : segments;
	return shown.join(' › ');
}

/** One value to render into `into[key]`, `depth` levels below the item. */
interface Job {
	/** `fields`: a list of fields → an object; `value`: a field's value; `row`: a table row; `copy`: as sent. */
	kind: 'fields' | 'value' | 'row' | 'copy';
	input: unknown;
	into: Container;
	key: string | number;
	depth: number;
	place: Place;
}

/** Renders a form's fields with an explicit stack; collects the notes. */
class Renderer {
	private readonly jobs: Job[] = [];
	readonly notes: string[] = [];
	private notShown = 0;

	constructor(private readonly meter?: SimplifyMeter) {}

	note(place: Place, problem: string): void {
		this.notShown++;
		if (this.notes.length < OUTPUT_LIMITS.maxSimplifyNotes) {
			this.notes.push(`${placeText(place)}: ${problem}. Turn off Simplify to get the raw form values (formValues).`);
		}
	}

	/** The notes, the ones past the limit counted in a last line. */
	allNotes(): string[] {
		const more = this.notShown - this.notes.length;
		return more > 0 ? [...this.notes, `… and ${more} more values not shown for the same reasons. Turn off Simplify to get the raw form values (formValues).`] : this.notes;
	}

	push(job: Job): void {
		this.jobs.push(job);
	}

	run(): void {
		for (let job = this.jobs.pop(); job; job = this.jobs.pop()) {
			if (this.meter) this.meter.steps++;
			if (job.depth > OUTPUT_LIMITS.maxSimplifiedDepth && job.input !== null && typeof job.input === 'object') {
				put(job.into, job.key, NOT_SHOWN_MARKER);
				this.note(job.place, `nested deeper than ${OUTPUT_LIMITS.maxSimplifiedDepth} levels, which n8n cannot store or show reliably`);
				continue;
			}
			this[job.kind](job);
		}
	}

	/**
	 * A list of fields as `{ name: value }`; an entry that is not a field record (not an object, or
	 * one without title, value or items) is reported. A field's other keys (type, description, …)
	 * describe it: Simplify leaves them out by design.
	 */
	private fields(job: Job, reserved: readonly string[] = []): void {
		const object: IDataObject = {};
		put(job.into, job.key, object);
		const entries = job.input as unknown[];
		const fields: ExtractedField[] = [];
		const titles: string[] = [];
		entries.forEach((entry, index) => {
			if (this.meter) this.meter.steps++;
			if (!isRecord(entry) || !('title' in entry || 'value' in entry || 'items' in entry)) {
				const kind = entry === null ? 'null' : Array.isArray(entry) ? 'a list' : isRecord(entry) ? 'a record without title, value or items' : `a ${typeof entry}`;
				this.note({ parent: job.place, segment: `field ${index + 1}` }, `is ${kind}, not a field record, so it has no title to show it under`);
				return;
			}
			fields.push(entry);
			titles.push(this.titleOf(entry, job.place, index));
		});
		const names = uniqueNames(titles, reserved, this.meter);
		// The keys in the fields' order first; the values are pushed last first, so filled in order.
		for (let index = 0; index < fields.length; index++) put(object, names[index], null);
		for (let index = fields.length - 1; index >= 0; index--) {
			this.push({ kind: 'value', input: fields[index], into: object, key: names[index], depth: job.depth + 1, place: { parent: job.place, segment: names[index] } });
		}
	}

	private titleOf(field: ExtractedField, place: Place, index: number): string {
		const { title } = field;
		if (typeof title === 'string') return title.trim() || 'untitled';
		if (typeof title === 'number' || typeof title === 'boolean') return String(title);
		if (title !== undefined && title !== null) {
			this.note({ parent: place, segment: `field ${index + 1}` }, 'has a title that is not text; its value is shown under "untitled"');
		}
		return 'untitled';
	}

	/**
	 * A field's value. Tables: the API gives the rows in `value` (objects keyed by column title, or
	 * lists of fields), `items` then holds the column definitions. Rows given in `items` instead,
	 * as lists of fields, when `value` is empty; `items` that are neither are shown as sent.
	 */
	private value(job: Job): void {
		const { value, items } = job.input as ExtractedField;
		const next = { into: job.into, key: job.key, depth: job.depth, place: job.place };
		if (Array.isArray(value)) return this.rows(value, next);
		if (value !== null && value !== undefined) return this.push({ kind: 'copy', input: value, ...next });
		if (items === null || items === undefined || (Array.isArray(items) && items.length === 0)) return put(job.into, job.key, null);
		if (!Array.isArray(items)) return this.push({ kind: 'copy', input: items, ...next });
		if (this.meter) this.meter.steps += items.length;
		if (items.every((row) => Array.isArray(row))) return this.rows(items, next);
		if (items.every(isField)) {
			// Column definitions carry no value: the field is empty. Fields with values are a record.
			if (items.every((item) => this.carriesNoValue(item))) return put(job.into, job.key, null);
			return this.push({ kind: 'fields', input: items, ...next });
		}
		this.push({ kind: 'copy', input: items, ...next });
	}

	/** Fields judged by carriesNoValue, each once, so nested definitions cost linear time. */
	private readonly valueless = new WeakMap<object, boolean>();

	/**
	 * Whether a field is a column definition: no value, and its items, if any, fields that carry
	 * none either (a nested table's columns). Iterative, and each field is judged once.
	 */
	private carriesNoValue(field: ExtractedField): boolean {
		const stack: Array<{ field: ExtractedField; opened: boolean }> = [{ field, opened: false }];
		while (stack.length > 0) {
			const top = stack[stack.length - 1];
			const { value, items } = top.field;
			const noItems = items === null || items === undefined || (Array.isArray(items) && items.length === 0);
			if (this.meter) this.meter.steps++;
			if (this.valueless.has(top.field)) {
				stack.pop();
			} else if ((value !== null && value !== undefined) || (!noItems && !isFieldList(items))) {
				this.valueless.set(top.field, false);
				stack.pop();
			} else if (noItems) {
				this.valueless.set(top.field, true);
				stack.pop();
			} else if (!top.opened) {
				top.opened = true;
				for (const item of items as ExtractedField[]) if (!this.valueless.has(item)) stack.push({ field: item, opened: false });
			} else {
				this.valueless.set(top.field, (items as ExtractedField[]).every((item) => this.valueless.get(item) === true));
				stack.pop();
			}
		}
		return this.valueless.get(field) === true;
	}

	private rows(rows: unknown[], at: Omit<Job, 'kind' | 'input'>): void {
		const list: unknown[] = new Array(rows.length).fill(null);
		put(at.into, at.key, list);
		for (let index = rows.length - 1; index >= 0; index--) {
			this.push({ kind: 'row', input: rows[index], into: list, key: index, depth: at.depth + 1, place: { parent: at.place, segment: `row ${index + 1}` } });
		}
	}

	/** A row: a list of fields, or `{ fields: [...] }` alone, becomes `{ title: value }`; any other row is kept as sent. */
	private row(job: Job): void {
		const { input } = job;
		if (isFieldList(input, this.meter)) return this.fields(job);
		if (isRecord(input) && Object.keys(input).length === 1 && isFieldList(input.fields, this.meter)) {
			return this.fields({ ...job, input: input.fields });
		}
		this.copy(job);
	}

	/** A value as sent (a copy: own keys only, "__proto__" kept as a key), depth-bounded. */
	private copy(job: Job): void {
		const { input } = job;
		if (input === null || typeof input !== 'object') return put(job.into, job.key, input);
		if (Array.isArray(input)) {
			const list: unknown[] = new Array(input.length).fill(null);
			put(job.into, job.key, list);
			for (let index = input.length - 1; index >= 0; index--) {
				this.push({ kind: 'copy', input: input[index], into: list, key: index, depth: job.depth + 1, place: { parent: job.place, segment: `[${index}]` } });
			}
			return;
		}
		const object: IDataObject = {};
		put(job.into, job.key, object);
		const keys = Object.keys(input);
		for (const key of keys) put(object, key, null);
		for (let index = keys.length - 1; index >= 0; index--) {
			const key = keys[index];
			this.push({ kind: 'copy', input: (input as IDataObject)[key], into: object, key, depth: job.depth + 1, place: { parent: job.place, segment: key } });
		}
	}

	/** The top level: the form's fields, the notes key reserved. */
	form(fields: unknown[], root: IDataObject): IDataObject {
		this.fields({ kind: 'fields', input: fields, into: root, key: 'form', depth: 0, place: { segment: 'values' } }, [SIMPLIFY_NOTES_KEY]);
		this.run();
		return root.form as IDataObject;
	}
}

/**
 * One form value record of GET /files/{fileId}/values, simplified: `{ field title: value }`,
 * and `simplifyNotes` (first) when a value could not be rendered.
 */
export function simplifyFormValue(formValue: unknown, meter?: SimplifyMeter): IDataObject {
	const renderer = new Renderer(meter);
	const fields = isRecord(formValue) ? formValue.fields : undefined;
	const root: IDataObject = {};
	let simplified: IDataObject = {};
	if (Array.isArray(fields)) simplified = renderer.form(fields, root);
	else if (!isRecord(formValue)) renderer.note({ segment: 'values' }, 'the form record is not an object, so it has no list of fields');
	else renderer.note({ parent: { segment: 'values' }, segment: 'fields' }, fields === undefined || fields === null ? 'missing: the form record has no list of fields' : 'is not a list of fields');
	const notes = renderer.allNotes();
	return notes.length ? (Object.fromEntries([[SIMPLIFY_NOTES_KEY, notes], ...Object.entries(simplified)]) as IDataObject) : simplified;
}
