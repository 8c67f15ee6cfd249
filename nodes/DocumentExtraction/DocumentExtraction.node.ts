import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties } from './actions/node.description';
import { router } from './actions/router';
import { callbackWebhook } from './actions/file/upload/callback/webhook';
import { CALLBACK_WAITING_TOOLTIP, RESUME_WEBHOOKS } from './actions/file/upload/callback/webhooks';
import { withReviewWebhooks } from './actions/file/reviewValuesLink';
import { reviewWebhook, waitingTooltip } from './actions/file/reviewValuesWebhook';
import { listSearch, loadOptions, resourceMapping } from './methods';
import { withRunScope } from '../shared/run';
import { DEFAULT_NODE_VERSION, NODE_VERSIONS } from '../shared/versions';
import { credentialTest } from '../shared/credentialTest';
import { NODE_DOCUMENTATION } from '../../credentials/documentation';

export class DocumentExtraction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction',
		name: 'documentExtraction',
		icon: {
			light: 'file:../../icons/documentExtraction.svg',
			dark: 'file:../../icons/documentExtraction.dark.svg',
		},
		group: ['transform'],
		// 2: Update Values with the file's fields (the field mapper), values typed by their fields (docs/versioning.md).
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_NODE_VERSION,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		// Shown where the node stands alone (its Tool in an AI agent's tools panel); the nodes panel's
		// merged entry shows the trigger's description instead.
		description: 'Upload documents, then read, correct and query their extracted values',
		// The Docs link: n8n shows it as it is (a codex URL gets its tracking query after the #section).
		documentationUrl: NODE_DOCUMENTATION.documentExtraction,
		defaults: { name: 'Document Extraction' },
		// n8n generates documentExtractionTool from it; its Description parameters are in `properties` (@tool).
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// testedBy: credentialTest's method (CREDENTIAL_TEST_METHOD), so the credential dialog explains a failure in words.
		credentials: [{ name: 'documentExtractionApi', required: true, testedBy: 'documentExtractionApiTest' }],
		// Upload's resume webhook (Wait Mode "When the Service Calls Back") and Review Values' page
		// (GET) and submit (POST): restart webhooks only, see RESUME_WEBHOOKS for why they have no webhookMethods.
		webhooks: withReviewWebhooks(RESUME_WEBHOOKS),
		// The words under the editor's "Waiting for input" during either wait.
		waitingNodeTooltip: waitingTooltip(CALLBACK_WAITING_TOOLTIP),
		properties: nodeProperties,
	};

	methods = { listSearch, loadOptions, resourceMapping, credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await withRunScope(this, async () => await router.call(this));
	}

	/** A callback of the service to an execution that waits in File > Upload, or a review page of File > Review Values. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (this.getNodeParameter('operation', 'upload') === 'reviewValues') return await reviewWebhook.call(this);
		return await callbackWebhook.call(this);
	}
}
