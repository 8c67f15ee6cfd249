import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { withRunScope } from '../shared/run';
import { DEFAULT_NODE_VERSION, NODE_VERSIONS } from '../shared/versions';
import { triggerProperties } from './description';
import { getFileClasses } from './methods';
import { pollDocuments } from './poll';
import { credentialTest } from '../shared/credentialTest';
import { NODE_DOCUMENTATION } from '../../credentials/documentation';

export class DocumentExtractionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Trigger',
		name: 'documentExtractionTrigger',
		icon: {
			light: 'file:../../icons/documentExtraction.svg',
			dark: 'file:../../icons/documentExtraction.dark.svg',
		},
		group: ['trigger'],
		// 2: Include Extracted Values typed by their fields (docs/versioning.md).
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_NODE_VERSION,
		subtitle: '={{ $parameter["event"] === "fileUpdated" ? "File Updated" : "File Processed" }}',
		// n8n's nodes panel merges this trigger with the Document Extraction node into one entry and
		// shows this description there, as it does for Gmail and Airtable: n8n's trigger wording, short.
		description: 'Starts the workflow when the Document Extraction Service processes or changes a document',
		// The Docs link: n8n shows it as it is (a codex URL gets its tracking query after the #section).
		documentationUrl: NODE_DOCUMENTATION.documentExtractionTrigger,
		defaults: { name: 'Document Extraction Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// testedBy: credentialTest's method (CREDENTIAL_TEST_METHOD), so the credential dialog explains a failure in words.
		credentials: [{ name: 'documentExtractionApi', required: true, testedBy: 'documentExtractionApiTest' }],
		properties: triggerProperties,
	};

	methods = { loadOptions: { getFileClasses }, credentialTest };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await withRunScope(this, async () => await pollDocuments.call(this));
	}
}
