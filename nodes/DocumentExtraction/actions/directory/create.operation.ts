import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DirectoryRequest } from '../../../shared/api';
import { createDirectory } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import { objectIdCheck } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';
import { optionalText, requireObjectId, requireText } from '../../../shared/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Invoices 2026',
		description: 'The name of the new directory',
	},
	{
		displayName: 'Parent Directory',
		name: 'parentDirectory',
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		description:
			'The directory to create the new one in. Leave empty to create it at the root of the workspace.',
		hint: 'Nesting is limited by the workspace\'s maximum directory depth (one level below the root unless changed)',
		modes: [{ displayName: 'By ID', name: 'id', type: 'string', ...objectIdCheck('directory') }],
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		description: 'What the directory holds (optional)',
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['directory'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the created directory (id, name, status, parentId, depth, …). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const body: DirectoryRequest = {
		name: requireText(this, itemIndex, 'Name', this.getNodeParameter('name', itemIndex)),
	};
	// Empty means the root; anything else (also a number or an array from an expression) is checked.
	const parent = this.getNodeParameter('parentDirectory', itemIndex, '', { extractValue: true });
	if (parent !== undefined && parent !== null && !(typeof parent === 'string' && parent.trim() === '')) {
		body.parentId = requireObjectId(this, itemIndex, 'Parent Directory', parent);
	}
	const text = optionalText(this, itemIndex, 'Description', this.getNodeParameter('description', itemIndex, ''), true);
	if (text) body.description = text;

	return [{ json: await createDirectory(this, body, { policy }) }];
}
