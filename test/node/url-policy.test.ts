/**
 * The URL policy (credentials/urlPolicy.ts, credentials/hosts.ts and credentials/apiKeyAttachment.ts,
 * and the returned-URL policy in nodes/shared/transport/returnedUrls.ts): the credential's Base URL and instance
 * host, where the API key may go, and the URLs the API hands back. Every case is decided on the
 * WHATWG-parsed URL.
 */
import { authorizeApiRequest } from '../../credentials/apiKeyAttachment';
import { BaseUrlError, resolveApiBase } from '../../credentials/hosts';
import type { HostCredentialFields } from '../../credentials/hosts';
import { approveBaseUrl } from '../../credentials/urlPolicy';
import { approveReturnedUrl } from '../../nodes/shared/transport/returnedUrls';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { keyLeaks } from '../../dev/emulator';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import {
	ACCEPTED_BASE_URLS,
	HOSTILE_BASE_URLS,
	INSIDE_RETURNED_URLS,
	LOOPBACK_RETURNED_URLS,
	PUBLIC_RETURNED_URLS,
} from '../../dev/hostile-urls';
import { createBinaryItem, runNode } from '../../dev/harness';
import type { RunNodeResult } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

/** The credential's API base URL as text. */
const resolveBaseUrl = (fields: HostCredentialFields): string => resolveApiBase(fields).url;

describe('Base URL Override: parsed, then judged', () => {
	it(`refuses ${HOSTILE_BASE_URLS.length} hostile values, each with the reason`, () => {
		expect(HOSTILE_BASE_URLS.length).toBeGreaterThanOrEqual(25);
		for (const [value, reason] of HOSTILE_BASE_URLS) {
			let thrown: unknown;
			try {
				resolveBaseUrl({ baseUrl: value });
			} catch (error) {
				thrown = error;
			}
			expect({ value, refused: thrown instanceof BaseUrlError }).toEqual({ value, refused: true });
			expect({ value, message: (thrown as Error).message }).toEqual({ value, message: expect.stringMatching(reason) });
		}
	});

	it.each(ACCEPTED_BASE_URLS)('accepts %j as %s', (value, expected) => {
		expect(resolveBaseUrl({ baseUrl: value })).toBe(expected);
	});

	it('marks loopback bases, which alone may receive plain http presigned URLs', () => {
		expect(approveBaseUrl('http://127.0.0.1:1').isLoopback).toBe(true);
		expect(approveBaseUrl('https://api.example.com').isLoopback).toBe(false);
	});
});

describe('Instance Host', () => {
	it.each<[string, string]>([
		['api.au.example.com', 'https://api.au.example.com'],
		[' https://api.au.example.com/ ', 'https://api.au.example.com'],
		['api.jp.example.com/prod/v1', 'https://api.jp.example.com'],
		['api.sg.example.com:8443', 'https://api.sg.example.com:8443'],
	])('%j gives %s', (instanceHost, expected) => {
		expect(resolveBaseUrl({ instance: 'au', instanceHost })).toBe(expected);
	});

	it.each([
		'http://api.au.example.com',
		'user@api.au.example.com',
		'api.au.example.com/other/path',
		'api.au.example.com?x=1',
		'evil.example\\@api.au.example.com',
	])('refuses %j', (instanceHost) => {
		expect(() => resolveBaseUrl({ instance: 'au', instanceHost })).toThrow(BaseUrlError);
	});

	it('asks for the host when an instance without a published host has none', () => {
		expect(() => resolveBaseUrl({ instance: 'sg', instanceHost: '' })).toThrow(/Instance Host/);
	});
});

describe('the credential attaches the key only to its own API host', () => {
	const credentials = { apiKey: 'dex_key_123456', baseUrl: 'https://api.example.com' };

	it('sets x-api-key and turns redirects off for a request to the API host', async () => {
		const options = await authorizeApiRequest(credentials, { url: 'https://api.example.com/prod/v1/files' });
		expect(options.headers).toMatchObject({ 'x-api-key': 'dex_key_123456' });
		expect(options.disableFollowRedirect).toBe(true);
		expect(options.maxRedirects).toBe(0);
	});

	it('combines baseURL and url as n8n does (the credential test request)', async () => {
		const options = await authorizeApiRequest(credentials, {
			baseURL: 'https://api.example.com',
			url: '/prod/v1/subscription',
		});
		expect(options.headers).toMatchObject({ 'x-api-key': 'dex_key_123456' });
	});

	it.each([
		'https://evil.example/prod/v1/files',
		'http://api.example.com/prod/v1/files',
		'https://api.example.com:444/prod/v1/files',
		'https://user:pw@api.example.com/prod/v1/files',
		'//evil.example/prod/v1/files',
		'not a url',
	])('refuses to attach it to %j', async (url) => {
		await expect(authorizeApiRequest(credentials, { url })).rejects.toThrow(/Refused to send the Document Extraction API key/);
	});

	it('refuses a path outside a proxy prefix', async () => {
		const proxied = { apiKey: 'k', baseUrl: 'https://proxy.example.com/dex' };
		await expect(authorizeApiRequest(proxied, { url: 'https://proxy.example.com/other/prod/v1/files' })).rejects.toThrow(
			/Refused/,
		);
		await expect(authorizeApiRequest(proxied, { url: 'https://proxy.example.com/dex/prod/v1/files' })).resolves.toBeDefined();
	});

	it('refuses every request while the Base URL itself is refused', async () => {
		await expect(authorizeApiRequest({ apiKey: 'k', baseUrl: 'http:evil.example' }, { url: 'http://evil.example/prod/v1/files' })).rejects.toThrow(
			/not a loopback host/,
		);
	});
});

describe('URLs the API hands back', () => {
	const loopbackBase = resolveApiBase({ baseUrl: 'http://127.0.0.1:8787' });
	const httpsBase = resolveApiBase({});

	it.each([
		['https://bucket.s3.example.com/key?X-Amz-Signature=abc', httpsBase],
		['https://bucket.s3.example.com/key?X-Amz-Signature=abc', loopbackBase],
		['http://127.0.0.1:9000/bucket/key?sig=1', loopbackBase],
	])('accepts %s', (url, base) => {
		expect(approveReturnedUrl(url, 'presigned upload URL', base)).toBe(new URL(url).href);
	});

	it.each<[unknown, RegExp]>([
		['http://127.0.0.1:9000/bucket/key', /"127\.0\.0\.1" is a loopback address/],
		['http://storage.example.com/key', /plain http/],
		['ftp://storage.example.com/key', /scheme "ftp:"/],
		['file:///etc/passwd', /scheme "file:"/],
		['javascript:alert(1)', /scheme "javascript:"/],
		['data:text/plain,x', /scheme "data:"/],
		['https://user:pw@storage.example.com/key', /user name or password/],
		['https://storage.example.com/key\n', /control or invisible/],
		['', /without a presigned upload URL/],
		[42, /without a presigned upload URL/],
		['not a url', /control or invisible|not a valid URL/],
	])('refuses %j under an https Base URL', (url, reason) => {
		expect(() => approveReturnedUrl(url, 'presigned upload URL', httpsBase)).toThrow(reason);
	});

	it('refuses plain http to a host that is not loopback even when the Base URL is loopback', () => {
		expect(() => approveReturnedUrl('http://storage.example.com/k', 'preview URL', loopbackBase)).toThrow(/plain http/);
	});

	it('never repeats the URL or its signature in the refusal', () => {
		const url = 'ftp://storage.example.com/key?X-Amz-Signature=secret-signature-123';
		expect(() => approveReturnedUrl(url, 'presigned part URL', httpsBase)).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining('secret-signature-123') }),
		);
	});
});

describe('URLs the API hands back that point inside the network', () => {
	const loopbackBase = resolveApiBase({ baseUrl: 'http://127.0.0.1:8787' });
	const httpsBase = resolveApiBase({});

	it(`refuses ${INSIDE_RETURNED_URLS.length} inside hosts under an https Base URL and under a loopback one, naming the host and the range`, () => {
		expect(INSIDE_RETURNED_URLS.length).toBeGreaterThanOrEqual(30);
		for (const base of [httpsBase, loopbackBase]) {
			for (const [url, reason] of INSIDE_RETURNED_URLS) {
				let thrown: Error | undefined;
				try {
					approveReturnedUrl(url, 'presigned upload URL', base);
				} catch (error) {
					thrown = error as Error;
				}
				expect({ base: base.url, url, message: thrown?.message }).toEqual({ base: base.url, url, message: expect.stringMatching(reason) });
				expect(thrown?.message).toMatch(/^The presigned upload URL the API answered was refused: .*Nothing was sent to it\.$/);
				expect(thrown?.message).not.toContain('X-Amz-Signature');
			}
		}
	});

	it.each(LOOPBACK_RETURNED_URLS)('refuses the loopback %s under an https Base URL, accepts it under a loopback one', (url) => {
		expect(() => approveReturnedUrl(url, 'preview URL', httpsBase)).toThrow(
			/inside your network or on the n8n machine itself \(a loopback host is accepted only while the credential's Base URL is loopback too/,
		);
		expect(approveReturnedUrl(url, 'preview URL', loopbackBase)).toBe(new URL(url).href);
	});

	it.each(PUBLIC_RETURNED_URLS)('accepts the public %s', (url) => {
		expect(approveReturnedUrl(url, 'presigned part URL', httpsBase)).toBe(new URL(url).href);
		expect(approveReturnedUrl(url, 'presigned part URL', loopbackBase)).toBe(new URL(url).href);
	});

	it('accepts the very host of a Base URL that is itself inside (the owner chose it), and no other inside host', () => {
		const insideBase = resolveApiBase({ baseUrl: 'https://10.1.2.3:8443/dex' });
		expect(approveReturnedUrl('https://10.1.2.3:9000/storage/key?sig=1', 'presigned upload URL', insideBase)).toBe('https://10.1.2.3:9000/storage/key?sig=1');
		expect(() => approveReturnedUrl('https://10.1.2.4/storage/key', 'presigned upload URL', insideBase)).toThrow(/private address/);
		expect(() => approveReturnedUrl('https://169.254.169.254/', 'presigned upload URL', insideBase)).toThrow(/link-local/);
	});

	it('still refuses plain http to an inside host that is not loopback, with the inside reason first', () => {
		expect(() => approveReturnedUrl('http://169.254.169.254/latest/meta-data/', 'preview URL', loopbackBase)).toThrow(/link-local address/);
	});
});

describe('inside URLs handed back, through the engine (emulator answers rewritten)', () => {
	const KEY = SEEDED_KEYS.readWrite;

	async function textItem(): Promise<INodeExecutionData> {
		return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
	}

	async function run(parameters: IDataObject, inputItems?: INodeExecutionData[]): Promise<RunNodeResult> {
		return await runNode({ type: 'documentExtraction', parameters: { resource: 'file', ...parameters }, credentials: credentialsFor(emulator, KEY), inputItems });
	}

	function expectNothingSent(result: RunNodeResult): void {
		expect(requestsTo(emulator, 'storage')).toEqual([]);
		expect(emulator.requests.filter((entry) => entry.host === 'trap')).toEqual([]);
		expect(keyLeaks(emulator, KEY)).toEqual([]);
		expect(JSON.stringify([result.items, result.error?.message])).not.toContain('X-Amz-Signature=');
	}

	it.each([
		['https://169.254.169.254{path}?{query}', /"169\.254\.169\.254" is a link-local address/],
		['https://[::ffff:a9fe:a9fe]{path}?{query}', /IPv4-mapped IPv6 form of a link-local address/],
		['https://10.0.0.1{path}?{query}', /"10\.0\.0\.1" is a private address/],
		['https://metadata.google.internal{path}?{query}', /"metadata\.google\.internal" is a name reserved for private networks/],
	])('Upload: a presigned upload URL %j is refused and the document goes nowhere', async (url, reason) => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/The presigned upload URL the API answered was refused: its host /);
		expect(result.error?.message).toMatch(reason);
		expect(result.error?.message).toContain('Nothing was sent to it');
		expectNothingSent(result);
	});

	it('Upload in parts: one part URL on a unique-local address, and no part is sent at all', async () => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload/multipart', url: 'https://[fd00::1]{path}?{query}' });
		const big = await createBinaryItem({ buffer: Buffer.alloc(6 * 1024 * 1024, 65), fileName: 'big.txt', mimeType: 'text/plain' });

		const result = await run({ operation: 'upload', options: { multipart: 'always', partSize: 5 } }, [big]);

		expect(result.error?.message).toMatch(/The presigned part URL the API answered was refused: its host "\[fd00::1\]" is a unique-local address/);
		expectNothingSent(result);
	});

	it('Get Preview URL: a preview URL on a .internal name is not output', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: 'https://storage.corp.internal{path}?{query}' });

		const result = await run({ operation: 'getPreviewUrl', fileId: byId(file.fileId) });

		expect(result.error?.message).toMatch(/The preview URL the API answered was refused: its host "storage\.corp\.internal" is a name reserved for private networks/);
		expect(result.items).toEqual([]);
		expectNothingSent(result);
	});

	it('Download: a preview URL on the cloud metadata address is never fetched into binary data', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: 'https://169.254.169.254/latest/meta-data/iam/security-credentials/?{query}' });

		const result = await run({ operation: 'download', fileId: byId(file.fileId) });

		expect(result.error?.message).toMatch(/The preview URL the API answered was refused: its host "169\.254\.169\.254" is a link-local address/);
		expect(result.items).toEqual([]);
		expectNothingSent(result);
	});

	it('Download: a loopback preview URL under the loopback Base URL of the emulator still works', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		const { port } = new URL(emulator.storageUrl);
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: `http://localhost:${port}{path}?{query}` });

		const result = await run({ operation: 'download', fileId: byId(file.fileId) });

		expect(result.error).toBeUndefined();
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(1);
	});
});
