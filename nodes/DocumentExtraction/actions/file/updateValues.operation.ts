import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FieldValue } from '../../../shared/api';
import { updateFormValues } from '../../../shared/api';
import { valuesField } from '../../../shared/output/values';
import { optionsCollection } from '../../../shared/requestOptions';
import { fileIdParameter, inputModeOf, inputModeParameter, simplifyParameter } from '../../descriptions/common';
import { invalidParameter, requireBoolean, requireJson, requireOneOf } from '../../../shared/parameters';
import { readFileId } from './records';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [
	{ ...fileIdParameter, description: 'The file whose extracted values to change' },
	inputModeParameter('Define Values', {
		fields: 'Give each field title and its new value below',
		json: 'Give the fields and values as JSON',
	}),
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add field',
		default: {},
		displayOptions: { show: { inputMode: ['fields'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Total Amount',
						description: 'The title of the field, as Get Values shows it',
					},
					{
						displayName: 'Value Type',
						name: 'valueType',
						type: 'options',
						options: [
							{ name: 'Boolean', value: 'boolean' },
							{ name: 'Clear (Null)', value: 'null', description: 'Remove the value' },
							{
								name: 'JSON',
								value: 'json',
								description: 'An object, or a table as an array of row objects',
							},
							{ name: 'Number', value: 'number' },
							{ name: 'Text', value: 'string', description: 'Text, and dates as YYYY-MM-DD' },
						],
						default: 'string',
						description: 'How to send the value; match the type of the field',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						displayOptions: { hide: { valueType: ['null'] } },
						description: 'The new value',
					},
				],
			},
		],
	},
	{
		displayName: 'Values (JSON)',
		name: 'valuesJson',
		type: 'json',
		default: '[\n  { "title": "Total Amount", "value": 123.45 }\n]',
		required: true,
		displayOptions: { show: { inputMode: ['json'] } },
		description:
			'An array of { "title": …, "value": … }, an object { "fields": [ … ] } in that form, or an object { "Field Title": value, … }',
	},
	{
		...simplifyParameter,
		description:
			'Whether to output the file\'s values after the update as { field title: value } (tables as lists of row objects) instead of the raw form records',
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['file'], operation: ['updateValues'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const VALUE_TYPES = ['boolean', 'json', 'null', 'number', 'string'] as const;

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };

function typedValue(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	raw: unknown,
	valueType: string,
): unknown {
	if (valueType === 'null') return null;
	if (valueType === 'string') return typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
	if (valueType === 'number') {
		const number = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
		if (String(raw ?? '').trim() === '' || !Number.isFinite(number)) {
			throw invalidParameter(context, itemIndex, parameter, raw, 'a number such as 123.45');
		}
		return number;
	}
	if (valueType === 'boolean') {
		const flag = typeof raw === 'boolean' ? raw : BOOLEAN_WORDS[String(raw ?? '').trim().toLowerCase()];
		if (flag === undefined) throw invalidParameter(context, itemIndex, parameter, raw, 'true or false');
		return flag;
	}
	return jsonObjectOrArray(context, itemIndex, parameter, raw);
}

/** A JSON parameter (text, or a value from an expression) holding an object or an array. */
function jsonObjectOrArray(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	raw: unknown,
): IDataObject | unknown[] {
	const isArray = Array.isArray(raw) || (typeof raw === 'string' && raw.trim().startsWith('['));
	return isArray
		? requireJson(context, itemIndex, parameter, raw, 'array')
		: requireJson(context, itemIndex, parameter, raw, 'object');
}

function fieldsFromCollection(context: IExecuteFunctions, itemIndex: number): FieldValue[] {
	const collection = context.getNodeParameter('fields', itemIndex, {}) as IDataObject;
	const entries = Array.isArray(collection.field) ? (collection.field as IDataObject[]) : [];
	return entries.map((entry, position) => {
		const title = typeof entry.title === 'string' || typeof entry.title === 'number' ? String(entry.title).trim() : '';
		if (!title) throw invalidParameter(context, itemIndex, `Fields (field ${position + 1}) Title`, entry.title, 'the title of a field');
		const valueType = requireOneOf(context, itemIndex, `Fields (${title}) Value Type`, entry.valueType ?? 'string', VALUE_TYPES);
		return { title, value: typedValue(context, itemIndex, `Fields (${title}) Value`, entry.value, valueType) };
	});
}

function fieldsFromJson(context: IExecuteFunctions, itemIndex: number): FieldValue[] {
	const parameter = 'Values (JSON)';
	const parsed = jsonObjectOrArray(context, itemIndex, parameter, context.getNodeParameter('valuesJson', itemIndex));
	const entries = Array.isArray(parsed) ? parsed : Array.isArray(parsed.fields) ? (parsed.fields as unknown[]) : undefined;
	if (!entries) return Object.entries(parsed).map(([title, value]) => ({ title, value }));
	return entries.map((entry, position) => {
		const record = entry as IDataObject;
		if (!record || typeof record !== 'object' || typeof record.title !== 'string' || record.title.trim() === '' || !('value' in record)) {
			throw invalidParameter(context, itemIndex, `${parameter} entry ${position + 1}`, entry, '{ "title": "Field Title", "value": … }');
		}
		return { title: record.title.trim(), value: record.value };
	});
}

/**
 * Writes new values into fields of a file, then outputs the file's values as they now stand
 * (read back with GET /files/{fileId}/values, whose shape is documented).
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const inputMode = inputModeOf(this, itemIndex, 'Define Values');
	const fields =
		inputMode === 'json' ? fieldsFromJson(this, itemIndex) : fieldsFromCollection(this, itemIndex);
	if (fields.length === 0) {
		throw invalidParameter(this, itemIndex, inputMode === 'json' ? 'Values (JSON)' : 'Fields', [], 'at least one field and its value');
	}
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));

	await updateFormValues.call(this, fileId, fields, { policy });
	const values = await valuesField.call(this, fileId, policy, simplify);
	return [{ json: { fileId, updatedFields: fields.map(({ title }) => title), ...values } }];
}
