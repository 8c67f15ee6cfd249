import { defineResource } from '../resource';
import * as getProjectSettings from './getProjectSettings.operation';
import * as getSubscription from './getSubscription.operation';

export const { operations, description } = defineResource('workspace', 'getSubscription', [
	{
		name: 'Get Subscription',
		value: 'getSubscription',
		description: 'Get the subscription: plan, credit and the quotas used and allowed',
		action: 'Get the subscription',
		module: getSubscription,
	},
	{
		name: 'Get Project Settings',
		value: 'getProjectSettings',
		description: 'Get the project settings: default OCR model, target language, splitting',
		action: 'Get the project settings',
		module: getProjectSettings,
	},
]);
