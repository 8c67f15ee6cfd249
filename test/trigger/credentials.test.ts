/**
 * The credential is read once per poll, not once per request (n8n decrypts and resolves it on
 * every read), and never kept from one poll to the next: n8n keeps one poll context for the whole
 * activation, and a credential edited while the workflow is active applies from the next poll.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { HarnessCredentialsHelper } from '../../dev/harness';
import { MINUTE, SEEDED_KEYS, activateTrigger, credentialsFor, iso, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;

afterEach(() => {
	jest.restoreAllMocks();
});

function apiKeysSent(): string[] {
	return emulator.requests.filter((entry) => entry.host === 'api').map((entry) => String(entry.headers['x-api-key']));
}

it('a poll reads the credential once, however many requests it sends', async () => {
	addFiles(emulator.state, 250, { createdAtMs: (i) => T0 + i * 10 });
	const trigger = await activateTrigger(emulator, {
		event: 'fileProcessed',
		startFrom: 'date',
		startDate: iso(T0),
		options: { includeValues: true },
	});
	const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
	emulator.requests.length = 0;

	const first = await trigger.poll();

	expect(first.error).toBeUndefined();
	expect(first.items).toHaveLength(250);
	// Three list pages and one values request per file, all with the key, from one read.
	expect(apiKeysSent()).toHaveLength(3 + 250);
	expect(new Set(apiKeysSent())).toEqual(new Set([SEEDED_KEYS.readWrite]));
	expect(reads).toHaveBeenCalledTimes(1);

	reads.mockClear();
	const idle = await trigger.poll();
	expect(idle.error).toBeUndefined();
	expect(reads).toHaveBeenCalledTimes(1);
});

it('a credential edited between two polls of one activation is used by the next poll', async () => {
	addFiles(emulator.state, 3, { createdAtMs: (i) => T0 + i * 10 });
	const trigger = await activateTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(T0) });
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toHaveLength(3);

	const revokedKey = 'dex_revoked_key_00000000000000000';
	trigger.setCredentials(credentialsFor(emulator, revokedKey));
	emulator.requests.length = 0;
	const withRevokedKey = await trigger.poll();
	expect(String(withRevokedKey.error?.message)).toContain('HTTP 401');
	expect(apiKeysSent()).toEqual([revokedKey]);

	addFiles(emulator.state, 2, { createdAtMs: (i) => Date.now() - 1000 + i });
	trigger.setCredentials(credentialsFor(emulator, SEEDED_KEYS.readOnly));
	emulator.requests.length = 0;
	const withNewKey = await trigger.poll();
	expect(withNewKey.error).toBeUndefined();
	expect(withNewKey.items).toHaveLength(2);
	expect(new Set(apiKeysSent())).toEqual(new Set([SEEDED_KEYS.readOnly]));
});
