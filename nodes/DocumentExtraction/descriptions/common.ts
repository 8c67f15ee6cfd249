import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { ITEM_LIMITS } from '../../shared/limits';
import { requireBoolean, requireOneOf, requirePositiveInteger } from '../../shared/parameters';

/** Parameter descriptions used by more than one operation, defined once. */

/** The package's documentation (its README, credentials/documentation.ts); hints link to its sections. */
export { REPOSITORY_URL as DOCUMENTATION_URL } from '../../../credentials/documentation';

/** Default of Limit (ITEM_LIMITS.defaultLimit); the description writes it as n8n's lint demands, the literal 50. */
const DEFAULT_LIMIT = ITEM_LIMITS.defaultLimit;

export const binaryPropertyParameter: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint: 'The name of the input binary field that holds the file',
};

export const uploadIdParameter: INodeProperties = {
	displayName: 'Upload ID',
	name: 'uploadId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
	description: 'The uploadId returned by the Upload operation (a UUID)',
};

/** A file, chosen from the newest files of the workspace or given by its ID (a UUID). */
export const fileIdParameter: INodeProperties = {
	displayName: 'File',
	name: 'fileId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The file whose data to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a file...',
			typeOptions: { searchListMethod: 'searchFiles', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$',
						errorMessage: 'A file ID is a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
					},
				},
			],
		},
	],
};

export const simplifyParameter: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return the values as { field title: value } (tables as lists of row objects) instead of the raw form records',
};

/** "Return All" and "Limit", as every list operation offers them; read with resultLimit(). */
export const returnAllParameters: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		// n8n's node lint (node-param-default-wrong-for-limit) requires this literal; test/package/limits-table.test.ts checks it is ITEM_LIMITS.defaultLimit.
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** How many results the user asked for: undefined with Return All, else the Limit. */
export function resultLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (requireBoolean(context, itemIndex, 'Return All', context.getNodeParameter('returnAll', itemIndex, false))) {
		return undefined;
	}
	return requirePositiveInteger(context, itemIndex, 'Limit', context.getNodeParameter('limit', itemIndex, DEFAULT_LIMIT));
}

/**
 * The check of a resource locator's "By ID" mode for a 24-hex id (directory, file type, workflow,
 * schema), in the editor; the operation checks it again before any request. Spread into a mode
 * written in the locator's `modes`.
 */
export function objectIdCheck(what: string): Pick<INodePropertyMode, 'placeholder' | 'validation'> {
	return {
		placeholder: 'e.g. 6650a00000000000000e0001',
		validation: [
			{
				type: 'regex',
				properties: {
					// Empty passes here: an optional locator may stay empty, a required one says so itself.
					regex: '^\\s*([0-9a-fA-F]{24}\\s*)?$',
					errorMessage: `A ${what} ID is 24 hexadecimal characters, such as 6650a00000000000000e0001`,
				},
			},
		],
	};
}

/**
 * "Sort By" and "Sort Order" for an Options collection of a list operation (the API's sortBy
 * and sortOrder query parameters).
 */
export function sortOptions(
	what: string,
	fields: Array<{ name: string; value: string }>,
	order: { default: 'ASC' | 'DESC'; ascending?: string; descending?: string; description?: string },
): INodeProperties[] {
	const defaultField = fields[0].value;
	const defaultOrder = order.default;
	return [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: fields,
			default: defaultField,
			description: `The field to order the ${what} by`,
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: [
				{ name: order.ascending ?? 'Ascending', value: 'ASC' },
				{ name: order.descending ?? 'Descending', value: 'DESC' },
			].sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOrder,
			...(order.description ? { description: order.description } : {}),
		},
	];
}

/**
 * The Sort By and Sort Order options of an item (an Options collection with sortOptions()),
 * checked against what they offer.
 */
export function sortChoice(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	fields: Array<{ value: string }>,
	defaultOrder: 'ASC' | 'DESC',
): { sortBy: string; sortOrder: 'ASC' | 'DESC' } {
	return {
		sortBy: requireOneOf(context, itemIndex, 'Sort By', options.sortBy ?? fields[0].value, fields.map((field) => field.value)),
		sortOrder: requireOneOf(context, itemIndex, 'Sort Order', options.sortOrder ?? defaultOrder, ['ASC', 'DESC'] as const),
	};
}

/** "Field by Field" or "Using JSON": how an operation that writes fields takes them (`inputMode`). */
export function inputModeParameter(
	displayName: string,
	descriptions: { fields: string; json: string },
): INodeProperties {
	return {
		displayName,
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Field by Field', value: 'fields', description: descriptions.fields },
			{ name: 'Using JSON', value: 'json', description: descriptions.json },
		],
		default: 'fields',
	};
}

/** The inputModeParameter() of an item: 'fields' or 'json'. */
export function inputModeOf(context: IExecuteFunctions, itemIndex: number, displayName: string): 'fields' | 'json' {
	return requireOneOf(context, itemIndex, displayName, context.getNodeParameter('inputMode', itemIndex, 'fields'), [
		'fields',
		'json',
	] as const);
}

/** A file type, picked from the workspace's file types or given by its ID (24 hex): parameter `fileType`. */
export function fileTypeLocator(description: string, displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'File Type',
		name: 'fileType',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a file type...',
				typeOptions: { searchListMethod: 'searchFileTypes', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', ...objectIdCheck('file type') },
		],
	};
}
