import { SEED_IDS } from '../../dev/emulator';
import { apiCalls, runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Workflow > Get', () => {
	it('outputs the workflow with its step summaries', async () => {
		const { items, error } = await runOperation(emulator, 'workflow', 'get', {
			workflowId: byId(SEED_IDS.workflowA),
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({ id: SEED_IDS.workflowA, status: 'active' });
		const steps = items[0].json.workflowSteps as Array<Record<string, unknown>>;
		expect(steps).toHaveLength(3);
		expect(steps.map((step) => step.stepExecutionOrder)).toEqual([0, 1, 2]);
		expect(Object.keys(steps[0]).sort()).toEqual(
			['id', 'status', 'stepExecutionLevel', 'stepExecutionOrder', 'stepType'].sort(),
		);
		expect(apiCalls(emulator)).toEqual([`GET /workflows/${SEED_IDS.workflowA}`]);
	});

	it('fails with the API\'s 404 for a workflow of another workspace', async () => {
		const { error } = await runOperation(emulator, 'workflow', 'get', { workflowId: byId(SEED_IDS.workflowB) });

		expect(error?.message).toContain('HTTP 404 NOT_FOUND');
		expect(error?.message).toContain('Check the ID');
	});

	it('refuses a malformed id before any request, naming the parameter, item and form', async () => {
		const { error } = await runOperation(
			emulator,
			'workflow',
			'get',
			{ workflowId: byId('={{ $json.workflowId }}') },
			{ inputItems: [{ json: { workflowId: 'wf-123' } }] },
		);

		expect(error?.message).toBe(
			'Invalid Workflow in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "wf-123"',
		);
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('with continueOnFail, outputs an error item for the missing workflow and the workflow for the other', async () => {
		const { items, error } = await runOperation(
			emulator,
			'workflow',
			'get',
			{ workflowId: byId('={{ $json.workflowId }}') },
			{
				continueOnFail: true,
				inputItems: [{ json: { workflowId: '0123456789abcdef01234567' } }, { json: { workflowId: SEED_IDS.workflowA } }],
			},
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json.error).toContain('HTTP 404 NOT_FOUND');
		expect(items[0].json.httpCode).toBe('404');
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json.id).toBe(SEED_IDS.workflowA);
	});
});

describe('Workflow > Get refuses an array where one ID is expected', () => {
	it('a Workflow from an expression giving an array of one ID', async () => {
		const { error } = await runOperation(emulator, 'workflow', 'get', { workflowId: byId(`={{ ["${SEED_IDS.workflowA}"] }}`) });

		expect(error?.message).toBe(
			`Invalid Workflow in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, not an array, got "["${SEED_IDS.workflowA}"]"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});
});
