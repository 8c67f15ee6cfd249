import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	API_PATH_PREFIX,
	DEFAULT_INSTANCE,
	INSTANCES,
	INSTANCES_WITH_USER_HOST,
} from './hosts';
import { authorizeApiRequest } from './apiKeyAttachment';

export class DocumentExtractionApi implements ICredentialType {
	name = 'documentExtractionApi';

	displayName = 'Document Extraction API';

	icon: Icon = {
		light: 'file:../icons/documentExtraction.svg',
		dark: 'file:../icons/documentExtraction.dark.svg',
	};

	// readmeSection('credentials') of documentation.ts, written out: n8n's lint wants a literal here
	// (test/package/documentation-links.test.ts checks that they agree).
	documentationUrl = 'https://github.com/document-extraction/n8n-nodes-document-extraction#credentials';

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
				'The API key from the project settings of your dashboard. It decides the organization and workspace of every call. A read-only key is enough for reading (Get Many, Get Values, Query, the trigger); Upload and every other change need a key with write access.',
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

	// No declarative `test`: each node names credentialTest.ts's method in `testedBy`, so the
	// dialog says what is wrong in words (n8n prefers a credential's own `test` when it has one).
}
