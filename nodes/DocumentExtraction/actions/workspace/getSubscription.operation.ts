import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../descriptions/common';
import { objectAt } from '../../helpers/response';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [optionsCollection()];

const displayOptions = { show: { resource: ['workspace'], operation: ['getSubscription'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the subscription: plan, credit, quotas used and allowed. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { method: 'GET', path: '/subscription', itemIndex });
	return [{ json: objectAt(this, response, 'subscription', 'the subscription request', itemIndex) }];
}
