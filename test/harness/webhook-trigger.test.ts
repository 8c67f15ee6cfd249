/**
 * activateWebhookTrigger serves a live webhook as the n8n application does (measured on n8n 2.41.1
 * and 1.123.81 in the issue-31 research): a throw answers 500 and runs the workflow with one empty
 * item, noWebhookResponse without an answer leaves the caller hanging, a node that answers nothing
 * gets 200; static data is read when a call starts and saved when it returns, so concurrent calls
 * lose each other's changes (the last save wins) while sequential ones see them.
 */
import { FIXTURE_PACKAGE_DIR } from './fixtures/fixture-server';
import type { ActiveWebhookTrigger } from '../../dev/harness';
import { activateWebhookTrigger } from '../../dev/harness';

let trigger: ActiveWebhookTrigger;

beforeEach(async () => {
	trigger = await activateWebhookTrigger({ packageDir: FIXTURE_PACKAGE_DIR, type: 'harnessFixtureWebhook', webhookId: '0b7c1e52-3f0a-4c55-9a8e-2d6f4b1c9e70' });
});

afterEach(async () => {
	await trigger.close();
});

describe('activateWebhookTrigger', () => {
	it("serves the node's webhook at /webhook/<webhookId>/<path>, the URL getNodeWebhookUrl gives", async () => {
		expect(trigger.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/0b7c1e52-3f0a-4c55-9a8e-2d6f4b1c9e70\/hook$/);
		const call = await trigger.post({ mode: 'count' });
		expect(call).toMatchObject({ status: 202, body: { seen: 0 }, emitted: [[{ json: { calls: 1 } }]], hung: false, answeredBeforeReturn: true });
		expect(trigger.staticData()).toEqual({ calls: 1 });
	});

	it('sequential calls see each other\'s static data; concurrent calls each read it before the others save it', async () => {
		await trigger.post({ mode: 'count' });
		await trigger.post({ mode: 'count' });
		expect(trigger.staticData()).toEqual({ calls: 2 });
		const concurrent = await Promise.all([1, 2, 3].map(async () => await trigger.post({ mode: 'count', waitMs: 50 })));
		expect(concurrent.map((call) => call.body)).toEqual([{ seen: 2 }, { seen: 2 }, { seen: 2 }]);
		expect(trigger.staticData()).toEqual({ calls: 3 });
		expect(trigger.emissions()).toHaveLength(5);
	});

	it('a throw: 500 and the workflow runs with one empty item; silence: the caller is left hanging; nothing of its own: 200', async () => {
		const thrown = await trigger.post({ mode: 'throw' });
		expect(thrown).toMatchObject({ status: 500, emitted: [[{ json: {} }]] });
		expect(thrown.thrown?.message).toBe('webhook threw');
		expect(await trigger.post({ mode: 'silent' })).toMatchObject({ status: 0, hung: true });
		expect(await trigger.post({ mode: 'plain' })).toMatchObject({ status: 200, body: { message: 'Webhook call received' } });
	});

	it('invalid JSON is refused before the node runs (422); activation fails with what create threw', async () => {
		await expect(trigger.post('{not json', { raw: true })).rejects.toThrow(/before it reached the webhook/);
		await expect(
			activateWebhookTrigger({ packageDir: FIXTURE_PACKAGE_DIR, type: 'harnessFixtureWebhook', parameters: { refuse: true }, publicWebhookBase: 'https://n8n.example.com/webhook' }),
		).rejects.toThrow(/^refused https:\/\/n8n\.example\.com\/webhook\/[0-9a-f-]{36}\/hook$/);
	});
});
