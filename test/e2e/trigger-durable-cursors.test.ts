/**
 * The trigger under `n8n start` with n8n's durable poll cursors on (n8n 2.41:
 * N8N_POLLER_DURABLE_CURSORS_ENABLED with N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED and N8N_USE_WORKFLOW_PUBLICATION_SERVICE): the trigger's
 * static data is then staged during a poll and committed with the execution that carries its
 * items (n8n/dist/workflows/triggers/poll-cursor.service.js). Documents uploaded before, during
 * and after polls that fail (the file list answering 500 on every retry) each start exactly one
 * execution: none lost, none twice.
 */
import { SEEDED_KEYS } from '../../dev/emulator';
import type { ExecutionRecord, Stack, WorkflowJson } from '../../dev/n8n/n8n-stack';
import { executionOutput, findNode, listExecutions, readExample, startStack } from '../../dev/n8n/n8n-stack';
import { e2eRuntime, uploadToEmulator, waitFor } from './helpers';

const TRIGGER_NODE = 'When a document is processed';
const DURABLE_CURSORS = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

/**
 * The example trigger alone, polling every 10 seconds (six Poll Times entries), from a start date:
 * with durable cursors n8n 2.41 runs the activation poll as a test and keeps nothing it stores
 * unless it emits, so Start From "Now" would start at the first scheduled poll (docs/trigger.md).
 */
function triggerWorkflow(): WorkflowJson {
	const workflow = readExample('trigger-on-processed-files.json');
	workflow.id = 'dexDurableTrig01';
	workflow.name = 'Document Extraction: durable cursor';
	workflow.nodes = [findNode(workflow, TRIGGER_NODE)];
	workflow.connections = {};
	const trigger = findNode(workflow, TRIGGER_NODE);
	trigger.parameters.pollTimes = {
		item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
	};
	trigger.parameters.options = {};
	trigger.parameters.startFrom = 'date';
	trigger.parameters.startDate = new Date(Date.now() - 60_000).toISOString();
	return workflow;
}

/** The files the trigger emitted in these executions (a failed poll's execution has no trigger output). */
function triggeredFileIds(executions: ExecutionRecord[]): string[] {
	return executions
		.filter((execution) => execution.data?.resultData.runData[TRIGGER_NODE]?.length)
		.flatMap((execution) => executionOutput(execution, TRIGGER_NODE).map((item) => String(item.fileId)));
}

describe('the trigger with n8n\'s durable poll cursors', () => {
	let stack: Stack;
	const workflow = triggerWorkflow();

	beforeAll(async () => {
		stack = await startStack({
			build: false,
			runtime: await e2eRuntime(),
			workflows: [workflow],
			publish: [workflow.id!],
			emulator: { processingDelayMs: 300 },
			n8n: { env: DURABLE_CURSORS },
		});
	});

	afterAll(async () => {
		await stack?.stop();
	});

	test('documents uploaded around polls that fail each start exactly one execution', async () => {
		const { emulator, n8n } = stack;
		expect(n8n.logs()).not.toMatch(/durable poll cursors stay disabled/);
		const lists = () => emulator.requests.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/files'));
		await waitFor('the activation poll', () => (lists().length > 0 ? true : undefined), 90_000);

		let serial = 0;
		const upload = async (): Promise<string> => {
			serial += 1;
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `durable-${serial}.txt`, Buffer.from(`Document Type: Receipt\nReceipt Number: R-DUR-${serial}\nTotal: ${serial}.00\n`));
			return await waitFor(`document ${serial} processed`, () => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId, 30_000);
		};
		const emitted = async () => triggeredFileIds(await listExecutions(n8n, workflow.id!));
		const until = async (what: string, fileIds: string[]) =>
			await waitFor(what, async () => ((await emitted()).filter((id) => fileIds.includes(id)).length >= fileIds.length ? true : undefined), 120_000, 1000);

		const before = [await upload(), await upload()];
		await until('the first documents', before);

		// The file list fails on every retry of the next polls: each such poll records an error and
		// commits nothing; the documents uploaded meanwhile wait for the next good poll.
		const failedBefore = lists().filter((entry) => entry.status === 500).length;
		emulator.faults.failNext({ method: 'GET', path: '/files', status: 500, count: 1_000 });
		const during = [await upload(), await upload()];
		await waitFor('two polls that failed', () => (lists().filter((entry) => entry.status === 500).length >= failedBefore + 8 ? true : undefined), 120_000, 1000);
		emulator.faults.clear();
		await until('the documents uploaded while polls failed', during);

		const after = [await upload()];
		await until('a document after the failures', after);
		// Two more polls with nothing new.
		const listsBefore = lists().length;
		await waitFor('two more polls', () => (lists().length >= listsBefore + 2 ? true : undefined), 60_000, 1000);

		const all = [...before, ...during, ...after];
		expect([...(await emitted())].sort()).toEqual([...all].sort());
		const executions = await listExecutions(n8n, workflow.id!);
		const failed = executions.filter((execution) => execution.status === 'error');
		expect(failed.length).toBeGreaterThanOrEqual(1);
		for (const execution of executions.filter((candidate) => triggeredFileIds([candidate]).length > 0)) {
			expect(execution.status).toBe('success');
			expect(execution.mode).toBe('trigger');
		}
	});
});
