/**
 * The action node declares webhooks only for Upload's callback wait and Review Values' page
 * (docs/dev/review-values.md), and each is a restart
 * webhook, which n8n serves while an execution waits and never registers: so it needs no
 * webhookMethods (docs/dev/callback-wait.md, "n8n's restart webhook and the lint rule"). A
 * webhook that an activation registers would need them: this test fails first.
 */
import type { INode, INodeParameters, INodeTypeDescription, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { loadBuiltPackage } from './support';

describe("the action node's webhooks", () => {
	it('are restart webhooks only (fixed paths, answered by webhook() itself), and the node has webhook() but no webhookMethods', async () => {
		const loaded = await loadBuiltPackage();
		const node = loaded.nodeTypes['n8n-nodes-document-extraction.documentExtraction'];
		const description = 'description' in node ? (node.description as INodeTypeDescription) : undefined;

		expect(description?.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'document-extraction-callback', restartWebhook: true },
			{ name: 'default', httpMethod: 'GET', responseMode: 'onReceived', path: 'document-extraction-review', restartWebhook: true },
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'document-extraction-review', restartWebhook: true },
		]);
		expect(description?.webhooks?.every((webhook) => webhook.restartWebhook === true)).toBe(true);
		expect(typeof (node as { webhook?: unknown }).webhook).toBe('function');
		expect((node as { webhookMethods?: unknown }).webhookMethods).toBeUndefined();
	});

});

/**
 * While an execution waits in Upload ("When the Service Calls Back"), n8n's editor shows the node
 * type's waitingNodeTooltip under "Waiting for input", evaluated as an expression of the node
 * (editor-ui: `workflow.expression.getSimpleParameterValue(node, tooltip, 'internal', { $execution })`,
 * 1.123.81 and 2.41.1). Evaluated so here, it names what the node waits for and its Wait Timeout.
 */
describe("the action node's words while it waits", () => {
	async function tooltipFor(options: INodeParameters, operation = 'upload'): Promise<string> {
		const loaded = await loadBuiltPackage();
		const nodeType = loaded.nodeTypes['n8n-nodes-document-extraction.documentExtraction'];
		const description = (nodeType as { description: INodeTypeDescription }).description;
		const node: INode = {
			id: 'u1',
			name: 'Upload and wait',
			type: 'n8n-nodes-document-extraction.documentExtraction',
			typeVersion: 2,
			position: [0, 0],
			parameters: { resource: 'file', operation, waitForCompletion: true, waitMode: 'callback', options },
		};
		const nodeTypes: INodeTypes = {
			getByName: () => nodeType,
			getByNameAndVersion: (_name, version) => NodeHelpers.getVersionedNodeType(nodeType, version),
			getKnownTypes: () => ({}),
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const $execution = { id: '7', mode: 'test' as const, resumeUrl: 'https://n8n.example.com/webhook-waiting/7', resumeFormUrl: 'https://n8n.example.com/form-waiting/7' };
		return String(workflow.expression.getSimpleParameterValue(node, description.waitingNodeTooltip!, 'internal', { $execution }));
	}

	it('say what the execution waits for and until when, with the node\'s own Wait Timeout', async () => {
		expect(await tooltipFor({})).toBe(
			'Waiting for the Document Extraction Service to call back: the execution resumes once every upload has been processed, or after the Wait Timeout (300 s), when the input items come out unchanged. Meanwhile it holds no worker; Executions lists it as Waiting.',
		);
		expect(await tooltipFor({ waitTimeout: 3600 })).toContain('after the Wait Timeout (3600 s)');
	});

	it('in Review Values, say that a person is awaited and what comes out after the Wait Limit', async () => {
		expect(await tooltipFor({}, 'reviewValues')).toMatch(/^Waiting for a person to send the review .*after the Wait Limit with the input items unchanged/);
	});
});

/**
 * Issue 39, section 2: Upload's wait cannot be made safe when two processes take the last
 * callbacks of one execution at once (docs/queue-mode.md). The node says so where the user sets
 * Wait Mode up: in the notice shown with "When the Service Calls Back".
 */
describe("Upload's callback notice", () => {
	it('tells a user with several webhook processes to send /webhook-waiting/ to one of them, and why', async () => {
		const loaded = await loadBuiltPackage();
		const node = loaded.nodeTypes['n8n-nodes-document-extraction.documentExtraction'];
		const description = 'description' in node ? (node.description as INodeTypeDescription) : undefined;
		const notice = description?.properties.find((property) => property.name === 'callbackNotice');
		expect(notice?.displayOptions?.show).toMatchObject({ waitMode: ['callback'] });
		expect(notice?.displayName).toContain('send /webhook-waiting/ to one of them');
		expect(notice?.displayName).toContain('may both resume it');
	});
});
