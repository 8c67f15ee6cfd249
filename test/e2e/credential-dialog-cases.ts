/**
 * What the credential dialog says after "Test", in the real n8n, through the REST endpoint the
 * editor calls (POST /rest/credentials/test, after saving the credential as the editor does), on
 * each supported n8n: test/e2e/credential-dialog.test.ts (2.41.1) and
 * test/e2e-n8n1/credential-dialog.test.ts (1.123.81) run these same cases.
 *
 * Two n8n processes on one user folder, one after the other:
 * - offline as `npm start` runs it (the loopback guard, with the sandbox's online command): the
 *   Default instance is refused before any lookup, and the dialog says the sandbox is offline and
 *   how to go online;
 * - online on a network whose DNS answers nothing (dev/n8n/dns-block.cjs): an unknown host, typed
 *   or not, and everything the emulator, a closed port and an untrusted certificate give.
 * Every message is words (no bare code), and the key reaches the API host only.
 */
import { SEEDED_KEYS, keyLeaks, startEmulator, type Emulator } from '../../dev/emulator';
import { dnsBlockedEnv } from '../../dev/n8n/n8n-env';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import type { N8nRuntime } from '../../dev/n8n/n8n-runtime';
import { CREDENTIAL_TYPE, prepareUserFolder, type PreparedFolder } from '../../dev/n8n/n8n-stack';
import { startSelfSignedHttps, type SelfSignedServer } from '../../dev/self-signed-https';
import { onlineCommand } from '../../dev/start-message';
import { e2eRuntime, versionEnv } from './helpers';

const UNKNOWN_KEY = 'dex_test_wsA_unknown_0000000000000000';

interface TestResult {
	status: string;
	message: string;
}

/** Saves a credential with `data` and tests it, as the editor's Save and Test do. */
async function saveAndTest(n8n: N8nInstance, name: string, data: Record<string, string>): Promise<TestResult> {
	const { id } = await n8n.rest<{ id: string }>('/credentials', { body: { name, type: CREDENTIAL_TYPE, data } });
	return await n8n.rest<TestResult>('/credentials/test', { body: { credentials: { id, name, type: CREDENTIAL_TYPE, data } } });
}

export function credentialDialogCases(): void {
	let runtime: N8nRuntime;
	let prepared: PreparedFolder;
	let emulator: Emulator;
	let untrusted: SelfSignedServer;

	beforeAll(async () => {
		runtime = await e2eRuntime();
		prepared = await prepareUserFolder({ runtime, build: false });
		emulator = await startEmulator({ processingDelayMs: 0 });
		untrusted = await startSelfSignedHttps();
	});

	afterAll(async () => {
		await emulator?.close();
		await untrusted?.close();
	});

	describe('offline, as npm start runs it', () => {
		let n8n: N8nInstance;

		beforeAll(async () => {
			n8n = await startN8n({
				userFolder: prepared.userFolder,
				runtime,
				env: { ...prepared.env, ...versionEnv(runtime), LOOPBACK_GUARD_ONLINE_HINT: onlineCommand('npm start') },
			});
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		test('the Default instance: the sandbox is offline and how to go online, once, with the code', async () => {
			const key = 'dex_live_0123456789abcdef0123456789abcdef';
			const result = await saveAndTest(n8n, 'Real service, offline', { apiKey: key, instance: 'default' });

			expect(result).toEqual({
				status: 'Error',
				message:
					'The sandbox is offline: start it with npm start -- --online to reach api.orion.file.ai. It may connect only to this machine (127.0.0.1), so the connection to api.orion.file.ai:443 was refused (ESANDBOXOFFLINE).',
			});
			expect(n8n.outboundAttempts().some((line) => line.endsWith('refused api.orion.file.ai:443'))).toBe(true);
		});
	});

	describe('online, on a network whose DNS answers nothing', () => {
		let n8n: N8nInstance;

		beforeAll(async () => {
			n8n = await startN8n({
				userFolder: prepared.userFolder,
				runtime,
				online: true,
				env: { ...prepared.env, ...versionEnv(runtime), ...dnsBlockedEnv() },
			});
			emulator.requests.length = 0;
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		test('a working key: OK', async () => {
			expect(await saveAndTest(n8n, 'Emulator, read-write key', { apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl })).toMatchObject({ status: 'OK' });
		});

		test('a read-only key: OK, it may read', async () => {
			expect(await saveAndTest(n8n, 'Emulator, read-only key', { apiKey: SEEDED_KEYS.readOnly, baseUrl: emulator.apiUrl })).toMatchObject({ status: 'OK' });
		});

		test('a rejected key (401): says so and where to copy it from', async () => {
			expect(await saveAndTest(n8n, 'Emulator, unknown key', { apiKey: UNKNOWN_KEY, baseUrl: emulator.apiUrl })).toEqual({
				status: 'Error',
				message: 'The API key was rejected (HTTP 401): it is mistyped, incomplete or revoked. Copy it whole from the project settings of your fileAI dashboard.',
			});
		});

		test('an inactive key (403): says so and how to activate it', async () => {
			expect(await saveAndTest(n8n, 'Emulator, inactive key', { apiKey: SEEDED_KEYS.inactive, baseUrl: emulator.apiUrl })).toEqual({
				status: 'Error',
				message: 'The API key is inactive (HTTP 403): activate it, or create a new key, in the project settings of your fileAI dashboard.',
			});
		});

		test('the Default instance, its host not found: the network is at fault, not a spelling nobody typed', async () => {
			const result = await saveAndTest(n8n, 'Real service, no DNS', { apiKey: 'dex_live_0123456789abcdef0123456789abcdef', instance: 'default' });

			expect(result).toEqual({
				status: 'Error',
				message:
					'Could not reach https://api.orion.file.ai: its host name could not be looked up (DNS, ENOTFOUND). It is the fixed host of the chosen Instance, so nothing typed in the credential is wrong: the network between n8n and the internet is. Check that n8n can reach the internet from where it runs: its DNS server, firewall or HTTP proxy.',
			});
		});

		test('an Instance Host the user typed, not found: check its spelling', async () => {
			const result = await saveAndTest(n8n, 'Japan, mistyped host', { apiKey: SEEDED_KEYS.readWrite, instance: 'jp', instanceHost: 'api.jp.example-instance.invalid' });

			expect(result).toEqual({
				status: 'Error',
				message:
					'Could not reach https://api.jp.example-instance.invalid: its host name was not found (DNS, ENOTFOUND). Check the spelling of the Instance Host in the credential, and that n8n can look up host names where it runs.',
			});
		});

		test('a refused connection: the Base URL Override\'s host and port', async () => {
			const closed = await startEmulator({ processingDelayMs: 0 });
			const url = closed.apiUrl;
			await closed.close();
			const result = await saveAndTest(n8n, 'Emulator, stopped', { apiKey: SEEDED_KEYS.readWrite, baseUrl: url });

			expect(result).toEqual({
				status: 'Error',
				message: `Could not reach ${url}: the connection was refused: nothing accepts connections on that host and port (ECONNREFUSED). Check the host and port of the Base URL Override in the credential; for a local emulator or proxy, that it is running on that port.`,
			});
		});

		test('a certificate nobody trusts: says so and what to do; nothing got through', async () => {
			const result = await saveAndTest(n8n, 'Proxy with its own certificate', { apiKey: SEEDED_KEYS.readWrite, baseUrl: untrusted.url });

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(`^Could not reach ${untrusted.url.replace(/\./g, '\\.')}: its TLS certificate is not trusted, or is not made out to its name \\([A-Z_]+\\)\\. The host must present a valid certificate for its name\\.`),
			);
			expect(untrusted.requests).toBe(0);
		});

		test('a redirect: not followed, says where it pointed; the key went to the API host only', async () => {
			emulator.faults.redirectNext({ method: 'GET', path: '/subscription', status: 302 });
			const result = await saveAndTest(n8n, 'Emulator, redirecting', { apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl });

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered with a redirect \(HTTP 302\) to http:\/\/127\.0\.0\.1:\d+\. The API key is never sent on through a redirect/);
			expect(emulator.requests.filter((entry) => entry.host === 'trap')).toEqual([]);
			for (const key of [SEEDED_KEYS.readWrite, SEEDED_KEYS.readOnly, SEEDED_KEYS.inactive, UNKNOWN_KEY]) expect(keyLeaks(emulator, key)).toEqual([]);
		});

		test('every test request the emulator saw was GET /prod/v1/subscription on the API host', () => {
			const tested = emulator.requests.filter((entry) => entry.host === 'api');
			expect(tested.length).toBeGreaterThanOrEqual(5);
			expect(tested.every((entry) => entry.method === 'GET' && entry.path === '/prod/v1/subscription')).toBe(true);
		});
	});
}
