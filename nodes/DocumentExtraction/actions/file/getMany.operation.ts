import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FileListQuery } from '../../../shared/api';
import { listAllFiles } from '../../../shared/api';
import { withLeadingKeys } from '../../../shared/output/keyOrder';
import { simplifyFile } from '../../../shared/output/simplify';
import { optionsCollection } from '../../../shared/requestOptions';
import { resultLimit, returnAllParameters, sortChoice, sortOptions } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';
import { optionalTimestamp, requireBoolean, requireIdList } from '../../../shared/parameters';

const SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const SIMPLIFY_DESCRIPTION =
	"Whether to return only each file's name, status, ID, type (fileClass), reference, summary, duplicate flag and dates instead of the whole file record (about a third of its size)";

const properties: INodeProperties[] = [
	...returnAllParameters,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: SIMPLIFY_DESCRIPTION,
		displayOptions: { show: { '@tool': [false] } },
	},
	// As an AI agent's tool, on by default: a model reads every byte of a tool's result.
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: SIMPLIFY_DESCRIPTION,
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		options: [
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only files created at or after this moment. Without a time zone, the workflow time zone applies.',
			},
			{
				displayName: 'File IDs',
				name: 'fileIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, 9a1d…',
				description:
					'Only these files: UUIDs separated by commas, spaces or new lines, or an expression that returns an array of IDs',
			},
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only files updated at or after this moment (for example, to pick up newly processed files). Without a time zone, the workflow time zone applies.',
			},
		],
	},
	optionsCollection(
		sortOptions(
			'files',
			SORT_FIELDS,
			{
				default: 'DESC',
				ascending: 'Oldest First',
				descending: 'Newest First',
				description:
					'Newest first shows recent files; oldest first suits processing files in the order they arrived',
			},
		),
	),
];

const displayOptions = { show: { resource: ['file'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per file of the workspace that matches the filters, in the chosen order. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const query: FileListQuery = { ...sortChoice(this, itemIndex, options, SORT_FIELDS, 'DESC') };
	const fileIds = requireIdList(this, itemIndex, 'File IDs', filters.fileIds, 'uuid');
	if (fileIds.length > 0) query.fileIds = fileIds;
	const createdAfter = optionalTimestamp(this, itemIndex, 'Created After', filters.createdAfter);
	if (createdAfter) query.createdAfter = createdAfter;
	const updatedAfter = optionalTimestamp(this, itemIndex, 'Updated After', filters.updatedAfter);
	if (updatedAfter) query.updatedAfter = updatedAfter;

	const limit = resultLimit(this, itemIndex);
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, false));
	const files = await listAllFiles(this, query, { limit, pageSize: limit }, { policy });
	return files.map((file) => ({ json: simplify ? simplifyFile(file) : withLeadingKeys(file) }));
}
