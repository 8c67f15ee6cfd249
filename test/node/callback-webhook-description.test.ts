/**
 * The action node declares webhooks only for Upload's callback wait, and each is a restart
 * webhook, which n8n serves while an execution waits and never registers: so it needs no
 * webhookMethods (docs/dev/callback-wait.md, "n8n's restart webhook and the lint rule"). A
 * webhook that an activation registers would need them: this test fails first.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { loadBuiltPackage } from './support';

describe("the action node's webhooks", () => {
	it('are restart webhooks only (POST, a fixed path, answered by webhook() itself), and the node has webhook() but no webhookMethods', async () => {
		const loaded = await loadBuiltPackage();
		const node = loaded.nodeTypes['n8n-nodes-document-extraction.documentExtraction'];
		const description = 'description' in node ? (node.description as INodeTypeDescription) : undefined;

		expect(description?.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'document-extraction-callback', restartWebhook: true },
		]);
		expect(description?.webhooks?.every((webhook) => webhook.restartWebhook === true)).toBe(true);
		expect(typeof (node as { webhook?: unknown }).webhook).toBe('function');
		expect((node as { webhookMethods?: unknown }).webhookMethods).toBeUndefined();
	});

});
