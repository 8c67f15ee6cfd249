import type { IDataObject } from 'n8n-workflow';

import type { FixtureServer } from './fixtures/fixture-server';
import { FIXTURE_API_KEY, FIXTURE_PACKAGE_DIR, startFixtureServer } from './fixtures/fixture-server';
import type { StaticDataHost } from '../../dev/harness';
import { pollTrigger } from '../../dev/harness';

let server: FixtureServer;

beforeAll(async () => {
	server = await startFixtureServer();
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.requests.length = 0;
	server.events.length = 0;
});

const poll = async (staticData: IDataObject, extra: { mode?: 'trigger' | 'manual'; staticDataHost?: StaticDataHost; failAfterReading?: boolean } = {}) =>
	await pollTrigger({
		packageDir: FIXTURE_PACKAGE_DIR,
		type: 'harnessFixtureTrigger',
		parameters: { failAfterReading: extra.failAfterReading ?? false },
		credentials: { harnessFixtureApi: { apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl } },
		staticData,
		mode: extra.mode,
		staticDataHost: extra.staticDataHost,
	});

describe.each<StaticDataHost>(['in-memory', 'staged'])('pollTrigger as an active workflow (%s host)', (host) => {
	it('persists static data from poll to poll: each event is emitted once', async () => {
		server.events.push({ id: 1, name: 'a' }, { id: 2, name: 'b' });
		const first = await poll({}, { staticDataHost: host });
		expect(first.error).toBeUndefined();
		expect(first.items.map((item) => item.json.id)).toEqual([1, 2]);
		expect(first.staticData).toEqual({ lastId: 2 });

		const idle = await poll(first.staticData, { staticDataHost: host });
		expect(idle.outputs).toBeNull();
		expect(idle.items).toEqual([]);
		expect(idle.staticData).toEqual({ lastId: 2 });

		server.events.push({ id: 3, name: 'c' });
		const third = await poll(idle.staticData, { staticDataHost: host });
		expect(third.items.map((item) => item.json.id)).toEqual([3]);
		expect(third.staticData).toEqual({ lastId: 3 });

		expect(server.requests.map((request) => request.query.after)).toEqual(['0', '2', '2']);
		for (const request of server.requests) expect(request.headers['x-api-key']).toBe(FIXTURE_API_KEY);
	});

	it('reports a failed poll through __emitError, and the host decides what happens to the mutation', async () => {
		server.events.push({ id: 7, name: 'x' });
		const failed = await poll({ lastId: 5 }, { staticDataHost: host, failAfterReading: true });

		expect(failed.error?.message).toBe('Fixture poll failed after reading');
		expect(failed.items).toEqual([]);
		// The fixture moves its cursor before it throws: an in-memory host keeps that (the event
		// is lost for good), a staged host throws the mutation away.
		expect(failed.staticData).toEqual(host === 'in-memory' ? { lastId: 7 } : { lastId: 5 });
	});
});

describe('pollTrigger options', () => {
	it('passes the poll budget the host gives (getPollBudgetMs)', async () => {
		server.events.push({ id: 1, name: 'a' });
		const withBudget = await pollTrigger({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixtureTrigger',
			parameters: { reportPollBudget: true },
			credentials: { harnessFixtureApi: { apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl } },
			pollBudgetMs: 1234,
		});
		expect(withBudget.items.map((item) => item.json.pollBudgetMs)).toEqual([1234]);

		const withDefault = await pollTrigger({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixtureTrigger',
			parameters: { reportPollBudget: true },
			credentials: { harnessFixtureApi: { apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl } },
		});
		expect(withDefault.items.map((item) => item.json.pollBudgetMs)).toEqual([5 * 60 * 1000]);
	});
});

describe('pollTrigger in manual mode ("Fetch Test Event")', () => {
	it('runs poll() through WorkflowExecute and leaves the static data as it was', async () => {
		server.events.push({ id: 4, name: 'd' });
		const result = await poll({ lastId: 3 }, { mode: 'manual' });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ id: 4, name: 'd' }]);
		expect(result.staticData).toEqual({ lastId: 3 });
	});
});
