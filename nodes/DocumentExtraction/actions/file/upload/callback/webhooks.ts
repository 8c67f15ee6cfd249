import type { IWebhookDescription } from 'n8n-workflow';

/**
 * Where the service's callbacks come to: under the waiting execution's resume URL,
 * `<webhook base>/webhook-waiting/<execution id>/<CALLBACK_PATH>`. Written once; the callback URL
 * of each upload is built from it (run.ts) and n8n routes the call by it to webhook().
 */
export const CALLBACK_PATH = 'document-extraction-callback';

/** The query parameters the node adds to each callback URL (n8n reads only its own `signature`). */
export const CALLBACK_QUERY = { secret: 'dexToken', item: 'dexItem' } as const;

/**
 * The node's one webhook: a restart webhook, as n8n's Wait node and its send-and-wait nodes have.
 * n8n serves it only while an execution of the node waits (at the resume URL above), registers it
 * nowhere and never calls webhookMethods for it: they are for webhooks that an activation
 * registers with an outside service, which this one is not. Declared as a typed constant, the way
 * n8n's send-and-wait nodes declare theirs (`sendAndWaitWebhooksDescription`);
 * test/node/callback-webhook-description.test.ts fails if an entry here stops being a restart
 * webhook, because a registered webhook would need webhookMethods (n8n's lint rule
 * webhook-lifecycle-complete, docs/dev/callback-wait.md).
 */
export const RESUME_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		// Every answer is written by webhook() itself (noWebhookResponse).
		responseMode: 'onReceived',
		path: CALLBACK_PATH,
		restartWebhook: true,
	},
];

/**
 * What the editor says under "Waiting for input" while an execution waits in this node: n8n
 * evaluates a node type's `waitingNodeTooltip` with $parameter and $execution (editor-ui, 1.123.81
 * and 2.41.1; n8n's Wait node words its own so). Only Upload with Wait Mode "When the Service Calls
 * Back" ever waits; its Wait Timeout default is PROCESSING_WAIT_LIMITS.defaultWaitTimeoutSeconds.
 */
export const CALLBACK_WAITING_TOOLTIP =
	'={{ "Waiting for the Document Extraction Service to call back: the execution resumes once every upload has been processed, or after the Wait Timeout (" + ($parameter.options && $parameter.options.waitTimeout ? $parameter.options.waitTimeout : 300) + " s), when the input items come out unchanged. Meanwhile it holds no worker; Executions lists it as Waiting." }}';
