import type { FieldType, IDataObject, INode, ResourceMapperField } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { SCHEMA_LIMITS } from '../limits';
import { convertValue, isEmptyValue } from './convert';
import type { SchemaField } from './fields';

/**
 * A file's fields as the editor's field mapper (n8n's resource mapper) shows them: the one
 * mapping from the service's kinds to n8n's field types. A choice field becomes a dropdown of its
 * allowed values, a date n8n's date picker (the date is what is written), an object n8n's JSON
 * editor, a table the same editor holding an array of row objects.
 */
export function mapperType(field: Pick<SchemaField, 'kind' | 'enumValues'>): FieldType {
	switch (field.kind) {
		case 'string':
			return field.enumValues.length ? 'options' : 'string';
		case 'number':
			return 'number';
		case 'boolean':
			return 'boolean';
		case 'date':
			return 'dateTime';
		case 'object':
			return 'object';
		case 'table':
			return 'array';
		default:
			return 'string';
	}
}

/** Whether two mapper types hold the same kind of value: a choice is text with a list of values. */
export function sameValueType(saved: unknown, live: FieldType): boolean {
	const base = (type: unknown) => (type === 'options' ? 'string' : type);
	return base(saved) === base(live);
}

/** "Order Lines (table: Item, Quantity, …)", "Order Date (date)", "Notes (hidden)", "Reference (read-only)". */
function displayNameOf(field: SchemaField): string {
	const notes: string[] = [];
	if (field.kind === 'date') notes.push('date');
	if (field.kind === 'table') {
		const shown = field.columns.slice(0, SCHEMA_LIMITS.tableColumnsInLabel).map((column) => column.title);
		notes.push(`table: ${shown.join(', ')}${field.columns.length > shown.length ? ', …' : ''}`);
	}
	if (field.hidden) notes.push('hidden');
	if (field.repeated) notes.push('title repeated, read-only');
	else if (field.readOnly) notes.push('read-only');
	return notes.length ? `${field.name} (${notes.join('; ')})` : field.name;
}

const START_VALUE_KINDS: ReadonlySet<SchemaField['kind']> = new Set(['string', 'number', 'boolean', 'date']);

/**
 * What a field the user adds to the mapper starts from (n8n's `defaultValue`): the file's current
 * value, read by the one converter as a write would take it (text, a number, true/false, a date,
 * one of a choice's values). None for a file type's fields, an object or a table (the editor's
 * start value is a single text, number or true/false), a read-only field, a value the converter
 * does not take, or text longer than SCHEMA_LIMITS.maxMapperStartValueChars.
 */
function startValue(field: SchemaField, readOnly: boolean): string | number | boolean | undefined {
	if (readOnly || !START_VALUE_KINDS.has(field.kind) || isEmptyValue(field.current)) return undefined;
	const converted = convertValue(field.current, field, true);
	if (!converted.ok) return undefined;
	const { value } = converted;
	if (typeof value === 'string') return value.length <= SCHEMA_LIMITS.maxMapperStartValueChars ? value : undefined;
	return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

/** The mapper's field for one of the file's fields. */
function mapperField(field: SchemaField): ResourceMapperField {
	const type = mapperType(field);
	const readOnly = field.readOnly || field.repeated;
	const defaultValue = startValue(field, readOnly);
	return {
		id: field.name,
		displayName: displayNameOf(field),
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type,
		...(type === 'options' ? { options: field.enumValues.map((value) => ({ name: value, value })) } : {}),
		...(defaultValue !== undefined ? { defaultValue } : {}),
		// As Airtable shows computed fields: listed under "Add field", its input disabled.
		...(readOnly ? { readOnly: true, removed: true } : {}),
	};
}

/**
 * The mapper's fields of `fields`: hidden ones only when asked. A list longer than
 * SCHEMA_LIMITS.maxMapperFields fails with a message that says what to use instead (the editor
 * renders every field of the list, and the saved node keeps them all).
 */
export function mapperFields(node: INode, fields: SchemaField[], options: { includeHidden: boolean; source: string }): ResourceMapperField[] {
	const shown = options.includeHidden ? fields : fields.filter((field) => !field.hidden);
	if (shown.length > SCHEMA_LIMITS.maxMapperFields) {
		throw new NodeOperationError(
			node,
			`The ${options.source} has ${shown.length.toLocaleString('en-US')} fields, more than the ${SCHEMA_LIMITS.maxMapperFields.toLocaleString('en-US')} the field mapper lists`,
			{
				description:
					'Set Input Mode to "Using JSON" and give { "Field Title": value, … }, or choose Map Automatically to take the fields from the input items; both check the fields against the file when the node runs.',
			},
		);
	}
	return shown.map(mapperField);
}

/** The node's saved field list (columns.schema: the fields as the user mapped them), by field id. */
export function savedFieldsById(schema: unknown): Map<string, IDataObject> {
	const byId = new Map<string, IDataObject>();
	if (!Array.isArray(schema)) return byId;
	for (const entry of schema) {
		if (entry && typeof entry === 'object' && typeof (entry as IDataObject).id === 'string') byId.set((entry as IDataObject).id as string, entry as IDataObject);
	}
	return byId;
}
