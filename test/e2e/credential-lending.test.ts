/**
 * A user who may use the Document Extraction credential but not read it tries to borrow its key
 * in the real n8n, through n8n's own HTTP Request node (Authentication: Predefined Credential
 * Type = Document Extraction API), as issue 26 item 3 describes:
 * - n8n lets HTTP Request use it (it adds its "Allowed HTTP Request Domains" fields to it); the
 *   editor's dropdown of n8n 2.41.1 does not list it (n8n serves a copy of the type without the
 *   class-method `authenticate`), but a workflow that names it runs with it;
 * - a plain request with it reaches the API with the key (the path is real);
 * - Options > Proxy pointing at a listener of the test, with Ignore SSL Issues on, is refused and
 *   the listener receives nothing: neither over plain http (the emulator's loopback Base URL) nor
 *   over https, where the listener intercepts the tunnel's TLS with a self-signed certificate as
 *   a user's own proxy would;
 * - Ignore SSL Issues alone, and a Host header of the user's, are refused too.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS, keyLeaks } from '../../dev/emulator';
import { startRecordingProxy, type RecordingProxy } from '../fixtures/recording-proxy';
import {
	CREDENTIAL_TYPE,
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	executionOutput,
	runWorkflow,
	startStack,
	waitForExecution,
	type ExecutionRecord,
	type Stack,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { e2eRuntime } from './helpers';

const KEY = SEEDED_KEYS.readWrite;
const HTTP_REQUEST = 'HTTP Request';

/** A second credential with the same key and an https Base URL (nothing listens there: only the intercepting proxy would answer). */
const HTTPS_CREDENTIAL = { id: 'dexLendHttpsCred', name: 'Document Extraction over https (lending test)' };
/** The emulator credential with n8n's "Allowed HTTP Request Domains" set to None (docs/security.md, What an operator must configure). */
const NO_HTTP_REQUEST_CREDENTIAL = { id: 'dexLendNoneCred1', name: 'Document Extraction, not for HTTP Request' };

interface Case {
	id: string;
	credential: { id: string; name: string };
	url: (apiUrl: string) => string;
	options: (proxies: { plain: RecordingProxy; intercepting: RecordingProxy }) => Record<string, unknown>;
	headers?: Record<string, string>;
}

const CASES: Record<string, Case> = {
	plain: {
		id: 'dexLendPlain0001',
		credential: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME },
		url: (apiUrl) => `${apiUrl}/prod/v1/subscription`,
		options: () => ({}),
	},
	proxyIgnoreSsl: {
		id: 'dexLendProxy0001',
		credential: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME },
		url: (apiUrl) => `${apiUrl}/prod/v1/subscription`,
		options: ({ plain }) => ({ proxy: plain.url, allowUnauthorizedCerts: true }),
	},
	interceptingProxy: {
		id: 'dexLendMitm00001',
		credential: HTTPS_CREDENTIAL,
		url: () => 'https://127.0.0.1:9/prod/v1/subscription',
		options: ({ intercepting }) => ({ proxy: intercepting.url, allowUnauthorizedCerts: true }),
	},
	ignoreSsl: {
		id: 'dexLendNoSsl0001',
		credential: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME },
		url: (apiUrl) => `${apiUrl}/prod/v1/subscription`,
		options: () => ({ allowUnauthorizedCerts: true }),
	},
	domainsNone: {
		id: 'dexLendNone00001',
		credential: NO_HTTP_REQUEST_CREDENTIAL,
		url: (apiUrl) => `${apiUrl}/prod/v1/subscription`,
		options: () => ({}),
	},
	hostHeader: {
		id: 'dexLendHost00001',
		credential: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME },
		url: (apiUrl) => `${apiUrl}/prod/v1/subscription`,
		options: () => ({}),
		headers: { Host: 'api.orion.file.ai' },
	},
};

/** Manual Trigger -> HTTP Request (v4.2) with Predefined Credential Type = our credential. */
function lendingWorkflow(name: string, spec: Case, apiUrl: string, proxies: { plain: RecordingProxy; intercepting: RecordingProxy }): WorkflowJson {
	const headers = Object.entries(spec.headers ?? {});
	return {
		id: spec.id,
		name: `e2e: borrow the credential (${name})`,
		nodes: [
			{ id: 'c1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'c2',
				name: HTTP_REQUEST,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'GET',
					url: spec.url(apiUrl),
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					...(headers.length
						? { sendHeaders: true, specifyHeaders: 'keypair', headerParameters: { parameters: headers.map(([hName, value]) => ({ name: hName, value })) } }
						: {}),
					options: spec.options(proxies),
				},
				credentials: { [CREDENTIAL_TYPE]: spec.credential },
			},
		],
		connections: { Start: { main: [[{ node: HTTP_REQUEST, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Manual Trigger -> Document Extraction > Workspace > Get Subscription with the "None" credential. */
const OWN_NODE_WITH_NONE: WorkflowJson = {
	id: 'dexLendNoneOwn01',
	name: 'e2e: the package node with a credential closed to HTTP Request',
	nodes: [
		{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'n2',
			name: 'Read the subscription',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: { [CREDENTIAL_TYPE]: NO_HTTP_REQUEST_CREDENTIAL },
		},
	],
	connections: { Start: { main: [[{ node: 'Read the subscription', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

/** A self-signed certificate for 127.0.0.1, made with the system's openssl, for the intercepting proxy. */
function selfSignedCertificate(dir: string): { key: string; cert: string } {
	const keyFile = path.join(dir, 'key.pem');
	const certFile = path.join(dir, 'cert.pem');
	execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
	return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
}

function errorMessage(execution: ExecutionRecord): string {
	const { error, runData } = execution.data?.resultData ?? { runData: {} };
	return [error?.message, error?.description, runData?.[HTTP_REQUEST]?.[0]?.error?.message].filter(Boolean).join('\n');
}

describe('borrowing the credential through the HTTP Request node of the real n8n', () => {
	let stack: Stack;
	let plain: RecordingProxy;
	let intercepting: RecordingProxy;
	let certDir: string;

	beforeAll(async () => {
		certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-e2e-lending-'));
		plain = await startRecordingProxy();
		intercepting = await startRecordingProxy(selfSignedCertificate(certDir));
		stack = await startStack({
			build: false,
			runtime: await e2eRuntime(),
			workflows: (apiUrl) => [...Object.entries(CASES).map(([name, spec]) => lendingWorkflow(name, spec, apiUrl, { plain, intercepting })), OWN_NODE_WITH_NONE],
			credentials: (apiUrl) => [
				{ ...HTTPS_CREDENTIAL, type: CREDENTIAL_TYPE, data: { apiKey: KEY, instance: 'default', baseUrl: 'https://127.0.0.1:9' } },
				{ ...NO_HTTP_REQUEST_CREDENTIAL, type: CREDENTIAL_TYPE, data: { apiKey: KEY, instance: 'default', baseUrl: apiUrl, allowedHttpRequestDomains: 'none' } },
			],
		});
	});

	afterAll(async () => {
		await stack?.stop();
		await plain?.close();
		await intercepting?.close();
		if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
		if (stack && !process.env.E2E_KEEP) fs.rmSync(stack.userFolder, { recursive: true, force: true });
	});

	async function run(spec: Case): Promise<ExecutionRecord> {
		return await waitForExecution(stack.n8n, await runWorkflow(stack.n8n, spec.id, 'Start'), 120_000);
	}

	/** What each proxy has received so far, to judge one case by what came after. */
	function proxyMarks() {
		return [plain, intercepting].map((proxy) => ({ proxy, bytes: proxy.received().length, connections: proxy.connections }));
	}

	function expectNothingLent(marks: ReturnType<typeof proxyMarks>): void {
		for (const { proxy, bytes, connections } of marks) {
			const received = proxy.received().slice(bytes);
			expect({ proxy: proxy.url, keySeen: received.includes(KEY) }).toEqual({ proxy: proxy.url, keySeen: false });
			expect({ proxy: proxy.url, connections: proxy.connections - connections }).toEqual({ proxy: proxy.url, connections: 0 });
		}
		expect(stack.emulator.requests).toEqual([]);
		expect(keyLeaks(stack.emulator, KEY)).toEqual([]);
	}

	beforeEach(() => {
		stack.emulator.requests.length = 0;
	});

	test('n8n treats it as a credential HTTP Request may use (whether or not its editor lists it), and the node runs with it', async () => {
		// The HTTP Request node (v4.2) offers under Predefined Credential Type the types matching these filters.
		const nodeTypes = (await (await stack.n8n.request('/types/nodes.json')).json()) as Array<{ name: string; version: number | number[]; properties: Array<{ name: string; credentialTypes?: string[] }> }>;
		const httpRequest = nodeTypes.find((type) => type.name === 'n8n-nodes-base.httpRequest' && ([] as number[]).concat(type.version).includes(4.2));
		const filters = httpRequest?.properties.find((property) => property.name === 'nodeCredentialType')?.credentialTypes ?? [];
		expect(filters).toEqual(expect.arrayContaining(['has:authenticate']));
		const credentialTypes = (await (await stack.n8n.request('/types/credentials.json')).json()) as Array<{ name: string; authenticate?: unknown; extends?: string[]; properties: Array<{ name: string }> }>;
		const ours = credentialTypes.find((type) => type.name === CREDENTIAL_TYPE);
		// n8n adds its "Allowed HTTP Request Domains" fields only to credential types it lets HTTP Request use.
		expect(ours?.properties.map((property) => property.name)).toEqual(expect.arrayContaining(['allowedHttpRequestDomains', 'allowedDomains']));
		// The editor's own filter over what n8n serves: n8n 2.41.1 serves a copy of the type that drops an
		// `authenticate` defined as a class method, so its dropdown does not list ours; a workflow that names
		// the credential (imported, pasted, made through the API) runs with it all the same (next tests).
		const listedInEditor = filters.some((filter) => (filter.startsWith('has:') ? ours?.[filter.slice(4) as 'authenticate'] !== undefined : (ours?.extends ?? []).includes(filter.slice('extends:'.length))));
		console.log(`n8n ${stack.n8n.n8nVersion}: HTTP Request > Predefined Credential Type filters ${JSON.stringify(filters)}; the editor lists the Document Extraction API credential: ${listedInEditor}`);
	});

	test('a plain request with it reaches the API, with the key', async () => {
		const execution = await run(CASES.plain);

		expect(errorMessage(execution)).toBe('');
		expect(execution.status).toBe('success');
		expect(executionOutput(execution, HTTP_REQUEST)[0]).toMatchObject({ subscription: { subscriptionPlan: expect.any(String) } });
		const [request] = stack.emulator.requests.filter((entry) => entry.host === 'api');
		expect(request.headers['x-api-key']).toBe(KEY);
	});

	test.each<[string, Case, RegExp]>([
		['Proxy to a listener of the test and Ignore SSL Issues (plain http Base URL)', CASES.proxyIgnoreSsl, /names a proxy .*turns certificate checks off/],
		['Proxy that intercepts TLS with a self-signed certificate and Ignore SSL Issues (https Base URL)', CASES.interceptingProxy, /names a proxy .*turns certificate checks off/],
		['Ignore SSL Issues alone', CASES.ignoreSsl, /turns certificate checks off \(option "rejectUnauthorized"/],
		['a Host header of the user', CASES.hostHeader, /overrides the Host header \(header "host"\)/],
	])('%s: the execution fails saying why, and nobody receives the key', async (_what, spec, reason) => {
		const marks = proxyMarks();

		const execution = await run(spec);

		expectNothingLent(marks);
		expect(execution.status).toBe('error');
		expect(errorMessage(execution)).toMatch(/Refused to send the Document Extraction API key/);
		expect(errorMessage(execution)).toMatch(reason);
		expect(JSON.stringify(execution)).not.toContain(KEY);
	});

	test('Allowed HTTP Request Domains = None (n8n\'s field) keeps HTTP Request from the credential, while the package\'s node still works with it', async () => {
		const refused = await run(CASES.domainsNone);
		expect(refused.status).toBe('error');
		expect(errorMessage(refused)).toMatch(/This credential is configured to prevent use within an HTTP Request/);
		expect(stack.emulator.requests).toEqual([]);

		const own = await waitForExecution(stack.n8n, await runWorkflow(stack.n8n, OWN_NODE_WITH_NONE.id!, 'Start'), 120_000);
		expect(errorMessage(own)).toBe('');
		expect(own.status).toBe('success');
		expect(stack.emulator.requests.filter((entry) => entry.host === 'api').map((entry) => entry.headers['x-api-key'])).toEqual([KEY]);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.n8n.outboundAttempts()).toEqual([]);
	});
});
