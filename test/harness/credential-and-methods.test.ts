import type { FixtureServer } from './fixtures/fixture-server';
import { FIXTURE_API_KEY, FIXTURE_PACKAGE_DIR, startFixtureServer } from './fixtures/fixture-server';
import { listSearch, loadOptions, testCredential } from '../../dev/harness';

let server: FixtureServer;

beforeAll(async () => {
	server = await startFixtureServer();
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.requests.length = 0;
});

describe('testCredential (the editor "Test" button)', () => {
	it('is OK when the test request succeeds with the key in the header', async () => {
		const result = await testCredential(
			'harnessFixtureApi',
			{ apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl },
			{ packageDir: FIXTURE_PACKAGE_DIR },
		);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/whoami' });
		expect(server.requests[0].headers['x-api-key']).toBe(FIXTURE_API_KEY);
	});

	it('is an Error naming the status when the server refuses the key', async () => {
		const result = await testCredential(
			'harnessFixtureApi',
			{ apiKey: 'not-the-key', baseUrl: server.baseUrl },
			{ packageDir: FIXTURE_PACKAGE_DIR },
		);

		expect(result).toEqual({ status: 'Error', message: 'Unauthorized' });
		expect(server.requests[0].headers['x-api-key']).toBe('not-the-key');
	});

	it('is an Error with the network error code when the host is unreachable', async () => {
		const closed = await startFixtureServer();
		const unreachable = closed.baseUrl;
		await closed.close();

		const result = await testCredential(
			'harnessFixtureApi',
			{ apiKey: FIXTURE_API_KEY, baseUrl: unreachable },
			{ packageDir: FIXTURE_PACKAGE_DIR },
		);

		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('loadOptions / listSearch through LoadOptionsContext', () => {
	const credentials = () => ({ harnessFixtureApi: { apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl } });

	it('calls methods.loadOptions with the credential applied', async () => {
		const options = await loadOptions({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			method: 'getColors',
			credentials: credentials(),
		});

		expect(options).toEqual([
			{ name: 'Red', value: 'r' },
			{ name: 'Green', value: 'g' },
			{ name: 'Blue', value: 'b' },
		]);
		expect(server.requests[0].headers['x-api-key']).toBe(FIXTURE_API_KEY);
	});

	it('calls methods.listSearch with the filter', async () => {
		const result = await listSearch({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			method: 'searchColors',
			filter: 're',
			credentials: credentials(),
		});

		expect(result.results).toEqual([
			{ name: 'Red', value: 'r' },
			{ name: 'Green', value: 'g' },
		]);
	});

	it('fails clearly for a method the node does not have', async () => {
		await expect(
			loadOptions({ packageDir: FIXTURE_PACKAGE_DIR, type: 'harnessFixture', method: 'nope', credentials: credentials() }),
		).rejects.toThrow('Node has no loadOptions method "nope"');
	});
});
