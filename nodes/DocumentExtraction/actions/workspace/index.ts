import { defineResource } from '../resource';
import * as getProjectSettings from './getProjectSettings.operation';
import * as getSubscription from './getSubscription.operation';

export const resource = defineResource({
	value: 'workspace',
	name: 'Workspace',
	description: 'Subscription and project settings',
	defaultOperation: 'getSubscription',
	operations: [
		{
			name: 'Get Subscription',
			value: 'getSubscription',
			description: 'Get the subscription: plan, credit and the quotas used and allowed',
			action: 'Get the subscription',
			toolDescription:
				"Gets the workspace's subscription: plan, remaining credit, and the quotas used and allowed (storage, imports, exports, AI schemas).",
			module: getSubscription,
		},
		{
			name: 'Get Project Settings',
			value: 'getProjectSettings',
			description: 'Get the project settings: default OCR model, target language, splitting',
			action: 'Get the project settings',
			toolDescription:
				'Gets the project settings: the default OCR model, the target language of forms and whether documents are split.',
			module: getProjectSettings,
		},
	],
});
