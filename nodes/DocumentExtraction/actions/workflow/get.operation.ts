import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getWorkflow } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import { objectIdCheck } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';
import { requireObjectId } from '../../../shared/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Workflow',
		name: 'workflowId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
		description: 'The workflow to read, by its ID (shown in the dashboard)',
		modes: [{ displayName: 'By ID', name: 'id', type: 'string', ...objectIdCheck('workflow') }],
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['workflow'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the workflow with its step summaries. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const workflowId = requireObjectId(
		this,
		itemIndex,
		'Workflow',
		this.getNodeParameter('workflowId', itemIndex, '', { extractValue: true }),
	);
	return [{ json: await getWorkflow(this, workflowId, { policy }) }];
}
