import { createServer } from 'node:net';

import { testCredential } from '../harness';
import { SEEDED_KEYS, loadBuiltPackage, requestsTo, useEmulator } from './support';

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

describe('Base URL Override in the credential dialog', () => {
	it('has a hint saying when to set it and what it accepts, and a description with the full rules', async () => {
		const credential = (await loadBuiltPackage()).credentialTypes.documentExtractionApi;
		const field = credential.properties.find((property) => property.name === 'baseUrl');

		expect(field).toMatchObject({ displayName: 'Base URL Override', default: '' });
		expect(field?.hint).toMatch(/^Leave empty to use the instance above\. Set it only .*proxy \(https:\/\/…\) or a local emulator \(http:\/\/localhost/);
		expect(field?.description).toMatch(/Accepted: https:\/\/ with any host; http:\/\/ only for localhost, 127\.x\.x\.x and \[::1\]\. Refused: /);
	});
});
