/**
 * Activation and deactivation (webhookMethods): nothing is registered at the service (the API has
 * no such endpoint), so activation only refuses a Production URL the service cannot call, naming
 * WEBHOOK_URL, and asks the API nothing (an API that is down when n8n starts must not deactivate
 * the trigger).
 */
import { useEmulator } from '../node/support';
import { CALLBACK_TRIGGER_TYPE, EMULATOR_OPTIONS, activateCallbackTrigger, credentialsFor } from './support';
import { activateWebhookTrigger } from '../../dev/harness';

const emulator = useEmulator(EMULATOR_OPTIONS);

describe('activation', () => {
	it('an https Production URL: activated without a request to the API; deactivated likewise', async () => {
		const trigger = await activateCallbackTrigger(emulator, {}, { publicWebhookBase: 'https://n8n.example.com/webhook' });
		expect(trigger.url).toMatch(/^https:\/\/n8n\.example\.com\/webhook\/[0-9a-f-]{36}\/callback$/);
		await trigger.deactivate();
		expect(emulator.requests).toEqual([]);
	});

	it('an http Production URL on another host: refused, naming the URL and WEBHOOK_URL', async () => {
		await expect(activateCallbackTrigger(emulator, {}, { publicWebhookBase: 'http://n8n.example.com/webhook' })).rejects.toThrow(
			/Production URL is "http:\/\/n8n\.example\.com\/webhook\/.*\/callback".*only https/,
		);
		await expect(activateCallbackTrigger(emulator, {}, { publicWebhookBase: 'http://n8n.example.com/webhook' })).rejects.toMatchObject({
			description: expect.stringMatching(/WEBHOOK_URL/),
		});
		expect(emulator.requests).toEqual([]);
	});

	it('http on loopback: accepted with an API on loopback (the emulator), refused with a real API host', async () => {
		const local = await activateCallbackTrigger(emulator);
		expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\//);
		await expect(
			activateWebhookTrigger({
				type: CALLBACK_TRIGGER_TYPE,
				credentials: { documentExtractionApi: { ...credentialsFor(emulator).documentExtractionApi, baseUrl: 'https://api.example.com' } },
			}),
		).rejects.toThrow(/only https/);
		expect(emulator.requests).toEqual([]);
	});
});
