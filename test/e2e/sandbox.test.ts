/**
 * The sandbox `npm start` runs (dev/n8n/sandbox.ts), in the real n8n: its own random owner password
 * and encryption key, kept 0600 with n8n's database 0600 in 0700 folders; n8n refuses requests
 * addressed to another host (DNS rebinding); offline, a credential or a node aimed at the real
 * service fails in words that say the sandbox is offline and how to go online; and a sandbox
 * folder made when every sandbox had the same password and key gets its own password, keeps
 * its key (n8n cannot change it) and its credentials still work.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS, startEmulator, type Emulator } from '../../dev/emulator';
import { DEFAULT_OWNER } from '../../dev/n8n/n8n-env';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import type { N8nRuntime } from '../../dev/n8n/n8n-runtime';
import {
	CREDENTIAL_TYPE,
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	emulatorCredential,
	prepareUserFolder,
	runWorkflow,
	waitForExecution,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { prepareSandbox } from '../../dev/n8n/sandbox';
import { FORMER_FIXED, SECRETS_FILE, settingsFileKey } from '../../dev/n8n/sandbox-state';
import { e2eRuntime, versionEnv } from './helpers';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** A real-looking key for the real service (never sent: the sandbox is offline). */
const REAL_LOOKING_KEY = 'dex_live_0123456789abcdef0123456789abcdef';
const REAL_CREDENTIAL = { id: 'dexRealService01', name: 'Document Extraction (real service)' };

const READ_SUBSCRIPTION: WorkflowJson = {
	id: 'dexSandboxSubsc1',
	name: 'sandbox: read the subscription from the real service',
	nodes: [
		{ id: 's1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 's2',
			name: 'Read the subscription',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: { documentExtractionApi: REAL_CREDENTIAL },
		},
	],
	connections: { Start: { main: [[{ node: 'Read the subscription', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

/** The same, with the emulator credential (made under the former key in the second case). */
const EMULATOR_SUBSCRIPTION: WorkflowJson = {
	...READ_SUBSCRIPTION,
	id: 'dexSandboxSubsc2',
	name: 'sandbox: read the subscription from the emulator',
	nodes: READ_SUBSCRIPTION.nodes.map((node) =>
		node.credentials ? { ...node, credentials: { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } } } : node,
	),
};

/** A GET to n8n on 127.0.0.1 with the given Host header. */
function getWithHost(port: number, host: string, requestPath: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request({ host: '127.0.0.1', port, path: requestPath, headers: { host }, agent: false }, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk.toString()));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
		});
		request.on('error', reject);
		request.end();
	});
}

async function loginStatus(n8n: N8nInstance, password: string): Promise<number> {
	const response = await fetch(`${n8n.url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'sandbox-test' },
		body: JSON.stringify({ emailOrLdapLoginId: DEFAULT_OWNER.email, password }),
	});
	await response.text();
	return response.status;
}

let runtime: N8nRuntime;
let emulator: Emulator;

beforeAll(async () => {
	runtime = await e2eRuntime();
	emulator = await startEmulator({ processingDelayMs: 0 });
});

afterAll(async () => {
	await emulator?.close();
});

describe('a new sandbox', () => {
	let userFolder: string;
	let n8n: N8nInstance;
	let secretsFile: string;
	let ownerPassword: string;

	beforeAll(async () => {
		userFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dex-sandbox-')), 'start');
		// What an older npm start left after an import.
		fs.mkdirSync(path.join(userFolder, 'import-OldScratch'), { recursive: true });
		const sandbox = await prepareSandbox({ userFolder, runtime, build: false });
		secretsFile = sandbox.secretsFile;
		ownerPassword = sandbox.owner.password;
		await sandbox.prepared.cli.importCredentials([
			{ ...REAL_CREDENTIAL, type: CREDENTIAL_TYPE, data: { apiKey: REAL_LOOKING_KEY, instance: 'default' } },
		]);
		await sandbox.prepared.cli.importWorkflow(READ_SUBSCRIPTION);
		n8n = await startN8n({
			userFolder,
			runtime,
			env: { ...sandbox.prepared.env, ...versionEnv(runtime) },
			owner: sandbox.owner,
			formerOwnerPasswords: sandbox.formerOwnerPasswords,
		});
	});

	afterAll(async () => {
		await n8n?.stop();
		if (userFolder && !process.env.E2E_KEEP) fs.rmSync(path.dirname(userFolder), { recursive: true, force: true });
	});

	test('its secrets are its own: a random owner password and key, in a 0600 file in its 0700 folder, and n8n uses them', () => {
		const secrets = JSON.parse(fs.readFileSync(secretsFile, 'utf8')) as { ownerPassword: string; encryptionKey: string };
		expect(secretsFile).toBe(path.join(userFolder, SECRETS_FILE));
		expect(mode(secretsFile)).toBe(0o600);
		expect(mode(userFolder)).toBe(0o700);
		expect(secrets.ownerPassword).toBe(ownerPassword);
		expect(secrets.ownerPassword).not.toBe(FORMER_FIXED.ownerPassword);
		expect(secrets.encryptionKey).not.toBe(FORMER_FIXED.encryptionKey);
		expect(settingsFileKey(userFolder)).toBe(secrets.encryptionKey);
	});

	test('n8n\'s state is 0600 in 0700 folders: the database, its settings file, the logs', () => {
		expect(mode(path.join(userFolder, '.n8n'))).toBe(0o700);
		for (const file of ['database.sqlite', 'config']) expect(mode(path.join(userFolder, '.n8n', file))).toBe(0o600);
		expect(mode(path.join(userFolder, 'n8n.log'))).toBe(0o600);
		const others = fs
			.readdirSync(path.join(userFolder, '.n8n'), { withFileTypes: true })
			.filter((entry) => entry.isFile() && (mode(path.join(userFolder, '.n8n', entry.name)) & 0o077) !== 0)
			.map((entry) => entry.name);
		expect(others).toEqual([]);
	});

	test('the printed password logs in; the password the README used to print does not', async () => {
		expect(await loginStatus(n8n, ownerPassword)).toBe(200);
		expect(await loginStatus(n8n, FORMER_FIXED.ownerPassword)).toBe(401);
	});

	test('a request addressed to another host (a DNS-rebinding page) gets 421 and a sentence; localhost and 127.0.0.1 are served', async () => {
		const refused = await getWithHost(n8n.port, `rebind.evil.example:${n8n.port}`, '/rest/settings');
		expect(refused.status).toBe(421);
		expect(refused.body).toContain('answers only requests addressed to localhost, 127.0.0.1 or [::1]');
		expect((await getWithHost(n8n.port, `localhost:${n8n.port}`, '/rest/settings')).status).toBe(200);
		expect((await getWithHost(n8n.port, `127.0.0.1:${n8n.port}`, '/healthz')).status).toBe(200);
	});

	test('offline, the credential test against the real service says the sandbox is offline and how to go online (with the code)', async () => {
		const result = await n8n.rest<{ status: string; message: string }>('/credentials/test', {
			body: { credentials: { ...REAL_CREDENTIAL, type: CREDENTIAL_TYPE, data: { apiKey: REAL_LOOKING_KEY, instance: 'default' } } },
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The sandbox is offline: start it with npm start -- --online to reach api\.orion\.file\.ai\..*\(ESANDBOXOFFLINE\)\.$/);
		expect(result.message).not.toContain(REAL_LOOKING_KEY);
	});

	test('the imports left no import-* scratch folder in the sandbox, and the one an older version left is gone', () => {
		expect(fs.readdirSync(userFolder).filter((name) => name.startsWith('import-'))).toEqual([]);
	});

	test('offline, the node\'s error says the sandbox is offline and how to start it online, in full', async () => {
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, READ_SUBSCRIPTION.id!, 'Start'));
		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		const shown = `${error?.message ?? ''}\n${error?.description ?? ''}`;
		expect(shown).toContain('ESANDBOXOFFLINE');
		expect(shown).toContain('The sandbox is offline: start it with npm start -- --online to reach api.orion.file.ai.');
		// The headline itself says it (not only the description), once, with no generic advice after it.
		expect(error?.message).toContain('The sandbox is offline: start it with npm start -- --online');
		expect(error?.message).toMatch(/\(ESANDBOXOFFLINE\)\.$/);
		expect(error?.message).not.toMatch(/Check the (host|network)/);
		expect(shown).not.toContain(REAL_LOOKING_KEY);
		expect(n8n.outboundAttempts().some((line) => line.endsWith('refused api.orion.file.ai:443'))).toBe(true);
	});
});

describe('a sandbox folder made when every sandbox had the same password and key', () => {
	let userFolder: string;
	let n8n: N8nInstance | undefined;

	beforeAll(async () => {
		userFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dex-sandbox-former-')), 'start');
		// What npm start made before: the fixed key and owner password (the test instances' values are those).
		expect(DEFAULT_OWNER.password).toBe(FORMER_FIXED.ownerPassword);
		const former = await prepareUserFolder({ userFolder, runtime, build: false });
		await former.cli.importCredentials([emulatorCredential(emulator.apiUrl)]);
		await former.cli.importWorkflow(EMULATOR_SUBSCRIPTION);
		const old = await startN8n({ userFolder, runtime, env: { ...former.env, ...versionEnv(runtime) } });
		await old.stop();
		fs.chmodSync(path.join(userFolder, '.n8n', 'database.sqlite'), 0o644);
		expect(settingsFileKey(userFolder)).toBe(FORMER_FIXED.encryptionKey);
	});

	afterAll(async () => {
		await n8n?.stop();
		if (userFolder && !process.env.E2E_KEEP) fs.rmSync(path.dirname(userFolder), { recursive: true, force: true });
	});

	test('the next start gives it its own owner password (changed from the fixed one) and keeps its key, which n8n cannot change; its credential still works', async () => {
		const sandbox = await prepareSandbox({ userFolder, runtime, build: false });
		expect(sandbox.created).toBe(true);
		expect(sandbox.sharedKey).toBe(true);
		expect(sandbox.secrets.encryptionKey).toBe(FORMER_FIXED.encryptionKey);
		expect(sandbox.owner.password).not.toBe(FORMER_FIXED.ownerPassword);
		expect(mode(path.join(userFolder, '.n8n', 'database.sqlite'))).toBe(0o600);

		n8n = await startN8n({
			userFolder,
			runtime,
			env: { ...sandbox.prepared.env, ...versionEnv(runtime) },
			owner: sandbox.owner,
			formerOwnerPasswords: sandbox.formerOwnerPasswords,
		});
		expect(await loginStatus(n8n, sandbox.owner.password)).toBe(200);
		expect(await loginStatus(n8n, FORMER_FIXED.ownerPassword)).toBe(401);

		// The credential stored before still decrypts: the workflow that uses it reaches the emulator with its key.
		emulator.requests.length = 0;
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, EMULATOR_SUBSCRIPTION.id!, 'Start'));
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(emulator.requests.filter((entry) => entry.path.endsWith('/subscription')).map((entry) => entry.headers['x-api-key'])).toEqual([SEEDED_KEYS.readWrite]);
	});
});
