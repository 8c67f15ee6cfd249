import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getSubscription } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [optionsCollection()];

const displayOptions = { show: { resource: ['workspace'], operation: ['getSubscription'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the subscription: plan, credit, quotas used and allowed. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	return [{ json: await getSubscription(this, { policy }) }];
}
