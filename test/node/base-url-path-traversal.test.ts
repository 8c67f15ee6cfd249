/**
 * The Base URL's path prefix cannot be left by a path that a proxy or server reads differently
 * from the URL parser (issue 34, finding 7): with Base URL https://gw.example.com/dex the key was
 * attached to /dex/..%2Fother, /dex/%2e%2e%2f... and /dex/..;/..., which gateways that decode
 * before routing send elsewhere. The key-carrying request, the Base URL itself and the Instance
 * Host are judged on the parsed path, and any encoded separator, dot segment, `;` parameter,
 * backslash or double encoding is refused.
 */
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { authorizeApiRequest } from '../../credentials/apiKeyAttachment';
import { BaseUrlError, resolveApiBase } from '../../credentials/hosts';
import { keyLeaks } from '../../dev/emulator';
import { PATH_TRAVERSAL_BASE_URLS, PATH_TRAVERSAL_INSTANCE_HOSTS, PATH_TRAVERSAL_REQUEST_PATHS } from '../../dev/hostile-urls';
import { runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();

const GATEWAY = { apiKey: 'dex_key_path_traversal', baseUrl: 'https://gw.example.com/dex' };

async function refusal(url: string, credentials: ICredentialDataDecryptedObject = GATEWAY): Promise<string | undefined> {
	try {
		await authorizeApiRequest(credentials, { url });
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

describe('the key-carrying request stays under the Base URL path, as any server may read it', () => {
	it.each(PATH_TRAVERSAL_REQUEST_PATHS)('refuses %j below https://gw.example.com/dex, naming what it holds', async (requestPath, reason) => {
		const message = await refusal(`https://gw.example.com${requestPath}`);

		expect(message).toMatch(/^Refused to send the Document Extraction API key to https:\/\/gw\.example\.com/);
		expect(message).toMatch(reason);
		expect(message).not.toContain(GATEWAY.apiKey);
	});

	it('the three paths of the finding are refused (the key was attached to each)', async () => {
		for (const requestPath of ['/dex/..%2Fother', '/dex/%2e%2e%2fother/prod/v1/files', '/dex/..;/other/prod/v1/files']) {
			expect({ requestPath, refused: (await refusal(`https://gw.example.com${requestPath}`)) !== undefined }).toEqual({ requestPath, refused: true });
		}
	});

	it.each([
		'/dex',
		'/dex/',
		'/dex/prod/v1/files',
		'/dex/prod/v1/files?cursor=..%2F&x=a;b',
		'/dex/prod/v1/files/3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23/values',
		'/dex/prod/v1/query/%41bc',
	])('still attaches the key to %j', async (requestPath) => {
		const options = await authorizeApiRequest(GATEWAY, { url: `https://gw.example.com${requestPath}` });
		expect(options.headers).toMatchObject({ 'x-api-key': GATEWAY.apiKey });
	});

	it('an escaped letter in the prefix (/d%65x) is refused: only a gateway that decodes would route it under /dex', async () => {
		expect(await refusal('https://gw.example.com/d%65x/prod/v1/subscription')).toMatch(/a path outside the prefix \/dex/);
	});

	it('without a path prefix, an encoded traversal under the API host is refused too', async () => {
		const plain = { apiKey: 'k', baseUrl: 'https://api.example.com' };
		expect(await refusal('https://api.example.com/prod/v1/files/..%2F..%2Fadmin', plain)).toMatch(/encoded slash/);
		expect(await refusal('https://api.example.com//evil.example/prod/v1/files', plain)).toMatch(/empty segment/);
		expect(await refusal('https://api.example.com/prod/v1/files', plain)).toBeUndefined();
	});

	it('judges baseURL and url as n8n combines them', async () => {
		await expect(authorizeApiRequest(GATEWAY, { baseURL: 'https://gw.example.com/dex', url: '..%2Fother/prod/v1/files' })).rejects.toThrow(
			/encoded slash/,
		);
		await expect(authorizeApiRequest(GATEWAY, { baseURL: 'https://gw.example.com/dex/', url: '/prod/v1/subscription' })).resolves.toBeDefined();
	});
});

describe('counterexamples found by the property tests (test/fuzz/key-attachment-properties.test.ts)', () => {
	it.each([
		['https:/gw.example.com/dex/prod/v1/files', /a scheme without \/\/ after it/],
		['https:gw.example.com/dex/prod/v1/files', /a scheme without \/\/ after it/],
	])('a scheme without // (%j): a host to the WHATWG parser, a path to Node\'s legacy one', async (url, reason) => {
		expect(await refusal(url)).toMatch(reason);
	});

	it('a percent-encoded host (https://gw%2eexample.com): the WHATWG parser decodes it, other parsers do not', async () => {
		expect(await refusal('https://gw%2eexample.com/dex/prod/v1/files')).toMatch(/a percent-encoded host/);
		expect(await refusal('https://%67w.example.com/dex/prod/v1/files')).toMatch(/a percent-encoded host/);
	});
});

describe('a Base URL Override or Instance Host whose path is ambiguous is refused', () => {
	it.each(PATH_TRAVERSAL_BASE_URLS)('Base URL %j', (baseUrl, reason) => {
		let thrown: unknown;
		try {
			resolveApiBase({ baseUrl });
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(BaseUrlError);
		expect((thrown as Error).message).toMatch(reason);
	});

	it.each(PATH_TRAVERSAL_INSTANCE_HOSTS)('Instance Host %j', (instanceHost) => {
		expect(() => resolveApiBase({ instance: 'au', instanceHost })).toThrow(BaseUrlError);
	});

	it('keeps accepting a plain prefix, with or without trailing slashes', () => {
		expect(resolveApiBase({ baseUrl: 'https://gw.example.com/dex' }).url).toBe('https://gw.example.com/dex');
		expect(resolveApiBase({ baseUrl: 'https://gw.example.com/dex//' }).url).toBe('https://gw.example.com/dex');
		expect(resolveApiBase({ baseUrl: 'https://gw.example.com/a-b_c~d/v2/prod/v1' }).url).toBe('https://gw.example.com/a-b_c~d/v2');
	});
});

describe('through the engine: a node borrowing the credential (as HTTP Request does) sends nothing', () => {
	const BORROWER_PACKAGE = path.resolve(__dirname, '../../dev/credential-borrower-package');
	const KEY = SEEDED_KEYS.readWrite;

	it.each<['legacy' | 'current', string]>([
		['legacy', '/dex/..%2Fprod/v1/subscription'],
		['current', '/dex/%2e%2e%2fprod/v1/subscription'],
		['legacy', '/dex/..;/prod/v1/subscription'],
		['current', '/dex/%252e%252e%252fprod/v1/subscription'],
	])('%s helper, %s under a Base URL with the prefix /dex', async (helper, requestPath) => {
		const credentials = credentialsFor(emulator, KEY);
		credentials.documentExtractionApi.baseUrl = `${emulator.apiUrl}/dex`;
		const target = `${emulator.apiUrl}${requestPath}`;

		const result = await runNode({
			type: 'n8n-nodes-credential-borrower.credentialBorrower',
			extraPackageDirs: [BORROWER_PACKAGE],
			parameters: { helper, requestOptions: JSON.stringify(helper === 'legacy' ? { method: 'GET', uri: target, json: true } : { method: 'GET', url: target, json: true }) },
			credentials,
		});

		expect(result.error?.message).toMatch(/^Refused to send the Document Extraction API key/);
		expect(emulator.requests).toEqual([]);
		expect(keyLeaks(emulator, KEY)).toEqual([]);
		expect(JSON.stringify(result.error)).not.toContain(KEY);
	});
});
