import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { FieldValue } from '../../../../shared/api';
import { updateFormValues } from '../../../../shared/api';
import { valuesField } from '../../../../shared/output/values';
import { inputModeOf, inputModeParameter } from '../../../descriptions/common';
import { invalidParameter, requireBoolean, requireOneOf } from '../../../../shared/parameters';
import { readFileId } from '../records';
import type { ItemPolicy } from '../../../../shared/run';
import { VALUES_JSON_PARAMETER, fieldsFromJson, jsonObjectOrArray } from './valuesJson';

/**
 * Update Values as typeVersion 1 has it, unchanged for the workflows saved with it: each field's
 * title and a value type typed by hand ("Field by Field"), or JSON. Its own parameters only; the
 * File, Values (JSON), Simplify and Options are the operation's (updateValues.operation.ts).
 */
export const propertiesV1: INodeProperties[] = [
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
];

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

/**
 * Writes new values into fields of a file, then outputs the file's values as they now stand
 * (read back with GET /files/{fileId}/values, whose shape is documented).
 */
export async function executeV1(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const inputMode = inputModeOf(this, itemIndex, 'Define Values');
	const fields =
		inputMode === 'json' ? fieldsFromJson(this, itemIndex) : fieldsFromCollection(this, itemIndex);
	if (fields.length === 0) {
		throw invalidParameter(this, itemIndex, inputMode === 'json' ? VALUES_JSON_PARAMETER : 'Fields', [], 'at least one field and its value');
	}
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));

	await updateFormValues(this, fileId, fields, { policy });
	const values = await valuesField(this, fileId, policy, simplify);
	return [{ json: { fileId, updatedFields: fields.map(({ title }) => title), ...values } }];
}
