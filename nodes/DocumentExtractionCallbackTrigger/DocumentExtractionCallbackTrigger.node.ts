import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/credentialTest';
import { NODE_DOCUMENTATION } from '../../credentials/documentation';
import { callbackTriggerProperties } from './description';
import { checkExists, create, deleteWebhook } from './lifecycle';
import { handleCallback } from './webhook';

export class DocumentExtractionCallbackTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Callback Trigger',
		name: 'documentExtractionCallbackTrigger',
		icon: {
			light: 'file:../../icons/documentExtraction.svg',
			dark: 'file:../../icons/documentExtraction.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: 'On the service\'s callback',
		description: 'Starts the workflow as soon as the Document Extraction Service calls back about a document',
		// The Docs link: n8n shows it as it is (a codex URL gets its tracking query after the #section).
		documentationUrl: NODE_DOCUMENTATION.documentExtractionCallbackTrigger,
		defaults: { name: 'Document Extraction Callback Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// testedBy: credentialTest's method (CREDENTIAL_TEST_METHOD), so the credential dialog explains a failure in words.
		credentials: [{ name: 'documentExtractionApi', required: true, testedBy: 'documentExtractionApiTest' }],
		// A live webhook: n8n serves it at /webhook/<webhookId>/callback while the workflow is active.
		// The service has no endpoint to register it: the user sets it as the key's default callback URL.
		// A call that emits is answered by n8n with webhook()'s webhookResponse (webhook.ts): n8n takes
		// responseData before it, and a webhook without responseData is answered the text
		// "firstEntryJson" (n8n's default for it); an empty responseData leaves webhookResponse the body.
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'callback' }],
		properties: callbackTriggerProperties,
	};

	methods = { credentialTest };

	// Nothing is registered at the service (lifecycle.ts): create only checks that the service can call the URL.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleCallback(this);
	}
}
