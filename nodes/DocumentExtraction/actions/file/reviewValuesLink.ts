import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, IWebhookDescription, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiKeyDigest, approvedApiBase } from '../../../shared/api';
import { requireResumeUrl } from '../../../shared/parameters';

/**
 * File > Review Values' link (docs/dev/review-values.md): one page per execution, at
 * `<resume URL>/document-extraction-review?signature=<n8n's token>&dexReview=<secret>`. The secret
 * is an HMAC, keyed by the API key, of the n8n instance, workflow, execution and resume URL: the
 * same in every Document Extraction node of the execution with the same credential, so File > Get
 * Review Link (a node before the messaging node) and Review Values (after it) agree, and unknown to
 * anyone without the key. Also File > Get Review Link itself.
 */

export const REVIEW_PATH = 'document-extraction-review';
export const REVIEW_QUERY = 'dexReview';

/** The review page (GET) and its submit (POST): restart webhooks, served only while the execution waits in Review Values. */
export const REVIEW_WEBHOOKS: IWebhookDescription[] = [
	{ name: 'default', httpMethod: 'GET', responseMode: 'onReceived', path: REVIEW_PATH, restartWebhook: true },
	{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: REVIEW_PATH, restartWebhook: true },
];

/** The node's restart webhooks: Upload's callback and the review's page and submit (a typed list, as n8n's send-and-wait nodes keep theirs). */
export function withReviewWebhooks(upload: IWebhookDescription[]): IWebhookDescription[] {
	return [...upload, ...REVIEW_WEBHOOKS];
}

/** The execution's resume URL, judged as Upload's callback wait judges it (https, or loopback http with a loopback API). */
export async function reviewResumeUrl(context: IExecuteFunctions): Promise<URL> {
	if (context.getNode().type.endsWith('Tool')) {
		throw new NodeOperationError(context.getNode(), 'A review cannot be used by an AI agent', {
			description: 'A review waits for a person; an agent\'s tool call cannot pause the execution. Use File > Review Values in a workflow.',
		});
	}
	return requireResumeUrl(context, context.getWorkflowDataProxy(0).$execution?.resumeUrl, await approvedApiBase(context, 0));
}

/** The execution's review secret. */
export async function reviewSecret(context: IExecuteFunctions | IWebhookFunctions, resumeUrl: string): Promise<string> {
	const material = ['document-extraction-review', context.getInstanceId(), context.getWorkflow().id ?? '', context.getExecutionId() ?? '', resumeUrl].join('\u0000');
	return await apiKeyDigest(context, material, 0);
}

/** The review page's URL: the resume URL's path + REVIEW_PATH, its query (n8n's token) kept, the secret added. */
export function reviewUrl(resumeUrl: URL, secret: string): string {
	const url = new URL(resumeUrl.href);
	const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
	url.pathname = `${path}/${REVIEW_PATH}`;
	url.searchParams.set(REVIEW_QUERY, secret);
	return url.href;
}

const properties: INodeProperties[] = [
	{
		displayName:
			'Gives every item the link of this execution\'s review page (reviewUrl), for a message before File > Review Values: the page lists the files of that Review Values node. The link works while the execution waits there.',
		name: 'reviewLinkNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['getReviewLink'] } }, properties);

/** File > Get Review Link: the input item with `reviewUrl` added; no API request. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const resumeUrl = await reviewResumeUrl(this);
	const secret = await reviewSecret(this, resumeUrl.href);
	const json: IDataObject = { ...(this.getInputData()[itemIndex]?.json ?? {}), reviewUrl: reviewUrl(resumeUrl, secret) };
	return [{ json }];
}
