import type { IDataObject } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import { apiCalls, runOperation } from './run-operation';
import { SEEDED_KEYS, useEmulator } from './support';

const emulator = useEmulator();

describe('Workspace > Get Subscription', () => {
	it('outputs the subscription of the key\'s workspace as one item', async () => {
		const { items, error } = await runOperation(emulator, 'workspace', 'getSubscription');

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const expected = JSON.parse(JSON.stringify(emulator.state.subscriptionOf(SEED_IDS.workspaceA)));
		expect(items[0].json).toEqual(expected);
		expect(items[0].json).toMatchObject({ workspaceId: SEED_IDS.workspaceA });
		expect(typeof items[0].json.maxImportCount).toBe('number');
		expect(apiCalls(emulator)).toEqual(['GET /subscription']);
	});

	it('fails with the 403 of an inactive key, saying what to do', async () => {
		const { error } = await runOperation(emulator, 'workspace', 'getSubscription', {}, { apiKey: SEEDED_KEYS.inactive });

		expect(error?.message).toContain('HTTP 403');
		expect(error?.message).toContain('inactive');
		expect(error?.message).not.toContain(SEEDED_KEYS.inactive);
	});
});

describe('Workspace > Get Project Settings', () => {
	it('outputs the project settings as one item', async () => {
		const { items, error } = await runOperation(emulator, 'workspace', 'getProjectSettings');

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ projectId: expect.any(String), ocrModel: expect.any(String) });
		expect(typeof items[0].json.isSplit).toBe('boolean');
		expect(apiCalls(emulator)).toEqual(['GET /project/setting']);
	});

	it('fails with the 401 of an unknown key', async () => {
		const { error } = await runOperation(emulator, 'workspace', 'getProjectSettings', {}, { apiKey: 'dex_wrong_key_000000' });

		expect(error?.message).toContain('HTTP 401');
		expect(error?.message).toContain('Check the API key');
	});

	it('with continueOnFail, an inactive key gives an error item paired with its input', async () => {
		const { items, error } = await runOperation(
			emulator,
			'workspace',
			'getProjectSettings',
			{},
			{ apiKey: SEEDED_KEYS.inactive, continueOnFail: true, inputItems: [{ json: {} }, { json: {} }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.error).toContain('HTTP 403');
			expect(item.json.httpCode).toBe('403');
		});
	});
});

describe('Max Retry Wait and Request Timeout are checked for every operation before any request', () => {
	it.each<[string, string, IDataObject, string]>([
		['getSubscription', 'a Max Retry Wait of -1', { maxRateLimitWait: -1 }, 'Invalid Max Retry Wait (Seconds) in item 0: expected a number of seconds from 0 to 3600, got "-1"'],
		['getSubscription', 'a Request Timeout "slow"', { requestTimeout: '={{ "slow" }}' }, 'Invalid Request Timeout (Seconds) in item 0: expected a number of seconds, 1 or more, got "slow"'],
		['getProjectSettings', 'a Request Timeout of 0', { requestTimeout: 0 }, 'Invalid Request Timeout (Seconds) in item 0: expected a number of seconds, 1 or more, got "0"'],
		['getProjectSettings', 'a Max Retry Wait of 86400 (a day)', { maxRateLimitWait: 86_400 }, 'Invalid Max Retry Wait (Seconds) in item 0: expected a number of seconds from 0 to 3600, got "86400"'],
	])('%s: %s', async (operation, _case, options, message) => {
		const { error } = await runOperation(emulator, 'workspace', operation, { options });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
