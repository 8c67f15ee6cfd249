import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireOneOf, requireText } from '../../../shared/parameters';

/**
 * Query > Execute's pickers: Selected Fields, Filters and Order By, their fields chosen from the
 * workspace's file types (methods/loadOptions.ts getQueryFields, after Document Types). Each one
 * that has entries replaces that key of the Query Configuration (JSON), as Document Types and
 * Folders do; empty, the JSON's own key is sent. Their entries take the shapes documented in
 * docs/operations-other.md#query-configuration; everything else (filterGroups, aggregations, …)
 * stays the user's JSON.
 */

const fieldPicker: INodeProperties = {
	displayName: 'Field Name or ID',
	name: 'field',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getQueryFields', loadOptionsDependsOn: ['documentTypes'] },
	default: '',
	description:
		'A file attribute or the title of an extracted field. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'in'] as const;
const DIRECTIONS = ['ASC', 'DESC'] as const;

export const pickerProperties: INodeProperties[] = [
	{
		displayName: 'Selected Fields',
		name: 'selectedFieldsUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Field',
		default: {},
		description: 'The columns of the rows, in order. Replaces "selectedFields" of the configuration below.',
		options: [
			{
				displayName: 'Field',
				name: 'column',
				values: [
					fieldPicker,
					{ displayName: 'Alias', name: 'alias', type: 'string', default: '', description: "The column's key in each row; empty: the field's name" },
				],
			},
		],
	},
	{
		displayName: 'Filters',
		name: 'filtersUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Filter',
		default: {},
		description: 'Rows must match all of them. Replaces "filters" of the configuration below.',
		options: [
			{
				displayName: 'Filter',
				name: 'filter',
				values: [
					fieldPicker,
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						options: [
							{ name: 'Contains (Text)', value: 'contains' },
							{ name: 'Equals', value: 'eq' },
							{ name: 'Greater Than', value: 'gt' },
							{ name: 'Greater Than or Equal', value: 'gte' },
							{ name: 'Is One Of', value: 'in' },
							{ name: 'Less Than', value: 'lt' },
							{ name: 'Less Than or Equal', value: 'lte' },
							{ name: 'Not Equals', value: 'ne' },
						],
						default: 'eq',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. 100',
						description:
							'Read as JSON when it is JSON (100, true, null, "quoted text", ["a", "b"]), otherwise as text. Is One Of: a JSON array, or values separated by commas.',
					},
				],
			},
		],
	},
	{
		displayName: 'Order By',
		name: 'orderByUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Sort Field',
		default: {},
		description: 'Replaces "orderBy" of the configuration below',
		options: [
			{
				displayName: 'Sort',
				name: 'order',
				values: [
					fieldPicker,
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{ name: 'Ascending', value: 'ASC' },
							{ name: 'Descending', value: 'DESC' },
						],
						default: 'ASC',
					},
				],
			},
		],
	},
];

/** Text read as JSON when it is JSON, else as the text; any other value (from an expression) as it is. */
function filterValue(raw: unknown): unknown {
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

function listValue(raw: unknown): unknown {
	const read = filterValue(raw);
	if (Array.isArray(read) || typeof raw !== 'string') return read;
	return raw.split(',').map((entry) => filterValue(entry.trim()));
}

function entriesOf(context: IExecuteFunctions, itemIndex: number, parameter: string, group: string): IDataObject[] {
	const collection = context.getNodeParameter(parameter, itemIndex, {}) as IDataObject;
	return Array.isArray(collection[group]) ? (collection[group] as IDataObject[]) : [];
}

/** The configuration with the keys of the pickers that have entries replaced by them. */
export function withPickers(context: IExecuteFunctions, itemIndex: number, queryConfig: IDataObject): IDataObject {
	const field = (entry: IDataObject, where: string, position: number) =>
		requireText(context, itemIndex, `${where} (entry ${position + 1}) Field`, entry.field);
	const columns = entriesOf(context, itemIndex, 'selectedFieldsUi', 'column').map((entry, position) => {
		const alias = typeof entry.alias === 'string' ? entry.alias.trim() : '';
		return { field: field(entry, 'Selected Fields', position), ...(alias ? { alias } : {}) };
	});
	const filters = entriesOf(context, itemIndex, 'filtersUi', 'filter').map((entry, position) => {
		const operator = requireOneOf(context, itemIndex, `Filters (entry ${position + 1}) Operator`, entry.operator ?? 'eq', OPERATORS);
		return { field: field(entry, 'Filters', position), operator, value: operator === 'in' ? listValue(entry.value) : filterValue(entry.value ?? '') };
	});
	const order = entriesOf(context, itemIndex, 'orderByUi', 'order').map((entry, position) => ({
		field: field(entry, 'Order By', position),
		direction: requireOneOf(context, itemIndex, `Order By (entry ${position + 1}) Direction`, entry.direction ?? 'ASC', DIRECTIONS),
	}));
	return {
		...queryConfig,
		...(columns.length ? { selectedFields: columns } : {}),
		...(filters.length ? { filters } : {}),
		...(order.length ? { orderBy: order } : {}),
	};
}
