import { createServer } from 'node:net';

import type { INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { BASE_URL_EXPRESSION, BaseUrlError, resolveBaseUrl } from '../../credentials/hosts';
import type { HostCredentialFields } from '../../credentials/hosts';
import { testCredential } from '../harness';
import { SEEDED_KEYS, requestsTo, useEmulator } from './support';

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

describe('the host table: the test expression and the transport agree', () => {
	const nodeTypes = {
		getByName: () => ({ description: { properties: [] } }),
		getByNameAndVersion: () => ({ description: { properties: [] } }),
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'N', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		active: false,
		nodeTypes,
	});
	const evaluate = (fields: HostCredentialFields) =>
		workflow.expression.getParameterValue(BASE_URL_EXPRESSION, null, 0, 0, 'N', [], 'internal', {
			$credentials: fields,
		});

	it.each<[HostCredentialFields, string]>([
		[{ instance: 'default' }, 'https://api.orion.file.ai'],
		[{}, 'https://api.orion.file.ai'],
		[{ instance: 'au', instanceHost: 'api.au.example.com' }, 'https://api.au.example.com'],
		[{ instance: 'sg', instanceHost: 'https://api.sg.example.com/' }, 'https://api.sg.example.com'],
		[{ instance: 'jp', instanceHost: ' api.jp.example.com/prod/v1 ' }, 'https://api.jp.example.com'],
		[{ instance: 'au', instanceHost: 'x', baseUrl: 'http://127.0.0.1:8787/' }, 'http://127.0.0.1:8787'],
		[{ baseUrl: 'http://localhost:8787/prod/v1' }, 'http://localhost:8787'],
		[{ baseUrl: 'http://[::1]:9000' }, 'http://[::1]:9000'],
		[{ baseUrl: 'https://proxy.example.com/' }, 'https://proxy.example.com'],
	])('%j -> %s', (fields, expected) => {
		expect(resolveBaseUrl(fields)).toBe(expected);
		expect(evaluate(fields)).toBe(expected);
	});

	it.each<HostCredentialFields>([
		{ baseUrl: 'http://api.example.com' },
		{ baseUrl: 'http://localhost.example.com:80' },
		{ baseUrl: 'http://127.0.0.1.example.com' },
	])('refuses http:// for a host that is not loopback: %j', (fields) => {
		expect(() => resolveBaseUrl(fields)).toThrow(BaseUrlError);
		expect(() => resolveBaseUrl(fields)).toThrow(/http:\/\/, which is accepted only for loopback hosts/);
		// The test request then goes to a name that never resolves, so the key goes nowhere.
		expect(evaluate(fields)).toBe('https://base-url-must-use-https.invalid');
	});

	it('asks for the instance host when an instance without a published host has none', () => {
		expect(() => resolveBaseUrl({ instance: 'sg', instanceHost: '' })).toThrow(/Instance Host/);
	});
});
