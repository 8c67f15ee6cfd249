import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../descriptions/common';
import type { ResourceOperations } from '../types';
import * as getProjectSettings from './getProjectSettings.operation';
import * as getSubscription from './getSubscription.operation';

export const operations: ResourceOperations = { getSubscription, getProjectSettings };

export const description: INodeProperties[] = [
	operationSelector(
		'workspace',
		[
			{
				name: 'Get Project Settings',
				value: 'getProjectSettings',
				description: 'Get the project settings: default OCR model, target language, splitting',
				action: 'Get the project settings',
			},
			{
				name: 'Get Subscription',
				value: 'getSubscription',
				description: 'Get the subscription: plan, credit and the quotas used and allowed',
				action: 'Get the subscription',
			},
		],
		'getSubscription',
	),
	...getSubscription.description,
	...getProjectSettings.description,
];
