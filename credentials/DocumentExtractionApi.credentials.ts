import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	API_PATH_PREFIX,
	BASE_URL_EXPRESSION,
	DEFAULT_INSTANCE,
	INSTANCES,
	INSTANCES_WITH_USER_HOST,
	SUBSCRIPTION_PATH,
	authorizeApiRequest,
} from './hosts';
import { readmeSection } from './documentation';

export class DocumentExtractionApi implements ICredentialType {
	name = 'documentExtractionApi';

	displayName = 'Document Extraction API';

	icon: Icon = {
		light: 'file:../icons/documentExtraction.svg',
		dark: 'file:../icons/documentExtraction.dark.svg',
	};

	documentationUrl = readmeSection('credentials');

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'Create the key in your <a href="https://file.ai" target="_blank">fileAI</a> dashboard, under the project settings of the project to use',
			description:
				'The API key from the project settings of your dashboard. It decides the organization and workspace of every call.',
		},
		{
			displayName: 'Instance',
			name: 'instance',
			type: 'options',
			options: INSTANCES.map((instance) => ({ name: instance.name, value: instance.value })),
			default: DEFAULT_INSTANCE,
			description: 'Where your workspace is hosted',
		},
		{
			displayName: 'Instance Host',
			name: 'instanceHost',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. api.example-instance.file.ai',
			hint: 'The API host of your instance, as shown in the dashboard',
			description: 'Only the host name changes between instances; the path stays the same',
			displayOptions: { show: { instance: INSTANCES_WITH_USER_HOST } },
		},
		{
			displayName: 'Base URL Override',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://proxy.example.com',
			hint: 'Leave empty to use the instance above. Set it only to reach the API through your own proxy (https://…) or a local emulator (http://localhost or http://127.0.0.1 with its port).',
			description: `Replaces the API host, e.g. https://proxy.example.com or https://proxy.example.com/dex (the ${API_PATH_PREFIX} path is added automatically). Accepted: https:// with any host; http:// only for localhost, 127.x.x.x and [::1]. Refused: a user name or password, a query (?) or fragment (#), spaces or control characters. The API key is sent only to this host and never follows a redirect.`,
		},
	];

	/** Sends the key only to the API host of this credential, and never through a redirect. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return await authorizeApiRequest(credentials, requestOptions);
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: `${API_PATH_PREFIX}${SUBSCRIPTION_PATH}`,
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was rejected (HTTP 401): check that it is copied whole from the project settings of your dashboard',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is read-only or inactive (HTTP 403): activate it or create a key with write access in the project settings',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Document Extraction API answered at this host (HTTP 404): check the Instance Host or the Base URL Override',
				},
			},
		],
	};
}
