import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	API_PATH_PREFIX,
	BASE_URL_EXPRESSION,
	DEFAULT_INSTANCE,
	INSECURE_BASE_URL_PATTERN,
	INSTANCES,
	INSTANCES_WITH_USER_HOST,
} from './hosts';

export class DocumentExtractionApi implements ICredentialType {
	name = 'documentExtractionApi';

	displayName = 'Document Extraction API';

	icon: Icon = {
		light: 'file:../icons/documentExtraction.svg',
		dark: 'file:../icons/documentExtraction.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-document-extraction#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
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
			description: `Optional. Replaces the host for a proxy or a local emulator (the ${API_PATH_PREFIX} path is added automatically). Must use https://, except for loopback hosts (localhost, 127.0.0.1, [::1]).`,
		},
		{
			displayName:
				'This Base URL uses http:// with a host that is not a loopback host. It will be refused: use https:// so the API key is never sent in clear text.',
			name: 'insecureBaseUrlNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { regex: INSECURE_BASE_URL_PATTERN } }] } },
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: `${API_PATH_PREFIX}/subscription`,
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
