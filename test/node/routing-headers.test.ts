/**
 * Headers that reroute or rewrite a request at a proxy never travel with the key (issue 34,
 * finding 8): X-Forwarded-Host, Forwarded and X-Original-URL were accepted next to a refused Host.
 * Every header of the list in credentials/apiKeyAttachment.ts (ROUTING_HEADER_NAMES and
 * ROUTING_HEADER_PREFIXES, documented in docs/security.md) is refused in any letter case and with
 * spaces around its name; a name that is not an HTTP token is refused; the caller's own
 * Content-Length is dropped (the HTTP client frames the body itself), so no request can smuggle a
 * second one behind it on a connection that carries the key.
 */
import * as path from 'node:path';

import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { authorizeApiRequest } from '../../credentials/apiKeyAttachment';
import { keyLeaks } from '../../dev/emulator';
import { ROUTING_HEADER_CASES } from '../../dev/hostile-urls';
import { runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

const CREDENTIALS = { apiKey: 'dex_key_routing_headers', baseUrl: 'https://api.example.com' };
const URL_OF_API = 'https://api.example.com/prod/v1/files';

async function attach(headers: IDataObject): Promise<IHttpRequestOptions> {
	return await authorizeApiRequest(CREDENTIALS, { url: URL_OF_API, headers });
}

describe('headers that reroute or rewrite the request at a proxy are refused', () => {
	it('the three headers of the finding (each was sent with the key)', async () => {
		for (const name of ['X-Forwarded-Host', 'Forwarded', 'X-Original-URL']) {
			await expect(attach({ [name]: 'evil.example' })).rejects.toThrow(/^Refused to send the Document Extraction API key: the request sets headers that/);
		}
	});

	it.each(ROUTING_HEADER_CASES)('%j', async (name) => {
		const attempt = attach({ Accept: 'application/json', [name]: 'evil.example' });
		await expect(attempt).rejects.toThrow(/^Refused to send the Document Extraction API key/);
		await expect(attempt).rejects.toThrow(expect.objectContaining({ message: expect.stringContaining(JSON.stringify(name).slice(1, -1)) }));
		await expect(attempt).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining(CREDENTIALS.apiKey) }));
	});

	it.each(['X-FORWARDED-HOST', 'x-forwarded-host', ' X-Forwarded-Host ', '\tx-ForWarded-hOst', 'FORWARDED', ' x-original-url', 'X-Http-Method-Override '])(
		'in any letter case and with spaces around the name: %j',
		async (name) => {
			await expect(attach({ [name]: 'x' })).rejects.toThrow(/routes, rewrites or frames the request by/);
		},
	);

	it.each(['True_Client_IP', 'X_Forwarded_Host', 'x_original_url', 'Transfer_Encoding'])(
		'with underscores for dashes (%j; CGI, PHP and WSGI read it as the dashed name): found by the property tests',
		async (name) => {
			await expect(attach({ [name]: 'x' })).rejects.toThrow(/routes, rewrites or frames the request by/);
		},
	);

	it.each(['X-Forwarded-Hoſt', 'Hoſt', 'X-Forwarded-Host\u0000', 'X-Original URL', 'x-api-key:', ':authority', 'Ｘ-Forwarded-Host'])(
		'a name that is not an HTTP header name, which some client could fold into one: %j',
		async (name) => {
			await expect(attach({ [name]: 'x' })).rejects.toThrow(/not a valid HTTP header name/);
		},
	);

	it.each<[string, unknown]>([
		['a list of pairs', [['X-Forwarded-Host', 'evil.example']]],
		['a raw header block', 'X-Forwarded-Host: evil.example'],
	])('headers given as %s (which the HTTP client would read as headers)', async (_what, headers) => {
		await expect(authorizeApiRequest(CREDENTIALS, { url: URL_OF_API, headers } as unknown as IHttpRequestOptions)).rejects.toThrow(
			/gives its headers as something other than an object of names and values/,
		);
	});

	it('names every header at once, with the Host header apart', async () => {
		await expect(attach({ Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Real-IP': '10.0.0.1' })).rejects.toThrow(
			/overrides the Host header \(header "Host"\); it sets headers that a proxy or gateway routes, rewrites or frames the request by \(header "X-Forwarded-Host", "X-Real-IP"/,
		);
	});

	it.each([
		['Accept', 'application/json'],
		['Content-Type', 'application/json'],
		['Idempotency-Key', 'abc'],
		['X-Request-Id', 'abc'],
		['User-Agent', 'n8n'],
		['Via', '1.1 n8n'],
		['X-Custom-Forwarded', 'kept: only the X-Forwarded-* family is refused'],
	])('keeps an ordinary header %s', async (name, value) => {
		const options = await attach({ [name]: value });
		expect(options.headers).toEqual({ [name]: value, 'x-api-key': CREDENTIALS.apiKey });
	});

	it("drops the caller's own Content-Length (any case): n8n's HTTP client frames the body itself", async () => {
		const options = await attach({ 'Content-Length': '3', ' content-length ': 3, Accept: 'application/json' });
		expect(options.headers).toEqual({ Accept: 'application/json', 'x-api-key': CREDENTIALS.apiKey });
	});
});

describe('through the engine: a node borrowing the credential (as HTTP Request does)', () => {
	const BORROWER_PACKAGE = path.resolve(__dirname, '../../dev/credential-borrower-package');
	const KEY = SEEDED_KEYS.readWrite;

	async function borrow(helper: 'legacy' | 'current', requestOptions: IDataObject) {
		return await runNode({
			type: 'n8n-nodes-credential-borrower.credentialBorrower',
			extraPackageDirs: [BORROWER_PACKAGE],
			parameters: { helper, requestOptions: JSON.stringify(requestOptions) },
			credentials: credentialsFor(emulator, KEY),
		});
	}

	it.each<['legacy' | 'current', IDataObject]>([
		['legacy', { 'X-Forwarded-Host': 'evil.example' }],
		['current', { Forwarded: 'host=evil.example;proto=https' }],
		['legacy', { 'x-original-url': '/other/admin' }],
		['current', { ' X-Rewrite-URL ': '/other/admin' }],
		['legacy', { 'X-HTTP-Method-Override': 'DELETE' }],
		['current', { 'Transfer-Encoding': 'chunked' }],
	])('%s helper, headers %j: refused, and the API receives nothing', async (helper, headers) => {
		const url = `${emulator.apiUrl}/prod/v1/subscription`;

		const result = await borrow(helper, helper === 'legacy' ? { method: 'GET', uri: url, headers, json: true } : { method: 'GET', url, headers, json: true });

		expect(result.error?.message).toMatch(/^Refused to send the Document Extraction API key: the request sets headers that a proxy or gateway routes/);
		expect(emulator.requests).toEqual([]);
		expect(keyLeaks(emulator, KEY)).toEqual([]);
	});

	it('a Content-Length shorter than the body cannot smuggle a second request: the API gets one request, framed by n8n', async () => {
		const url = `${emulator.apiUrl}/prod/v1/subscription`;
		const smuggled = 'GET /prod/v1/project/setting HTTP/1.1\r\nHost: x\r\n\r\n';

		const result = await borrow('current', { method: 'POST', url, headers: { 'Content-Type': 'text/plain', 'Content-Length': '2' }, body: `{}${smuggled}` });

		const requests = requestsTo(emulator, 'api');
		expect({ error: result.error?.message, requests: requests.map((entry) => `${entry.method} ${entry.path}`) }).toEqual({
			error: expect.any(String),
			requests: ['POST /prod/v1/subscription'],
		});
		expect(requests[0].headers['content-length']).toBe(String(Buffer.byteLength(`{}${smuggled}`)));
	});
});
