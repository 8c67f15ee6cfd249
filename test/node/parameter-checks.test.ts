/**
 * One way to check a parameter, in every context (nodes/shared/parameters): a bad value fails
 * with one message that names the item (where there is one), the field, what was expected, what
 * was got and what to do, before anything of it is sent to the API; the value is shown bounded
 * and escaped, and the API key is never shown.
 */
import { SEED_IDS } from '../../dev/emulator';
import { runNode } from '../../dev/harness';
import { ActiveTrigger } from '../trigger/support';
import { seedFile } from './file-operations-support';
import { apiCalls, runOperation } from './run-operation';
import { SEEDED_KEYS, useEmulator } from './support';

const emulator = useEmulator();

beforeAll(async () => {
	await seedFile(emulator);
});

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const WHAT_TO_DO = (field: string) => `Correct "${field}" (it is checked before anything is sent to the API).`;

describe('a bad value in item 2 of an action', () => {
	it('names item 2, the field, the form and what to do; items 0 and 1 were sent, nothing of item 2', async () => {
		const { items, error } = await runOperation(
			emulator,
			'workflow',
			'get',
			{ workflowId: byId('={{ $json.workflowId }}') },
			{
				inputItems: [
					{ json: { workflowId: SEED_IDS.workflowA } },
					{ json: { workflowId: SEED_IDS.workflowA } },
					{ json: { workflowId: 'wf-123\n' } },
				],
			},
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'Invalid Workflow in item 2: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "wf-123\\n"',
		);
		expect(error?.description).toContain(WHAT_TO_DO('Workflow'));
		expect(error?.description).toContain('Item index: 2');
		expect(apiCalls(emulator)).toEqual([`GET /workflows/${SEED_IDS.workflowA}`, `GET /workflows/${SEED_IDS.workflowA}`]);
	});

	it('with Continue On Fail, item 2 becomes its error item and the others their results', async () => {
		const { items, error } = await runOperation(
			emulator,
			'file',
			'getMany',
			{ returnAll: false, limit: '={{ $json.limit }}' },
			{ continueOnFail: true, inputItems: [{ json: { limit: 1 } }, { json: { limit: 1 } }, { json: { limit: 0 } }] },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[2].json).toEqual({ error: 'Invalid Limit in item 2: expected a whole number of 1 or more, got "0"' });
		expect(apiCalls(emulator)).toEqual(['GET /files', 'GET /files']);
	});

	it('shows a long value escaped and cut at 80 characters', async () => {
		const name = `a\tb\u200Bc\u202E${'x'.repeat(300)}`;
		const { error } = await runOperation(emulator, 'directory', 'create', { name: '={{ $json.name }}' }, {
			inputItems: [{ json: { name: 'ok' } }, { json: { name: 'ok' } }, { json: { name } }],
		});

		expect(error?.message).toBe(
			`Invalid Name in item 2: expected text of 1 to 255 characters, got "a\\tb\\u200Bc\\u202E${'x'.repeat(63)}…"`,
		);
		expect(apiCalls(emulator)).toEqual(['POST /directories', 'POST /directories']);
	});

	it('a request option (read by the request path) names its item in the same message', async () => {
		const { error } = await runOperation(
			emulator,
			'workflow',
			'get',
			{ workflowId: byId(SEED_IDS.workflowA), options: { requestTimeout: '={{ $json.timeout }}' } },
			{ inputItems: [{ json: { timeout: 30 } }, { json: { timeout: 30 } }, { json: { timeout: 0 } }] },
		);

		expect(error?.message).toBe('Invalid Request Timeout (Seconds) in item 2: expected a number of seconds, 1 or more, got "0"');
		expect(error?.description).toContain(WHAT_TO_DO('Request Timeout (Seconds)'));
		expect(apiCalls(emulator)).toHaveLength(2);
	});
});

describe('a bad value in the trigger (a poll has no item)', () => {
	it('names the field, the form and what to do, and the poll sends nothing', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', options: { maxDocumentsPerPoll: 0 } });

		const { error } = await trigger.poll();

		expect(error?.message).toBe('Invalid Max Documents per Poll: expected a whole number of 1 or more, got "0"');
		expect((error as { description?: string } | undefined)?.description).toBe(WHAT_TO_DO('Max Documents per Poll'));
		expect(emulator.requests).toEqual([]);
	});

	it('takes a whole number given as text, as the action node does', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', options: { maxDocumentsPerPoll: '={{ "500" }}' } });

		const { error } = await trigger.poll();

		expect(error).toBeUndefined();
		expect(emulator.requests.length).toBeGreaterThan(0);
	});
});

describe('the API key is never shown', () => {
	it('a Base URL that carries the key in its query is refused without showing the key', async () => {
		const apiKey = SEEDED_KEYS.readWrite;
		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workflow', operation: 'get', workflowId: byId(SEED_IDS.workflowA) },
			credentials: { documentExtractionApi: { apiKey, instance: 'default', baseUrl: `${emulator.apiUrl}?api_key=${apiKey}` } },
		});

		expect(error?.message).toContain('must not contain a query (?) or fragment (#)');
		expect(error?.message).toContain('?api_key=[redacted]');
		expect(JSON.stringify(error)).not.toContain(apiKey);
		expect(emulator.requests).toEqual([]);
	});
});
