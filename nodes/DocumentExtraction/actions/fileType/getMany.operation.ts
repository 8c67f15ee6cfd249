import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listFileTypes } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import {
	resultLimit,
	returnAllParameters,
	simplifyParameter,
	sortChoice,
	sortOptions,
} from '../../descriptions/common';
import { simplifyFileType } from '../../helpers/fileTypes';
import type { ItemPolicy } from '../../../shared/run';
import { requireBoolean } from '../../../shared/parameters';

const SORT_FIELDS = [
	{ name: 'Created At', value: 'createdAt' },
	{ name: 'Name', value: 'name' },
	{ name: 'Updated At', value: 'updatedAt' },
];

const properties: INodeProperties[] = [
	...returnAllParameters,
	{
		...simplifyParameter,
		description:
			'Whether to return a summary of each file type (IDs of its current schema version, field titles) instead of the full record with every schema field definition',
	},
	optionsCollection(
		sortOptions(
			'file types',
			SORT_FIELDS,
			{ default: 'ASC' },
		),
	),
];

const displayOptions = { show: { resource: ['fileType'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per file type of the workspace. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	const fileTypes = await listFileTypes(
		this,
		{ limit: resultLimit(this, itemIndex), ...sortChoice(this, itemIndex, options, SORT_FIELDS, 'ASC') },
		{ policy },
	);
	return fileTypes.map((fileType) => ({ json: simplify ? simplifyFileType(fileType) : fileType }));
}
