import { createServer } from 'node:net';
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { keyLeaks } from '../../dev/emulator';
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

describe('credential test ("Test" in the editor)', () => {
	it('is OK with a working key, calling GET /prod/v1/subscription with x-api-key', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl });

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = requestsTo(emulator, 'api');
		expect(request).toMatchObject({ method: 'GET', path: '/prod/v1/subscription', status: 200 });
		expect(request.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
	});

	it('tells a wrong key (401) apart', async () => {
		const result = await test({ apiKey: 'not-a-key', baseUrl: emulator.apiUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected \(HTTP 401\)/);
	});

	it('tells an inactive key (403) apart', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.inactive, baseUrl: emulator.apiUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/read-only or inactive \(HTTP 403\)/);
	});

	it('tells an unreachable host apart', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: `http://127.0.0.1:${await closedPort()}` });

		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('accepts a Base URL that ends with the /prod/v1 prefix or a slash', async () => {
		const result = await test({ apiKey: SEEDED_KEYS.readWrite, baseUrl: `${emulator.apiUrl}/prod/v1/` });

		expect(result.status).toBe('OK');
		expect(requestsTo(emulator, 'api')[0].path).toBe('/prod/v1/subscription');
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
