/**
 * Property-based tests of where the API key may go (credentials/apiKeyAttachment.ts and
 * credentials/urlPolicy.ts): generated hostile request URLs, Base URLs and headers, judged against
 * an oracle written here, independently of the code under test.
 *
 * Invariants:
 * - K1 (the key stays home): the credential attaches the key only when the WHATWG-parsed target
 *   has the API's origin, no user info, and EVERY reading of its path that a server or proxy in
 *   front of the API may make (decoding once, twice or three times, with overlong UTF-8 accepted;
 *   backslashes as slashes; `;` parameters dropped; Unicode folded with NFKC; dot segments
 *   resolved) stays under the Base URL's path prefix; and another URL parser (Node's legacy
 *   url.parse) sees the same host.
 * - K2 (no routing header): the key is attached only when no header name is, in any letter case
 *   or with spaces around it, one that reroutes or rewrites the request at a proxy, and every name
 *   is an HTTP token; the request then carries exactly one x-api-key (ours) and no Content-Length
 *   of the caller's.
 * - K3 (no over-refusal): the requests the node itself makes (the API paths, IDs, queries) and
 *   ordinary headers keep getting the key.
 * - K4 (Base URL): a Base URL Override the policy accepts has exactly one reading: every reading
 *   of its path is the prefix it was approved with.
 * - K5 (IDs into paths): an ID that passes the ID check puts no ambiguity into a path.
 * - K6 (returned URLs carry no key and are judged on the host): the path of a URL the API hands
 *   back, however spelled, never changes whether it is accepted.
 *
 * Runs: 300 per property from a fixed seed in `npm test`; `npm run fuzz` runs FUZZ_RUNS (5,000)
 * and FUZZ_SEED picks another seed (test/fuzz/runs.ts). fast-check prints the seed and path of a
 * counterexample; each one found is a named test in test/node/ (listed in docs/security.md).
 */
import { parse as legacyParse } from 'node:url';

import * as fc from 'fast-check';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { authorizeApiRequest } from '../../credentials/apiKeyAttachment';
import { BaseUrlError, resolveApiBase } from '../../credentials/hosts';
import { API_PATH_PREFIX, approveBaseUrl, pathAmbiguity } from '../../credentials/urlPolicy';
import { isId } from '../../nodes/shared/ids';
import { approveReturnedUrl } from '../../nodes/shared/transport/returnedUrls';

import { fuzzParameters, fuzzTimeout } from './runs';

/** Runs of each property in `npm test` (fixed seed); `npm run fuzz` scales them (test/fuzz/runs.ts). */
const RUNS = 300;
jest.setTimeout(fuzzTimeout(RUNS, 3));

const KEY = 'dex_fuzz_key_0123456789abcdef';

// ---------------------------------------------------------------------------------------------
// The oracle: how servers and proxies in front of the API may read a path.

/** Percent-decoding to bytes, then a lax UTF-8 decoder that accepts overlong forms (as old IIS and others did). */
function laxDecode(path: string): string {
	const bytes: number[] = [];
	for (let index = 0; index < path.length; index++) {
		const hex = path.slice(index + 1, index + 3);
		if (path[index] === '%' && /^[\da-f]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16));
			index += 2;
		} else {
			for (const byte of Buffer.from(path[index], 'utf8')) bytes.push(byte);
		}
	}
	let text = '';
	for (let index = 0; index < bytes.length; index++) {
		const byte = bytes[index];
		const continuation = (offset: number) => (bytes[index + offset] ?? 0) & 0x3f;
		if (byte >= 0xc0 && byte < 0xe0 && (bytes[index + 1] ?? 0) >> 6 === 2) {
			text += String.fromCodePoint(((byte & 0x1f) << 6) | continuation(1));
			index += 1;
		} else if (byte >= 0xe0 && byte < 0xf0 && (bytes[index + 1] ?? 0) >> 6 === 2 && (bytes[index + 2] ?? 0) >> 6 === 2) {
			const point = ((byte & 0x0f) << 12) | (continuation(1) << 6) | continuation(2);
			text += point >= 0xd800 && point <= 0xdfff ? '\ufffd' : String.fromCodePoint(point);
			index += 2;
		} else {
			text += byte < 0x80 ? String.fromCharCode(byte) : '\ufffd';
		}
	}
	return text;
}

function resolveDots(path: string): string {
	const out: string[] = [];
	for (const segment of path.split('/')) {
		if (segment === '.') continue;
		if (segment === '..') {
			if (out.length > 1) out.pop();
			continue;
		}
		out.push(segment);
	}
	return out.join('/');
}

/** One way a server or proxy may read a path: decoded `rounds` times, then the options, then dots resolved. */
type Reading = (path: string) => string;

const READINGS: Reading[] = [];
for (let rounds = 0; rounds < 4; rounds++) {
	for (const backslash of [false, true]) {
		for (const dropParameters of [false, true]) {
			for (const fold of [false, true]) {
				READINGS.push((path) => {
					let reading = path;
					for (let round = 0; round < rounds; round++) reading = laxDecode(reading);
					if (backslash) reading = reading.split('\\').join('/');
					if (dropParameters) reading = reading.split('/').map((segment) => segment.split(';')[0]).join('/');
					if (fold) reading = reading.normalize('NFKC');
					return resolveDots(reading);
				});
			}
		}
	}
}

/** The distinct readings of a path. */
const readings = (path: string) => [...new Set(READINGS.map((read) => read(path)))];

const under = (path: string, prefix: string) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`);

/**
 * K1's oracle: may the key go to this URL text under this Base URL? Same origin (WHATWG), no user
 * info, the legacy parser agrees on the host, and under every reading the target's path is under
 * the same reading of the prefix.
 */
function keyMayGo(text: string, baseUrl: string): boolean {
	let target: URL;
	try {
		target = new URL(text);
	} catch {
		return false;
	}
	const base = new URL(baseUrl);
	if (target.origin !== base.origin || target.username !== '' || target.password !== '') return false;
	const legacy = legacyParse(text);
	if (legacy.hostname === null || legacy.hostname === undefined) return false;
	let legacyHost: string;
	try {
		legacyHost = new URL(`${target.protocol}//${legacy.hostname.includes(':') && !legacy.hostname.startsWith('[') ? `[${legacy.hostname}]` : legacy.hostname}`).hostname;
	} catch {
		return false;
	}
	if (legacyHost !== target.hostname) return false;
	const prefix = base.pathname.replace(/\/+$/, '');
	return READINGS.every((read) => under(read(target.pathname), read(prefix)));
}

// ---------------------------------------------------------------------------------------------
// Generators.

interface BaseCase {
	baseUrl: string;
	/** Spellings of the host that the URL parser reads as the base's host (and some it does not). */
	hosts: string[];
	ports: string[];
}

const BASES: BaseCase[] = [
	{
		baseUrl: 'https://gw.example.com/dex',
		hosts: ['gw.example.com', 'GW.Example.COM', 'gw.example.com.', '%67w.example.com', 'evil.example', 'gw.example.com.evil.example', 'gw.example.com%2F@evil.example'],
		ports: ['', ':443', ':0443', ':8443', ':'],
	},
	{ baseUrl: 'https://api.example.com', hosts: ['api.example.com', 'API.EXAMPLE.COM', 'api.example.com.', 'api%2eexample.com', 'evil.example'], ports: ['', ':443', ':444'] },
	{ baseUrl: 'http://127.0.0.1:8787/proxy/v2', hosts: ['127.0.0.1', '127.1', '0x7f.0.0.1', '2130706433', '0177.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]'], ports: [':8787', ':08787', ':80', ''] },
	{ baseUrl: 'https://93.184.216.34/dex', hosts: ['93.184.216.34', '0x5d.0xb8.0xd8.0x22', '1572395042', '93.184.55330', '0135.0270.0330.042', '[::ffff:93.184.216.34]', '93.184.216.34.'], ports: ['', ':443'] },
	{ baseUrl: 'https://[2606:4700::1111]:8443/a/b', hosts: ['[2606:4700::1111]', '[2606:4700:0:0:0:0:0:1111]', '[2606:4700::1111%25eth0]', '[2606:4700::1110]', '[::ffff:2606:4700]'], ports: [':8443', ':443', ''] },
];

const SEGMENTS = [
	'..', '.', '...', '%2e', '%2E', '%2e%2e', '.%2E', '%2e.', 'prod', 'v1', 'files', 'other', 'dex', 'a', ';', ';x=1', '..;', ';..',
	'%3b', '%3B', '%252e', '%252E%252e', '%252f', '%25', '%', '%zz', '%2', '%00', '%09', '%0a', '\t', '\n', '%c0%ae', '%C0%AF',
	'%e0%80%ae', '%ef%bc%8e', '%EF%BC%8F', '%e2%80%a4', '%ef%bc%bc', '．', '／', '%20', ' ', '~', '%7e', '%41', 'a%2fb', 'a%5Cb',
	'%3f', '%23', '?', '#', '@', ':', '%40', '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
];
const SEPARATORS = ['/', '/', '/', '\\', '//', '%2f', '%2F', '%5c', '%5C', '/./', '/../', '/%2e%2e/', '%252f'];

const percentByte = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([byte, upper]) => {
	const hex = byte.toString(16).padStart(2, '0');
	return `%${upper ? hex.toUpperCase() : hex}`;
});

const segment = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) },
	{ weight: 2, arbitrary: percentByte },
	{ weight: 1, arbitrary: fc.mixedCase(fc.constantFrom('..%2f', '%2e%2e%2f', '..%5c', '%252e%252e%252f', '..;')) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);

const hostilePath = fc.array(fc.tuple(fc.constantFrom(...SEPARATORS), segment), { maxLength: 8 }).map((parts) => parts.map(([separator, part]) => separator + part).join(''));

/** The first value four times as often as each of the others: most cases stay near a valid request. */
const mostly = <T>(values: T[]) => fc.oneof({ weight: 4, arbitrary: fc.constant(values[0]) }, { weight: 1, arbitrary: fc.constantFrom(...values) });

/** A request URL text under (or around) a base, and how it is given: as url, or as baseURL + url. */
const requestFor = (base: BaseCase) => {
	const parsed = new URL(base.baseUrl);
	const prefix = parsed.pathname.replace(/\/$/, '');
	return fc
		.record({
			scheme: mostly([`${parsed.protocol}//`, 'HTTPS://', 'http://', 'https://', 'https:', 'https:/', 'https:\\\\', 'hTtPs://', ' https://']),
			userinfo: mostly(['', '@', 'user@', 'user:pw@', ':@', 'gw.example.com@']),
			host: mostly(base.hosts),
			port: mostly(base.ports),
			prefix: mostly([prefix, '', '/DEX', '/d%65x', '/dex;x', '/dex%2f..', '/proxy/v2', '/a/b', '/a', `${prefix}%2f..`]),
			path: fc.oneof({ weight: 1, arbitrary: fc.constantFrom('/prod/v1/files', '/prod/v1/subscription', '') }, { weight: 3, arbitrary: hostilePath }),
			tail: mostly(['', '?x=..%2F', '#..', '?a=1;b=2', '/']),
			split: fc.boolean(),
		})
		.map(({ scheme, userinfo, host, port, prefix: start, path, tail, split }) => {
			const whole = `${scheme}${userinfo}${host}${port}${start}${path}${tail}`;
			if (split && path !== '') return { text: whole, options: { baseURL: `${scheme}${userinfo}${host}${port}${start}`, url: `${path}${tail}` } };
			return { text: whole, options: { url: whole } };
		});
};

async function attached(credentials: { apiKey: string; baseUrl: string }, options: object): Promise<Record<string, unknown> | undefined> {
	try {
		return (await authorizeApiRequest(credentials, options as IHttpRequestOptions)).headers as Record<string, unknown>;
	} catch (error) {
		if (!(error instanceof BaseUrlError)) throw error;
		return undefined;
	}
}

/** The text axios would send to for { baseURL, url } (the oracle's own combination). */
function combined(options: { url?: string; baseURL?: string }): string {
	const url = options.url ?? '';
	if (!options.baseURL || /^[a-z][\d+\-.a-z]*:\/\//i.test(url) || url.startsWith('//')) return url;
	return `${options.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

describe('K1: the key goes only to the API origin, under the Base URL prefix, whatever reading a server makes', () => {
	it.each(BASES.map((base, index) => [base.baseUrl, index] as const))('under %s', async (baseUrl, index) => {
		const base = BASES[index];
		const credentials = { apiKey: KEY, baseUrl };
		let attachedCount = 0;
		await fc.assert(
			fc.asyncProperty(requestFor(base), async ({ options }) => {
				const headers = await attached(credentials, options);
				if (headers === undefined) return;
				attachedCount++;
				expect({ url: combined(options), safe: keyMayGo(combined(options), baseUrl) }).toEqual({ url: combined(options), safe: true });
			}),
			fuzzParameters(RUNS),
		);
		// The generator reaches the accepting side too, or the property says nothing.
		expect(attachedCount).toBeGreaterThan(0);
	});
});

// ---------------------------------------------------------------------------------------------
// Headers.

/** The oracle's list: header names (lower case) and name families that route or rewrite at a proxy. */
const ORACLE_ROUTING = new Set([
	'host', 'forwarded', 'x-host', 'x-http-host-override', 'x-rewrite-url', 'x-http-method-override', 'x-http-method', 'x-method-override',
	'x-real-ip', 'x-client-ip', 'true-client-ip', 'transfer-encoding', 'te', 'connection', 'upgrade', 'keep-alive', 'proxy-connection',
]);
const ORACLE_FAMILIES = ['x-forwarded-', 'x-original-'];
const isRouting = (name: string) => {
	// CGI, PHP and WSGI read X_Forwarded_Host as X-Forwarded-Host (both become HTTP_X_FORWARDED_HOST).
	const lower = name.trim().toLowerCase().split('_').join('-');
	return ORACLE_ROUTING.has(lower) || ORACLE_FAMILIES.some((family) => lower.startsWith(family));
};
const isToken = (name: string) => /^[\w!#$%&'*+.^`|~-]+$/.test(name.trim());

const ROUTING_NAMES = [
	'Host', 'Forwarded', 'X-Forwarded-Host', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Prefix', 'X-Forwarded-Port', 'X-Original-URL',
	'X-Original-Host', 'X-Rewrite-URL', 'X-Host', 'X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override', 'X-Real-IP', 'True-Client-IP',
	'Transfer-Encoding', 'TE', 'Connection', 'Upgrade', 'Keep-Alive', 'Proxy-Connection',
];
const BENIGN_NAMES = ['Accept', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'User-Agent', 'Via', 'X-Trace', 'Accept-Language', 'X-Custom-Forwarded-Host'];

/** Spellings a client might fold into a routing header: case, spaces around, look-alike letters, NUL, wide forms. */
const headerName = fc.oneof(
	{ weight: 3, arbitrary: fc.mixedCase(fc.constantFrom(...ROUTING_NAMES)) },
	{ weight: 3, arbitrary: fc.constantFrom(...BENIGN_NAMES) },
	{
		weight: 2,
		arbitrary: fc
			.tuple(fc.constantFrom('', ' ', '\t', '  '), fc.mixedCase(fc.constantFrom(...ROUTING_NAMES, ...BENIGN_NAMES)), fc.constantFrom('', ' ', '\t'))
			.map(([before, name, after]) => `${before}${name}${after}`),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(fc.constantFrom(...ROUTING_NAMES), fc.constantFrom(['s', 'ſ'], ['k', '\u212a'], ['i', 'ı'], ['-', '\u2010'], ['X', 'Ｘ'], ['t', 't\u0000'], ['o', 'о']))
			.map(([name, [from, to]]) => name.replace(from, to)),
	},
	{ weight: 1, arbitrary: fc.mixedCase(fc.constantFrom('x-api-key', 'Content-Length', ':authority', ':path')) },
	{ weight: 1, arbitrary: fc.mixedCase(fc.constantFrom(...ROUTING_NAMES)).map((name) => name.split('-').join('_')) },
	{ weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
);

describe('K2 and K3: headers', () => {
	it('K2: the key never goes with a header that routes or rewrites the request, or a name that is not a header name', async () => {
		const credentials = { apiKey: KEY, baseUrl: 'https://api.example.com' };
		let attachedCount = 0;
		await fc.assert(
			fc.asyncProperty(fc.dictionary(headerName, fc.string({ maxLength: 8 }), { maxKeys: 4 }), async (headers) => {
				const sent = await attached(credentials, { url: 'https://api.example.com/prod/v1/files', headers });
				if (sent === undefined) return;
				attachedCount++;
				const names = Object.keys(headers);
				expect(names.filter((name) => isRouting(name) || !isToken(name))).toEqual([]);
				const sentNames = Object.keys(sent).map((name) => name.trim().toLowerCase());
				expect(sentNames.filter((name) => name === 'x-api-key')).toEqual(['x-api-key']);
				expect(sent['x-api-key']).toBe(KEY);
				expect(sentNames).not.toContain('content-length');
			}),
			fuzzParameters(RUNS),
		);
		expect(attachedCount).toBeGreaterThan(0);
	});

	it('K3: ordinary headers, the API paths and IDs the node uses, and queries keep the key', async () => {
		const credentials = { apiKey: KEY, baseUrl: 'https://gw.example.com/dex' };
		const endpoint = fc.constantFrom('/files', '/files/upload', '/files/upload/multipart', '/files/schema/rerun', '/file-type', '/subscription', '/query/execute', '/uploads/{uuid}', '/files/{uuid}/values', '/workflows/{oid}');
		const request = fc.record({
			endpoint,
			uuid: fc.uuid(),
			oid: fc.stringMatching(/^[0-9a-f]{24}$/),
			query: fc.option(fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 10 }), { maxKeys: 3 })),
			headers: fc.dictionary(fc.constantFrom(...BENIGN_NAMES), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
			split: fc.boolean(),
		});
		await fc.assert(
			fc.asyncProperty(request, async ({ endpoint: path, uuid, oid, query, headers, split }) => {
				const filled = `${API_PATH_PREFIX}${path.replace('{uuid}', encodeURIComponent(uuid)).replace('{oid}', encodeURIComponent(oid))}`;
				const search = query ? `?${new URLSearchParams(query as Record<string, string>).toString()}` : '';
				const options = split ? { baseURL: 'https://gw.example.com/dex', url: `${filled}${search}`, headers } : { url: `https://gw.example.com/dex${filled}${search}`, headers };
				const sent = await attached(credentials, options);
				expect({ options, attached: sent !== undefined }).toEqual({ options, attached: true });
			}),
			fuzzParameters(RUNS),
		);
	});
});

// ---------------------------------------------------------------------------------------------
// Base URLs, IDs, returned URLs.

describe('K4: an accepted Base URL Override has one reading', () => {
	it('every reading of its path is the approved prefix', () => {
		const baseText = fc
			.record({
				scheme: fc.constantFrom('https://', 'HTTPS://', 'http://', 'https:'),
				host: fc.constantFrom('gw.example.com', 'GW.example.com.', '127.0.0.1:8787', 'localhost:1', '[::1]', 'api.example.com:8443'),
				path: hostilePath,
				tail: fc.constantFrom('', '/', '//', '/prod/v1', '/prod/v1/', ' '),
			})
			.map(({ scheme, host, path, tail }) => `${scheme}${host}${path}${tail}`);
		let acceptedCount = 0;
		fc.assert(
			fc.property(baseText, (text) => {
				let approved: ReturnType<typeof approveBaseUrl>;
				try {
					approved = approveBaseUrl(text);
				} catch {
					return;
				}
				acceptedCount++;
				const parsed = new URL(text.trim());
				expect(approved.origin).toBe(parsed.origin);
				let path = parsed.pathname.replace(/\/+$/, '');
				if (path.endsWith(API_PATH_PREFIX)) path = path.slice(0, -API_PATH_PREFIX.length).replace(/\/+$/, '');
				const decodedPrefix = approved.pathPrefix;
				expect({ text, readings: readings(path) }).toEqual({ text, readings: [decodedPrefix] });
			}),
			fuzzParameters(RUNS),
		);
		expect(acceptedCount).toBeGreaterThan(0);
	});

	it('an Instance Host with any path, dot or encoding is refused', () => {
		fc.assert(
			fc.property(
				fc.tuple(fc.constantFrom('api.au.example.com', 'api.au.example.com:8443'), hostilePath.filter((path) => path.replace(/\/+$/, '') !== '')),
				([host, path]) => {
					let accepted: string | undefined;
					try {
						accepted = resolveApiBase({ instance: 'au', instanceHost: `${host}${path}` }).url;
					} catch {
						return;
					}
					// Accepted only when the "path" is nothing but the /prod/v1 prefix the node adds itself.
					expect({ path, accepted }).toEqual({ path, accepted: `https://${host}` });
					expect(readings(new URL(`https://${host}${path}`).pathname.replace(/\/+$/, '')).every((reading) => reading === '' || reading === API_PATH_PREFIX)).toBe(true);
				},
			),
			fuzzParameters(RUNS),
		);
	});
});

describe('K5 and K6: IDs into paths, URLs handed back', () => {
	it('K5: an ID that passes the ID check puts no ambiguity into a path, and traversal never passes it', () => {
		const candidate = fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9a-fA-F]{24}$/), fc.string({ maxLength: 40 }), hostilePath, fc.uuid().map((id) => `${id}${'%2F..'}`), fc.uuid().map((id) => `${id}/..`));
		fc.assert(
			fc.property(candidate, fc.constantFrom('uuid', 'objectId') as fc.Arbitrary<'uuid' | 'objectId'>, (id, form) => {
				if (!isId(id, form)) return;
				expect(pathAmbiguity(`/prod/v1/files/${encodeURIComponent(id)}/values`)).toBeUndefined();
				expect(readings(`/prod/v1/files/${encodeURIComponent(id)}/values`)).toEqual([`/prod/v1/files/${id}/values`]);
			}),
			fuzzParameters(RUNS),
		);
	});

	it('K6: the path of a returned URL, however spelled, never changes whether it is accepted', () => {
		const httpsBase = resolveApiBase({});
		const hosts = fc.constantFrom('bucket.s3.amazonaws.com', '169.254.169.254', '10.0.0.1', 'metadata.google.internal', '[::ffff:a9fe:a9fe]', 'api.orion.file.ai', 'storage.example.com:8443');
		fc.assert(
			fc.property(hosts, hostilePath, (host, path) => {
				const withPath = `https://${host}/${path.replace(/^[/\\]+/, '')}`;
				if (/[\\\u0000-\u001f\u007f\s]/.test(withPath) || withPath.includes('?') || withPath.includes('#')) return;
				const verdict = (url: string) => {
					try {
						approveReturnedUrl(url, 'preview URL', httpsBase);
						return 'accepted';
					} catch (error) {
						return (error as Error).message.replace(/^.*?refused: /, '').slice(0, 40);
					}
				};
				expect({ withPath, verdict: verdict(withPath) }).toEqual({ withPath, verdict: verdict(`https://${host}/`) });
			}),
			fuzzParameters(RUNS),
		);
	});
});
