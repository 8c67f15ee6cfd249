import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, endpointName, patchSchemaFields } from '../../../shared/api';
import { COMMA_OR_NEW_LINE, invalidParameter, requireJson, requireObjectId, requireTextList } from '../../../shared/parameters';
import { optionsCollection } from '../../../shared/requestOptions';
import { inputModeOf, inputModeParameter } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';

const DEPRECATION = `The API has deprecated ${endpointName(ENDPOINTS.patchSchemaFields)}, which this operation calls, and will remove it in a future version`;

const FIELD_TYPES = ['STRING', 'NUMBER', 'BOOLEAN', 'DATE', 'OBJECT'];

const properties: INodeProperties[] = [
	{
		displayName: `${DEPRECATION}. To change the values extracted from a file, use File > Update Values.`,
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Schema ID',
		name: 'schemaId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 6650a00000000000000c0002',
		description: 'The schema (version) to patch: the schemaId of File Type > Get Many',
	},
	inputModeParameter('Define Fields', {
		fields: 'Name each field below and choose the properties to set',
		json: 'Give the field definitions as a JSON array',
	}),
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add field',
		description:
			'Each entry changes the field with that ID (or, without an ID, that title); a title the schema does not have adds a field (it then needs a type)',
		displayOptions: { show: { inputMode: ['fields'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field ID',
						name: 'id',
						type: 'string',
						default: '',
						description: 'The ID of the field to change; leave empty to match by title',
					},
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						description: 'The field\'s title: finds the field when no ID is given, renames it when one is',
					},
					{
						displayName: 'Properties to Set',
						name: 'properties',
						type: 'collection',
						placeholder: 'Add property',
						default: {},
						options: [
							{ displayName: 'Description', name: 'description', type: 'string', default: '' },
							{
								displayName: 'Enum Values',
								name: 'enumValues',
								type: 'string',
								default: '',
								placeholder: 'e.g. Cash, Card, Voucher',
								description: 'Allowed values, separated by commas or new lines',
							},
							{
								displayName: 'Format',
								name: 'format',
								type: 'string',
								default: '',
								placeholder: 'e.g. YYYY-MM-DD',
							},
							{
								displayName: 'Hidden',
								name: 'hidden',
								type: 'boolean',
								default: false,
								description: 'Whether the field is hidden',
							},
							{
								displayName: 'Internet Context',
								name: 'internet_context',
								type: 'boolean',
								default: false,
								description: 'Whether extraction may use internet context for this field',
							},
							{
								displayName: 'Type',
								name: 'type',
								type: 'options',
								options: FIELD_TYPES.map((type) => ({
									name: type.charAt(0) + type.slice(1).toLowerCase(),
									value: type,
								})),
								default: 'STRING',
							},
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Fields (JSON)',
		name: 'fieldsJson',
		type: 'json',
		default: '[\n  { "title": "Invoice Number", "description": "Number printed on the invoice" }\n]',
		required: true,
		description:
			'An array of field definitions: ID, title, description, type (STRING, NUMBER, BOOLEAN, DATE, OBJECT), format, hidden, internet_context, fieldSuggestion, items, value, enumValues, inlineListType',
		displayOptions: { show: { inputMode: ['json'] } },
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['schema'], operation: ['updateFields'] } };

export const description = updateDisplayOptions(displayOptions, properties);

function fieldsFromForm(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const entries = (this.getNodeParameter('fields.field', itemIndex, []) as IDataObject[]) ?? [];
	return entries.map((entry, position) => {
		const field: IDataObject = {};
		if (typeof entry.id === 'string' && entry.id.trim()) field.id = entry.id.trim();
		if (typeof entry.title === 'string' && entry.title.trim()) field.title = entry.title.trim();
		const { enumValues, ...rest } = (entry.properties ?? {}) as IDataObject;
		Object.assign(field, rest);
		if (enumValues !== undefined) {
			field.enumValues = requireTextList(
				this,
				itemIndex,
				`Fields (field ${position + 1}) Enum Values`,
				enumValues,
				COMMA_OR_NEW_LINE,
				'values separated by commas or new lines, or an array of texts',
			);
		}
		return field;
	});
}

/** Checks each definition names a field (by id or title) and spells its type as the API wants. */
function checkedFields(
	this: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	fields: unknown[],
): IDataObject[] {
	if (!fields.length) {
		throw invalidParameter(this, itemIndex, parameter, fields, 'at least one field definition');
	}
	return fields.map((value, index) => {
		const entry = `${parameter} (field ${index + 1})`;
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			throw invalidParameter(this, itemIndex, entry, value, 'an object such as { "title": "Total", "type": "NUMBER" }');
		}
		const field = { ...(value as IDataObject) };
		if (!field.id && !field.title) {
			throw invalidParameter(this, itemIndex, entry, value, 'a field ID or a title naming the field');
		}
		if (field.type !== undefined) {
			const type = String(field.type).toUpperCase();
			if (!FIELD_TYPES.includes(type)) {
				throw invalidParameter(this, itemIndex, `${entry} type`, field.type, `one of ${FIELD_TYPES.join(', ')}`);
			}
			field.type = type;
		}
		return field;
	});
}

/** Outputs { success, schemaId, fields } (the definitions sent). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const schemaId = requireObjectId(this, itemIndex, 'Schema ID', this.getNodeParameter('schemaId', itemIndex));
	const fields =
		inputModeOf(this, itemIndex, 'Define Fields') === 'json'
			? checkedFields.call(
					this,
					itemIndex,
					'Fields (JSON)',
					requireJson(this, itemIndex, 'Fields (JSON)', this.getNodeParameter('fieldsJson', itemIndex), 'array'),
				)
			: checkedFields.call(this, itemIndex, 'Fields', fieldsFromForm.call(this, itemIndex));

	const response = await patchSchemaFields(this, { schemaId, fields }, { policy });
	if (typeof this.addExecutionHints === 'function') {
		this.addExecutionHints({ message: `${DEPRECATION}.`, type: 'warning', location: 'outputPane' });
	}
	if (response.success === false) {
		throw new NodeOperationError(this.getNode(), `The service did not update schema ${schemaId} (item ${itemIndex})`, {
			itemIndex,
		});
	}
	return [{ json: { success: true, schemaId, fields } }];
}
