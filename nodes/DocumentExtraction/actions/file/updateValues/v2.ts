import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { updateFormValues } from '../../../../shared/api';
import { valuesField } from '../../../../shared/output/values';
import { invalidParameter, requireBoolean, requireOneOf } from '../../../../shared/parameters';
import type { ItemPolicy } from '../../../../shared/run';
import type { WriteRequest } from '../../../../shared/schema';
import { fileFields, planWrite, savedFieldsById } from '../../../../shared/schema';
import { fileTypeLocator } from '../../../descriptions/common';
import { readFileId } from '../records';
import { VALUES_JSON_PARAMETER, fieldsFromJson } from './valuesJson';

/**
 * Update Values from typeVersion 2: the file's own fields in n8n's field mapper (resource mapper),
 * typed, from the file itself or from a file type (methods/resourceMapping.ts); Map Automatically
 * from the input items; or JSON. Whatever the way, what is written is checked against the item's
 * file as it is now and converted by the one converter (nodes/shared/schema) before anything is
 * written.
 */

const VALUES_TO_UPDATE = 'Values to Update';

const mapperOnly = { inputMode: ['mapper'] };

/** Values to Update, for one source of its field list (two definitions, so that each keeps its own mapping). */
function valuesToUpdate(fieldsFrom: 'file' | 'fileType', source: string): INodeProperties {
	return {
		displayName: VALUES_TO_UPDATE,
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: [source, 'includeHidden'],
			resourceMapper: {
				resourceMapperMethod: 'getMappingFields',
				mode: 'map',
				valuesLabel: VALUES_TO_UPDATE,
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: false,
				multiKeyMatch: false,
				supportAutoMap: true,
				showTypeConversionOptions: true,
				// The method's notice says what to pick; n8n's red "no fields" line (with Retry) would read as a failure.
				hideNoDataError: true,
				noFieldsError: 'No fields to show: choose a file, or set Fields From to "A File Type"',
			},
		},
		displayOptions: { show: { ...mapperOnly, fieldsFrom: [fieldsFrom] } },
	};
}

export const propertiesV2: INodeProperties[] = [
	{
		displayName: 'Define Values',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Each Field',
				value: 'mapper',
				description: "The file's own fields, typed: give a value to each field to change, or map them automatically from the input",
			},
			{ name: 'Using JSON', value: 'json', description: 'Give the fields and values as JSON (null clears a field)' },
		],
		default: 'mapper',
	},
	{
		displayName: 'Fields From',
		name: 'fieldsFrom',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'A File Type', value: 'fileType', description: "The fields of a file type's current schema" },
			{ name: "The File's Own Fields", value: 'file', description: 'The fields of the file above, read from its extracted values' },
		],
		default: 'file',
		hint: 'When the File comes from an expression, choose "A File Type": the editor may not know which file it will be',
		displayOptions: { show: mapperOnly },
	},
	fileTypeLocator('The file type whose fields to show. When the node runs, each file is checked against its own fields.', {
		show: { ...mapperOnly, fieldsFrom: ['fileType'] },
	}),
	{
		displayName: 'Include Hidden Fields',
		name: 'includeHidden',
		type: 'boolean',
		default: false,
		description: 'Whether to list (and allow writing) the fields the file type marks as hidden',
		displayOptions: { show: mapperOnly },
	},
	valuesToUpdate('file', 'fileId.value'),
	valuesToUpdate('fileType', 'fileType.value'),
];

/** The Options entry of typeVersion 2 (with the request options). */
export const ignoreUnwritableOption: INodeProperties = {
	displayName: 'Ignore Input Fields It Cannot Write',
	name: 'ignoreUnwritable',
	type: 'boolean',
	default: false,
	description:
		'Whether Map Automatically leaves out input fields that are not fields of the file, or are read-only or hidden, and lists them in ignoredFields. Off: such a field fails the item before anything is written.',
};

/** What the item asks to write, as the checks read it. */
function writeRequest(context: IExecuteFunctions, itemIndex: number, inputMode: 'mapper' | 'json'): WriteRequest {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const ignoreUnwritable = requireBoolean(context, itemIndex, 'Ignore Input Fields It Cannot Write', options.ignoreUnwritable ?? false);
	if (inputMode === 'json') {
		const given = fieldsFromJson(context, itemIndex).map(({ title, value }): [string, unknown] => [title, value]);
		return { mode: 'json', given, saved: new Map(), convert: false, includeHidden: true, ignoreUnwritable, parameter: VALUES_JSON_PARAMETER };
	}
	const mode = requireOneOf(context, itemIndex, `${VALUES_TO_UPDATE} mode`, context.getNodeParameter('columns.mappingMode', itemIndex, 'defineBelow'), [
		'defineBelow',
		'autoMapInputData',
	] as const);
	// skipValidation: n8n's own check refuses the JSON text its editor stores for object fields; the converter judges instead.
	const values =
		mode === 'autoMapInputData'
			? context.getInputData()[itemIndex]?.json
			: (context.getNodeParameter('columns.value', itemIndex, {}, { skipValidation: true }) as IDataObject | null);
	return {
		mode,
		given: Object.entries(values ?? {}),
		saved: savedFieldsById(context.getNodeParameter('columns.schema', itemIndex, [])),
		convert: context.getNodeParameter('columns.attemptToConvertTypes', itemIndex, false) === true,
		includeHidden: requireBoolean(context, itemIndex, 'Include Hidden Fields', context.getNodeParameter('includeHidden', itemIndex, false)),
		ignoreUnwritable,
		parameter: VALUES_TO_UPDATE,
	};
}

/** What an item that gives no field should give; for the mapper, also how to keep a mapping when the File is an expression. */
function nothingGiven(mode: WriteRequest['mode']): string {
	return mode === 'defineBelow'
		? 'at least one field and its value (map a field in Values to Update; with a File from an expression, set Fields From to "A File Type" first, so that the mapping stays)'
		: 'at least one field and its value';
}

/**
 * Checks what the item writes against its file's fields as they are now, converts it, writes it,
 * then outputs the file's values as they now stand (typed, with Simplify).
 */
export async function executeV2(this: IExecuteFunctions, itemIndex: number, policy: ItemPolicy): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const inputMode = requireOneOf(this, itemIndex, 'Define Values', this.getNodeParameter('inputMode', itemIndex, 'mapper'), ['mapper', 'json'] as const);
	const request = writeRequest(this, itemIndex, inputMode);
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	if (request.given.length === 0) throw invalidParameter(this, itemIndex, request.parameter, [], nothingGiven(request.mode));

	const plan = planWrite(this.getNode(), itemIndex, await fileFields(this, fileId, policy), request);
	if (plan.fields.length === 0) {
		throw invalidParameter(this, itemIndex, request.parameter, Object.fromEntries(request.given), 'at least one field with a value (an empty value leaves a field as it is)');
	}
	await updateFormValues(this, fileId, plan.fields, { policy });
	const values = await valuesField(this, fileId, policy, simplify);
	return [
		{
			json: {
				fileId,
				updatedFields: plan.fields.map(({ title }) => title),
				...(plan.unchanged.length ? { unchangedFields: plan.unchanged } : {}),
				...(plan.ignored.length ? { ignoredFields: plan.ignored } : {}),
				...values,
			},
		},
	];
}
