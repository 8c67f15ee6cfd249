import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { Violation } from '../../../shared/api';
import { describeViolation, executeQuery } from '../../../shared/api';
import { PAGING_LIMITS } from '../../../shared/limits';
import { PagingGuard, pagingNodeError, walkPages } from '../../../shared/paging';
import { optionsCollection } from '../../../shared/requestOptions';
import { DOCUMENTATION_URL, resultLimit, returnAllParameters } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';
import { requireBoolean, requireIdList, requireJson, requireNumber, requireOneOf } from '../../../shared/parameters';
import { pickerProperties, withPickers } from './pickers';

/** The example configuration the editor starts with: it runs in any workspace. */
const EXAMPLE_QUERY_CONFIG = `{
  "selectedFields": [
    { "field": "fileName", "alias": "file" },
    { "field": "createdAt", "alias": "created" }
  ],
  "filters": [
    { "field": "createdAt", "operator": "gte", "value": "2026-01-01T00:00:00Z" }
  ],
  "orderBy": [{ "alias": "created", "direction": "DESC" }]
}`;

const QUERY_SHAPES_URL = `${DOCUMENTATION_URL}#query-configuration`;

/** Rows per request with Return All, unless the Page Size option says otherwise. */
const DEFAULT_PAGE_SIZE = 500;

const properties: INodeProperties[] = [
	{
		displayName: 'Document Type Names or IDs',
		name: 'documentTypes',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getFileTypes' },
		default: [],
		description:
			'Only rows from files of these file types; none means every type. Replaces "documentTypes" of the configuration below. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Folders',
		name: 'folderIds',
		type: 'string',
		default: '',
		placeholder: 'e.g. 6650a00000000000000d0001, 6650a00000000000000d0002',
		description:
			'Only files in these directories or their subdirectories: directory IDs separated by commas (or an expression giving a list). Empty means every folder. Replaces "foldersContext" of the configuration below.',
	},
	...pickerProperties,
	{
		displayName: 'Query Configuration (JSON)',
		name: 'queryConfig',
		type: 'json',
		default: EXAMPLE_QUERY_CONFIG,
		required: true,
		description:
			'The query-builder configuration: selectedFields (each with an alias), filters, filterGroups, groupBy, aggregations, orderBy, headerOrder',
		hint: `Fields are file attributes (fileName, createdAt, …) or titles of extracted fields; Selected Fields, Filters and Order By above replace their keys here when they have entries. Shapes of filters, groups and aggregations: <a href="${QUERY_SHAPES_URL}" target="_blank">query configuration</a>.`,
	},
	...returnAllParameters.map((parameter) =>
		parameter.name === 'limit' ? { ...parameter, description: 'Max number of rows to return' } : parameter,
	),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Row',
				value: 'rows',
				description: 'Each row becomes an item whose keys are the column aliases',
			},
			{
				name: 'One Item With All Rows',
				value: 'single',
				description: 'One item holding data (the rows), headers, rowCount and executionTimeMs',
			},
		],
		default: 'rows',
	},
	optionsCollection([
		{
			displayName: 'Ignore Query Errors',
			name: 'ignoreQueryErrors',
			type: 'boolean',
			default: false,
			description:
				'Whether to output what the service answered even when it reports errors in the configuration. Off: such an answer fails the item and lists the errors.',
		},
		{
			displayName: 'Offset',
			name: 'offset',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Number of rows to skip before the first row returned',
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_PAGE_SIZE,
			description: 'Rows fetched per request when Return All is on',
		},
		{
			displayName: 'Skip Cache',
			name: 'skipCache',
			type: 'boolean',
			default: false,
			description: 'Whether to bypass cached results and run the query afresh',
		},
	]),
];

const displayOptions = { show: { resource: ['query'], operation: ['execute'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The configuration to send: the JSON, with the Document Types and Folders helpers and the pickers applied. */
function buildQueryConfig(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const queryConfig = {
		...requireJson(this, itemIndex, 'Query Configuration (JSON)', this.getNodeParameter('queryConfig', itemIndex), 'object'),
	};
	const documentTypes = requireIdList(this, itemIndex, 'Document Types', this.getNodeParameter('documentTypes', itemIndex, []), 'objectId');
	if (documentTypes.length) queryConfig.documentTypes = documentTypes;
	const folders = requireIdList(this, itemIndex, 'Folders', this.getNodeParameter('folderIds', itemIndex, ''), 'objectId');
	if (folders.length) queryConfig.foldersContext = folders;
	return withPickers(this, itemIndex, queryConfig);
}

function queryErrorsFailure(this: IExecuteFunctions, errors: Violation[], itemIndex: number): NodeOperationError {
	const listed = errors.map(describeViolation);
	const error = new NodeOperationError(
		this.getNode(),
		`The service refused the query configuration of item ${itemIndex} (${errors.length} error${errors.length === 1 ? '' : 's'}): ${listed.join('; ')}`,
		{
			itemIndex,
			description: `Correct the parts the pointers name (/queryConfig/… is the Query Configuration, /options/… the options), or turn on "Ignore Query Errors". Query shapes: ${QUERY_SHAPES_URL}`,
		},
	);
	error.context.queryErrors = errors as unknown as IDataObject[];
	return error;
}

/**
 * The paging guard of Query's rows: rows carry no id, so a page is judged by its content. A page
 * of rows all alike may repeat in earnest (a column with few values), so only a varied page the
 * same as the one before counts as no progress. At most PAGING_LIMITS.queryMaxPages requests.
 */
function rowsGuard(this: IExecuteFunctions, itemIndex: number, pageSize: number, policy: ItemPolicy): PagingGuard<IDataObject> {
	return new PagingGuard<IDataObject>({
		list: 'POST /query/execute',
		pageSize,
		maxRequests: PAGING_LIMITS.queryMaxPages,
		maxBytes: policy.maxListBytes,
		whatToDoAtSize: 'Turn off Return All and set a Limit, select fewer fields, or raise "Max List Size (MB)" in the node options.',
		pageParameter: 'offset',
		alikeItemsMayRepeat: true,
		whatToDo:
			'If the rows really repeat page after page, add a field that tells them apart (such as fileId) to selectedFields; otherwise try again later, or report it to the service.',
		whatToDoAtCap: 'Raise the Page Size option, or turn off Return All and set a Limit.',
		fail: (problem) => pagingNodeError(this.getNode(), problem, itemIndex),
	});
}

/**
 * Runs the query; with Return All, page after page by offset until a page comes back short,
 * within the paging guard's bounds. An answer that carries errors[] fails the item unless
 * "Ignore Query Errors" is on.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const queryConfig = buildQueryConfig.call(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const limit = resultLimit(this, itemIndex);
	const pageSize = requireNumber(
		this,
		itemIndex,
		'Page Size',
		options.pageSize ?? DEFAULT_PAGE_SIZE,
		{ min: 1, integer: true },
		'a whole number of 1 or more',
	);
	const output = requireOneOf(this, itemIndex, 'Output', this.getNodeParameter('output', itemIndex, 'rows'), ['rows', 'single'] as const);
	const ignoreQueryErrors = requireBoolean(this, itemIndex, 'Ignore Query Errors', options.ignoreQueryErrors ?? false);
	const skipCache = requireBoolean(this, itemIndex, 'Skip Cache', options.skipCache ?? false);

	const rows: IDataObject[] = [];
	let headers: IDataObject = {};
	let executionTimeMs = 0;
	const errors: Violation[] = [];
	const firstOffset = requireNumber(this, itemIndex, 'Offset', options.offset ?? 0, { min: 0, integer: true }, 'a whole number, 0 or more');
	const requested = limit ?? pageSize;
	const guard = rowsGuard.call(this, itemIndex, requested, policy);
	// Every page but the last is full, so page n starts n - 1 pages of `requested` rows on.
	let enough = false;
	await walkPages(
		guard,
		async (page, bytesLeft) => {
			const offset = firstOffset + (page - 1) * requested;
			const answer = await executeQuery(
				this,
				{ queryConfig, options: { limit: requested, offset, ...(skipCache ? { skipCache: true } : {}) } },
				{ policy, answerCap: { maxBytes: bytesLeft, tooLarge: () => guard.failure(guard.sizeProblem()) } },
			);
			if (answer.errors.length && !ignoreQueryErrors) {
				throw queryErrorsFailure.call(this, answer.errors, itemIndex);
			}
			if (page === 1) headers = answer.headers;
			executionTimeMs += answer.executionTimeMs;
			for (const error of answer.errors) errors.push(error);
			// No more rows than asked for are kept, and they are added one by one: push(...rows) passes
			// every row as an argument and overflowed the call stack from about 150,000 rows.
			const taken = Math.min(answer.data.length, requested);
			enough = limit !== undefined || answer.errors.length > 0;
			return { items: answer.data.length > taken ? answer.data.slice(0, taken) : answer.data, at: `the page at offset ${offset}`, bytes: answer.bytes };
		},
		{
			onPage: (fresh) => {
				for (const row of fresh) rows.push(row);
				return enough;
			},
		},
	);

	if (output === 'single') {
		return [{ json: { data: rows, headers, rowCount: rows.length, executionTimeMs, errors } as IDataObject }];
	}
	return rows.map((row) => ({ json: row }));
}
