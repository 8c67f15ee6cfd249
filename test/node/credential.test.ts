import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions, INodeType } from 'n8n-workflow';

import { CREDENTIAL_TEST_METHOD } from '../../nodes/shared/credentialTest';
import { keyLeaks } from '../../dev/emulator';
import { block as blockDns, unblock as unblockDns } from '../../dev/n8n/dns-block.cjs';
import { startSelfSignedHttps } from '../../dev/self-signed-https';
import { startRecordingProxy, type RecordingProxy } from '../fixtures/recording-proxy';
import { runNode, testCredential } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, loadBuiltPackage, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

async function test(data: Record<string, string>) {
	return await testCredential('documentExtractionApi', data);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** An http server on 127.0.0.1 that answers every request 200 with `{"status":"ok"}`: not the API. */
async function startOtherServer(): Promise<{ url: string; close(): Promise<void> }> {
	const server = createHttpServer((request, response) => {
		request.resume();
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('credential test ("Test" in the editor): what the dialog says, in words', () => {
	it('is OK with a working key, calling GET /prod/v1/subscription with x-api-key', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl });

		expect(result).toEqual({ status: 'OK', message: 'Connection successful: the API key may read this workspace.' });
		const [request] = requestsTo(emulator, 'api');
		expect(request).toMatchObject({ method: 'GET', path: '/prod/v1/subscription', status: 200 });
		expect(request.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
	});

	it('a read-only key passes: it may read, which is all the test does', async () => {
		expect(await test({ apiKey: SEEDED_KEYS.readOnly, baseUrl: emulator.apiUrl })).toMatchObject({ status: 'OK' });
	});

	it('a rejected key (401): says so and where to copy it from', async () => {
		const result = await test({ apiKey: 'not-a-key', baseUrl: emulator.apiUrl });

		expect(result).toEqual({
			status: 'Error',
			message: 'The API key was rejected (HTTP 401): it is mistyped, incomplete or revoked. Copy it whole from the project settings of your fileAI dashboard.',
		});
	});

	it('an inactive key (403): says it is inactive and how to activate it', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.inactive, baseUrl: emulator.apiUrl });

		expect(result).toEqual({
			status: 'Error',
			message: 'The API key is inactive (HTTP 403): activate it, or create a new key, in the project settings of your fileAI dashboard.',
		});
	});

	it('a 403 that says read-only: says the key is read-only, that reading is fine with it, and what needs write access', async () => {
		emulator.faults.failNext({ method: 'GET', path: '/subscription', status: 403, detail: 'Access denied: this API key is in read-only mode.' });
		const result = await test({ apiKey: SEEDED_KEYS.readOnly, baseUrl: emulator.apiUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The API key is read-only \(HTTP 403\)/);
		expect(result.message).toContain('A read-only key is fine for reading (Get Many, Get Values, Query, the trigger) but not for Upload or any other change');
	});

	it('a refused connection: names the Base URL Override and its port, no network code alone', async () => {
		const port = await closedPort();
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: `http://127.0.0.1:${port}` });

		expect(result).toEqual({
			status: 'Error',
			message: `Could not reach http://127.0.0.1:${port}: the connection was refused: nothing accepts connections on that host and port (ECONNREFUSED). Check the host and port of the Base URL Override in the credential; for a local emulator or proxy, that it is running on that port.`,
		});
	});

	it('an unknown host the user typed: asks to check the spelling of that field', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, instance: 'jp', instanceHost: 'api.no-such-host.invalid' });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Could not reach https:\/\/api\.no-such-host\.invalid: its host name was not found \(DNS, (ENOTFOUND|EAI_AGAIN)\)\. Check the spelling of the Instance Host in the credential/);
	});

	describe('on a network whose DNS answers nothing (dev/n8n/dns-block.cjs)', () => {
		beforeAll(() => blockDns());
		afterAll(() => unblockDns());

		it('the Default instance: blames the network, never the spelling of a host nobody typed', async () => {
			const result = await test({ apiKey: SEEDED_KEYS.readWrite, instance: 'default' });

			expect(result).toEqual({
				status: 'Error',
				message:
					'Could not reach https://api.orion.file.ai: its host name could not be looked up (DNS, ENOTFOUND). It is the fixed host of the chosen Instance, so nothing typed in the credential is wrong: the network between n8n and the internet is. Check that n8n can reach the internet from where it runs: its DNS server, firewall or HTTP proxy.',
			});
			expect(result.message).not.toMatch(/spelling/i);
		});
	});

	it('a certificate nobody trusts: says so, and the key is not sent over that connection', async () => {
		const server = await startSelfSignedHttps();
		try {
			const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: server.url });

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(new RegExp(`^Could not reach ${server.url.replace(/\./g, '\\.')}: its TLS certificate is not trusted, or is not made out to its name \\([A-Z_]+\\)\\. The host must present a valid certificate`));
			expect(result.message).toContain('NODE_EXTRA_CA_CERTS');
			expect(server.requests).toBe(0);
		} finally {
			await server.close();
		}
	});

	it('a redirect: not followed, says where it pointed, and the other host gets nothing', async () => {
		emulator.faults.redirectNext({ method: 'GET', path: '/subscription', status: 302 });
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/answered with a redirect \(HTTP 302\) to http:\/\/127\.0\.0\.1:\d+\. The API key is never sent on through a redirect/);
		expect(emulator.requests.filter((entry) => entry.host === 'trap')).toEqual([]);
		expect(keyLeaks(emulator, SEEDED_KEYS.readWrite)).toEqual([]);
	});

	it('a host that answers 200 but is not the API: says so instead of passing', async () => {
		const other = await startOtherServer();
		try {
			const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: other.url });

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered HTTP 200, but not as the Document Extraction API does/);
		} finally {
			await other.close();
		}
	});

	it('accepts a Base URL that ends with the /prod/v1 prefix or a slash', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: `${emulator.apiUrl}/prod/v1/` });

		expect(result.status).toBe('OK');
		expect(requestsTo(emulator, 'api')[0].path).toBe('/prod/v1/subscription');
	});

	it('both nodes name the same test method, and it is the one they carry', async () => {
		const { nodeTypes } = await loadBuiltPackage();
		for (const name of ['n8n-nodes-document-extraction.documentExtraction', 'n8n-nodes-document-extraction.documentExtractionTrigger']) {
			const nodeType = nodeTypes[name] as INodeType;
			const testedBy = nodeType.description.credentials?.find((credential) => credential.name === 'documentExtractionApi')?.testedBy;
			expect({ name, testedBy }).toEqual({ name, testedBy: CREDENTIAL_TEST_METHOD });
			expect(typeof nodeType.methods?.credentialTest?.[CREDENTIAL_TEST_METHOD]).toBe('function');
		}
		// n8n uses a credential's own declarative test before any node's: there must be none.
		expect((await loadBuiltPackage()).credentialTypes.documentExtractionApi.test).toBeUndefined();
	});
});

describe('credential test with a Base URL the policy refuses', () => {
	it.each([
		['http:evil.example', /not a loopback host/],
		['https://user:secret@api.example.com', /user name or password/],
		['http://evil.example#@127.0.0.1', /query \(\?\) or fragment|not a loopback host/],
	])('%j: says why, and sends nothing', async (baseUrl, reason) => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(reason);
		expect(result.message).not.toContain(SEEDED_KEYS.readWrite);
	});

	it('a loopback Base URL with user info is refused before it reaches the emulator', async () => {
		const { port } = new URL(emulator.apiUrl);
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: `http://user:pw@127.0.0.1:${port}` });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/user name or password/);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('API Key in the credential dialog', () => {
	it('has a hint saying where the key is created (the dashboard, project settings) with a link to the service', async () => {
		const credential = (await loadBuiltPackage()).credentialTypes.documentExtractionApi;
		const field = credential.properties.find((property) => property.name === 'apiKey');

		expect(field).toMatchObject({ displayName: 'API Key', type: 'string', typeOptions: { password: true }, required: true });
		expect(field?.hint).toMatch(/dashboard/);
		expect(field?.hint).toMatch(/project settings/);
		expect(field?.hint).toContain('<a href="https://file.ai" target="_blank">');
	});
});

describe('Base URL Override in the credential dialog', () => {
	it('has a hint saying when to set it and what it accepts, and a description with the full rules', async () => {
		const credential = (await loadBuiltPackage()).credentialTypes.documentExtractionApi;
		const field = credential.properties.find((property) => property.name === 'baseUrl');

		expect(field).toMatchObject({ displayName: 'Base URL Override', default: '' });
		expect(field?.hint).toMatch(/^Leave empty to use the instance above\. Set it only .*proxy \(https:\/\/…\) or a local emulator \(http:\/\/localhost/);
		expect(field?.description).toMatch(/Accepted: https:\/\/ with any host; http:\/\/ only for localhost, 127\.x\.x\.x and \[::1\]\. Refused: /);
	});
});

/** A test-only community package whose node borrows our credential as the HTTP Request node does. */
const BORROWER_PACKAGE = path.resolve(__dirname, '../../dev/credential-borrower-package');
const BORROWER = 'n8n-nodes-credential-borrower.credentialBorrower';
const KEY = SEEDED_KEYS.readWrite;

describe('the credential lends its key only to a direct request with certificate checks on', () => {
	let proxy: RecordingProxy;

	beforeAll(async () => {
		proxy = await startRecordingProxy();
	});
	afterAll(async () => {
		await proxy.close();
	});

	async function authenticate(options: Record<string, unknown>, data: ICredentialDataDecryptedObject = credentialsFor(emulator).documentExtractionApi) {
		const credential = (await loadBuiltPackage()).credentialTypes.documentExtractionApi;
		if (typeof credential.authenticate !== 'function') throw new Error('the credential has no authenticate function');
		return await credential.authenticate(data, options as unknown as IHttpRequestOptions);
	}

	const url = () => `${emulator.apiUrl}/prod/v1/subscription`;
	const proxyUrl = () => proxy.url;

	it.each<[string, () => Record<string, unknown>, RegExp]>([
		['a proxy as text (HTTP Request: Options > Proxy)', () => ({ uri: url(), proxy: proxyUrl() }), /names a proxy \(option "proxy"/],
		['a proxy as an object', () => ({ url: url(), proxy: { host: '127.0.0.1', port: proxy.port, protocol: 'http' } }), /names a proxy/],
		['rejectUnauthorized: false (HTTP Request: Ignore SSL Issues)', () => ({ uri: url(), rejectUnauthorized: false }), /turns certificate checks off \(option "rejectUnauthorized"/],
		['skipSslCertificateValidation: true', () => ({ url: url(), skipSslCertificateValidation: true }), /turns certificate checks off \(option "skipSslCertificateValidation"/],
		['skipSslCertificateValidation: "true"', () => ({ url: url(), skipSslCertificateValidation: 'true' }), /turns certificate checks off/],
		['strictSSL: false', () => ({ uri: url(), strictSSL: false }), /option "strictSSL"/],
		['agentOptions.rejectUnauthorized: false', () => ({ url: url(), agentOptions: { rejectUnauthorized: false } }), /option "agentOptions\.rejectUnauthorized"/],
		['agentOptions.ca (HTTP Request: SSL Certificates)', () => ({ url: url(), agentOptions: { ca: '-----BEGIN CERTIFICATE-----' } }), /agentOptions "ca"/],
		['agentOptions.lookup', () => ({ url: url(), agentOptions: { lookup: () => undefined } }), /agentOptions "lookup"/],
		['agentOptions.host and port', () => ({ url: url(), agentOptions: { host: '127.0.0.1', port: proxy.port } }), /agentOptions "host", "port"/],
		['agentOptions.socketPath', () => ({ url: url(), agentOptions: { socketPath: '/tmp/x.sock' } }), /agentOptions "socketPath"/],
		['agentOptions.checkServerIdentity', () => ({ url: url(), agentOptions: { checkServerIdentity: () => undefined } }), /agentOptions "checkServerIdentity"/],
		['agentOptions.servername', () => ({ url: url(), agentOptions: { servername: 'evil.example' } }), /agentOptions "servername"/],
		['agentOptions that are not an object', () => ({ url: url(), agentOptions: 'x' }), /not an object/],
		['its own httpAgent', () => ({ url: url(), httpAgent: {} }), /own agent or connection settings \(option "httpAgent"\)/],
		['its own httpsAgent', () => ({ url: url(), httpsAgent: {} }), /option "httpsAgent"/],
		['its own agent', () => ({ uri: url(), agent: {} }), /option "agent"/],
		['a lookup of its own', () => ({ url: url(), lookup: () => undefined }), /option "lookup"/],
		['a socketPath', () => ({ url: url(), socketPath: '/tmp/x.sock' }), /option "socketPath"/],
		['a transport', () => ({ url: url(), transport: {} }), /option "transport"/],
		['a Host header', () => ({ url: url(), headers: { Host: 'evil.example' } }), /overrides the Host header \(header "Host"\)/],
		['a host header in lower case', () => ({ url: url(), headers: { host: 'evil.example' } }), /header "host"/],
		['a HOST header in upper case', () => ({ uri: url(), headers: { HOST: 'evil.example' } }), /header "HOST"/],
		['a Host header with spaces around its name', () => ({ url: url(), headers: { ' Host ': 'evil.example' } }), /overrides the Host header/],
		['a URL given as an object that is not a URL', () => ({ url: { toString: () => 'https://evil.example' } }), /as something other than text/],
		['uri on another host behind an API baseURL', () => ({ uri: new URL('https://evil.example/prod/v1/files'), baseURL: emulator.apiUrl }), /Refused to send the Document Extraction API key to https:\/\/evil\.example/],
	])('refuses %s, and says what to remove', async (_what, options, reason) => {
		const attempt = authenticate(options());
		await expect(attempt).rejects.toThrow(reason);
		await expect(attempt).rejects.toThrow(/^Refused to send the Document Extraction API key/);
		await expect(attempt).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining(KEY) }));
	});

	it('names every problem of one request at once', async () => {
		await expect(
			authenticate({ uri: url(), proxy: proxyUrl(), rejectUnauthorized: false, headers: { host: 'x' } }),
		).rejects.toThrow(/names a proxy .*; it turns certificate checks off .*; it overrides the Host header .*Remove these options from the request \(nothing was sent\)\.$/);
	});

	it.each<[string, Record<string, unknown>]>([
		['rejectUnauthorized: true (what HTTP Request sends by default)', { rejectUnauthorized: true }],
		['skipSslCertificateValidation: false', { skipSslCertificateValidation: false }],
		['an empty proxy', { proxy: '' }],
		['proxy: false', { proxy: false }],
		['agent options that only tune pooling', { agentOptions: { keepAlive: true, maxSockets: 4, rejectUnauthorized: true } }],
	])('accepts %s', async (_what, extra) => {
		const options = await authenticate({ url: url(), ...extra });
		expect(options.headers).toMatchObject({ 'x-api-key': KEY });
	});

	it("replaces the caller's own x-api-key (any case) instead of sending two", async () => {
		const options = await authenticate({ url: url(), headers: { 'X-API-KEY': 'someone-elses', Accept: 'application/json' } });
		expect(options.headers).toEqual({ Accept: 'application/json', 'x-api-key': KEY });
	});

	describe('through the engine: a node borrowing the credential as HTTP Request does (Predefined Credential Type)', () => {
		async function borrow(helper: 'legacy' | 'current', requestOptions: IDataObject) {
			return await runNode({
				type: BORROWER,
				extraPackageDirs: [BORROWER_PACKAGE],
				parameters: { helper, requestOptions: JSON.stringify(requestOptions) },
				credentials: credentialsFor(emulator),
			});
		}

		function expectNothingSent(connectionsBefore: number) {
			expect(emulator.requests).toEqual([]);
			expect(proxy.connections).toBe(connectionsBefore);
			expect(proxy.received()).not.toContain(KEY);
			expect(keyLeaks(emulator, KEY)).toEqual([]);
		}

		it('a plain request goes out with the key (the borrower works)', async () => {
			const result = await borrow('legacy', { method: 'GET', uri: url(), json: true, rejectUnauthorized: true });

			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ subscription: { subscriptionPlan: expect.any(String) } });
			expect(requestsTo(emulator, 'api')[0].headers['x-api-key']).toBe(KEY);
		});

		it.each<['legacy' | 'current', string, () => IDataObject, RegExp]>([
			['legacy', 'Proxy, as HTTP Request sets it', () => ({ method: 'GET', uri: url(), proxy: proxyUrl(), rejectUnauthorized: true, json: true }), /names a proxy/],
			['legacy', 'Proxy and Ignore SSL Issues', () => ({ method: 'GET', uri: url(), proxy: proxyUrl(), rejectUnauthorized: false, json: true }), /names a proxy .*turns certificate checks off/],
			['legacy', 'Ignore SSL Issues', () => ({ method: 'GET', uri: url(), rejectUnauthorized: false, json: true }), /turns certificate checks off/],
			['legacy', 'a Host header', () => ({ method: 'GET', uri: url(), headers: { host: `127.0.0.1:${proxy.port}` }, json: true }), /overrides the Host header/],
			['current', 'a proxy object', () => ({ method: 'GET', url: url(), proxy: { host: '127.0.0.1', port: proxy.port, protocol: 'http' }, json: true }), /names a proxy/],
			['current', 'skipSslCertificateValidation', () => ({ method: 'GET', url: url(), skipSslCertificateValidation: true, json: true }), /turns certificate checks off/],
			['current', 'agentOptions with host and port', () => ({ method: 'GET', url: url(), agentOptions: { host: '127.0.0.1', port: proxy.port }, json: true }), /agentOptions "host", "port"/],
		])('%s helper, %s: refused with the reason, and neither the API nor the proxy gets anything', async (helper, _what, options, reason) => {
			const before = proxy.connections;

			const result = await borrow(helper, options());

			expect(result.error?.message ?? '').toMatch(reason);
			expect(JSON.stringify(result.error)).not.toContain(KEY);
			expectNothingSent(before);
		});
	});
});
