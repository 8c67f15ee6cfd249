import { SEED_IDS } from '../emulator';
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
