/**
 * Generated form records of GET /files/{fileId}/values, as a hostile or careless service may send
 * them: fields with any titles (repeated, "__proto__", "simplifyNotes", not text, empty), values of
 * any shape (deep, wide, huge strings, odd keys), tables with rows as objects, lists of fields or
 * `{ fields }`, rows or records given in `items`, column definitions, and entries that are not
 * fields at all. Strings and keys in value positions start with TAG (numbered later by
 * numberTags), so the invariants can trace every value. Cycle-free, as JSON is.
 */
import fc from 'fast-check';

import { TAG, shapeOf } from './simplify-invariants';

/** Keys that trip naive code: Object.prototype's names, integer-like keys, our own keys. */
export const oddKey = fc.oneof(
	fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '', '  ', '1', '01', '-1', '4294967295', 'simplifyNotes', 'title', 'value', 'items', 'fields', 'x (2)', 'untitled'),
	fc.string({ maxLength: 6 }),
);

/** A value's text: a tag, sometimes a huge one. */
const taggedText = fc.oneof(
	{ weight: 6, arbitrary: fc.constant(TAG) },
	{ weight: 1, arbitrary: fc.integer({ min: 1_000, max: 100_000 }).map((length) => TAG + 'x'.repeat(length)) },
);

const otherPrimitive = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constant(-0));

/** Plain JSON-like values (objects built with own keys, "__proto__" included), tagged or not. */
function plainValues(text: fc.Arbitrary<string>, key: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
	const { value } = fc.letrec<{ value: unknown; list: unknown[]; object: Record<string, unknown> }>((tie) => ({
		value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.oneof(text, text, otherPrimitive), tie('list'), tie('object')),
		list: fc.array(tie('value'), { maxLength: 4 }),
		object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
	}));
	return value;
}

/** `levels` lists (or objects under `key`) around `leaf`, built without recursion. */
export function nested(levels: number, leaf: unknown, key?: string): unknown {
	let value = leaf;
	for (let level = 0; level < levels; level++) value = key === undefined ? [value] : Object.fromEntries([[key, value]]);
	return value;
}

const tagged = plainValues(taggedText, fc.oneof(oddKey, fc.constant(TAG)));
/**
 * Tagged values that are never read as a field (no key title, value or items): for places where
 * a field may stand. A field's other keys describe it and Simplify leaves them out by design, so
 * a tag there would be dropped on purpose.
 */
const taggedNotAField = plainValues(taggedText, fc.oneof(oddKey, fc.constant(TAG)).filter((key) => !['title', 'value', 'items'].includes(key)));
/** Tagged values that are not a form either (no key "fields"): a form's own keys describe it, left out by design. */
const taggedNotAForm = plainValues(taggedText, fc.oneof(oddKey, fc.constant(TAG)).filter((key) => !['title', 'value', 'items', 'fields'].includes(key)));
/** A record value: kept as sent whatever its keys, so any key may stand in it, "title" included. */
const taggedRecord = fc.array(fc.tuple(fc.oneof(oddKey, fc.constant(TAG)), tagged), { maxLength: 4 }).map((entries) => Object.fromEntries(entries));
const untagged = plainValues(fc.string({ maxLength: 8 }), oddKey);

/** Values past the depth limit (100): lists or objects, 95 to `maxDepth` deep. */
function deepValue(maxDepth: number): fc.Arbitrary<unknown> {
	return fc
		.record({ levels: fc.integer({ min: 95, max: maxDepth }), asObject: fc.boolean(), key: oddKey, leaf: tagged })
		.map(({ levels, asObject, key, leaf }) => nested(levels, leaf, asObject ? key : undefined));
}

/** A wide value: up to 2,000 tagged entries in a list or an object. */
const wideValue = fc.record({ width: fc.integer({ min: 50, max: 2_000 }), asObject: fc.boolean() }).map(({ width, asObject }) => {
	const entries = Array.from({ length: width }, (_, index) => [`${TAG}k${index}`, TAG] as const);
	return asObject ? Object.fromEntries(entries) : entries.map(([, value]) => value);
});

/** A field's title: repeated, reserved, empty, or not text at all (a list up to `maxDeep` deep). */
function titles(maxDeep: number): fc.Arbitrary<unknown> {
	return fc.oneof(
		{ weight: 4, arbitrary: fc.constantFrom('x', 'x', 'x (2)', 'Total', 'simplifyNotes', '__proto__', 'constructor', '', '  ', '1', 'untitled', 'untitled (2)') },
		{ weight: 2, arbitrary: fc.string({ maxLength: 4 }) },
		{ weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), untagged, fc.integer({ min: 100, max: maxDeep }).map((levels) => nested(levels, 'x'))) },
	);
}

const fieldType = fc.constantFrom('string', 'number', 'date', 'array', 'object');

/** Column definitions: fields without values, a nested table's columns in `items`; no value in them. */
function columnDefinitions(title: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> {
	return fc.letrec<{ column: unknown; columns: unknown[] }>((tie) => ({
		column: fc.record({ title, type: fieldType, value: fc.constant(null), items: fc.oneof({ depthSize: 'small' }, fc.constant(null), tie('columns')) }),
		columns: fc.array(tie('column'), { minLength: 1, maxLength: 3 }),
	})).columns;
}

export interface FieldArbitraries {
	field: unknown;
	fields: unknown[];
	row: unknown;
}

/** Fields, tables and rows, of any shape, `maxDeep` the deepest value generated. */
export function fieldArbitraries(maxDeep: number): fc.Arbitrary<unknown> {
	const title = titles(maxDeep);
	const columns = columnDefinitions(title);
	const { field } = fc.letrec<FieldArbitraries>((tie) => {
		const rows = fc.array(tie('row'), { maxLength: 4 });
		const givenValue = fc.oneof(
			{ weight: 4, arbitrary: taggedNotAField },
			{ weight: 2, arbitrary: taggedRecord },
			{ weight: 3, arbitrary: rows },
			{ weight: 1, arbitrary: deepValue(maxDeep) },
			{ weight: 1, arbitrary: wideValue },
		);
		const itemsWithoutValue = fc.oneof(
			fc.constant(null),
			columns,
			fc.array(fc.array(tie('field'), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
			tie('fields'),
			taggedNotAField,
		);
		return {
			field: fc.oneof(
				{ depthSize: 'small', withCrossShrink: true },
				fc.record({ title, type: fieldType, description: fc.string({ maxLength: 6 }), value: givenValue, items: fc.oneof(fc.constant(null), columns) }, { requiredKeys: ['title', 'value'] }),
				fc.record({ title, type: fieldType, value: fc.constant(null), items: itemsWithoutValue }, { requiredKeys: [] }),
			),
			fields: fc.array(tie('field'), { minLength: 1, maxLength: 3 }),
			row: fc.oneof(
				{ depthSize: 'small', withCrossShrink: true },
				taggedNotAField,
				tie('fields'),
				tie('fields').map((fields) => ({ fields })),
				fc.tuple(tie('fields'), taggedNotAField).map(([fields, extra]) => ({ fields, extra })),
				fc.array(fc.oneof(tie('field'), taggedNotAField), { minLength: 1, maxLength: 3 }),
			),
		};
	});
	return field;
}

/**
 * `value` as fast-check prints it in a counterexample: its JSON cut to 2,000 characters, or its
 * size and depth when it is too deep for JSON.stringify (fast-check's own printer recurses too).
 */
function printable<T>(value: T): T {
	if (value === null || typeof value !== 'object') return value;
	Object.defineProperty(value, fc.toStringMethod, {
		enumerable: false,
		value: () => {
			try {
				const text = JSON.stringify(value);
				return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
			} catch {
				const { nodes, depth } = shapeOf(value);
				return `(a value of ${nodes} nodes, ${depth} levels deep)`;
			}
		},
	});
	return value;
}

/**
 * A form record: mostly `{ id, fields: [...] }` with a few entries that are not fields (null,
 * text, lists); sometimes very many fields with few titles; rarely not a form at all.
 */
export function formRecord(maxDeep = 3_000): fc.Arbitrary<unknown> {
	const field = fieldArbitraries(maxDeep);
	const entry = fc.oneof({ weight: 10, arbitrary: field }, { weight: 1, arbitrary: taggedNotAField });
	const wideForm = fc
		.record({ count: fc.integer({ min: 100, max: 1_000 }), titles: fc.array(fc.constantFrom('x', 'x (2)', 'x (3)', 'y', 'simplifyNotes'), { minLength: 1, maxLength: 4 }) })
		.map(({ count, titles }) => ({ id: 'wide', fields: Array.from({ length: count }, (_, index) => ({ title: titles[index % titles.length], value: TAG })) }));
	return fc
		.oneof(
			{ weight: 20, arbitrary: fc.array(entry, { maxLength: 6 }).map((fields) => ({ id: 'form', fileId: 'file', fields })) },
			{ weight: 2, arbitrary: wideForm },
			{ weight: 1, arbitrary: fc.oneof(fc.constant(null), taggedNotAForm, taggedNotAField.map((fields) => ({ id: 'form', fields }))) },
		)
		.map(printable);
}

/** How a very deep form nests: a value, a table in a table, a record in `items`, a `{ fields }` row, a title. */
export const DEEP_SHAPES = ['list', 'object', 'tables', 'items', 'fieldsRows', 'title'] as const;

/** One field nested `levels` deep in the way `shape` says, a tag at the bottom; built without recursion. */
export function deepField(shape: (typeof DEEP_SHAPES)[number], levels: number, key: string): unknown {
	switch (shape) {
		case 'list':
			return { title: 'Deep', value: nested(levels, TAG) };
		case 'object':
			return { title: 'Deep', value: nested(levels, TAG, key) };
		case 'title':
			return { title: nested(levels, 'x'), value: TAG };
	}
	let field: unknown = { title: 'Leaf', value: TAG };
	for (let level = 0; level < levels; level++) {
		if (shape === 'tables') field = { title: key, value: [[field]] };
		else if (shape === 'items') field = { title: key, value: null, items: [field] };
		else field = { title: key, value: [{ fields: [field] }] };
	}
	return field;
}

/** A form of one very deep field (3,000 to 50,000 levels) among shallow ones. */
export const veryDeepForm = fc
	.record({ shape: fc.constantFrom(...DEEP_SHAPES), levels: fc.integer({ min: 3_000, max: 50_000 }), key: oddKey, before: fc.boolean() })
	.map(({ shape, levels, key, before }) => {
		const deep = deepField(shape, levels, key);
		const shallow = { title: 'Total', value: TAG };
		return printable({ id: 'deep', fields: before ? [deep, shallow] : [shallow, deep] });
	});
