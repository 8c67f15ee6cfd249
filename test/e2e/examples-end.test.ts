/**
 * Every example in examples/ runs to its end on the emulator, failing documents included. Each is
 * run as shipped through the engine harness (n8n-core's WorkflowExecute, dev/harness runWorkflow)
 * with a bound on node runs, not a timer: an example that loops is stopped by the bound, and
 * fails here, instead of running for ever. n8n's own nodes the examples use (Read/Write Files,
 * Convert to File, HTTP Request, Merge, Wait, IF, Edit Fields, Split Out) come from the n8n the e2e global setup
 * provisions (dev/n8n/n8n-runtime.ts), loaded file by file with n8n-core's loader.
 *
 * The sample documents are examples/documents: an invoice PDF, a receipt and a ZIP of five members,
 * two of which (an empty file and a broken PDF) fail.
 *
 * The agent example needs n8n's LangChain nodes, which do not load in this process (Node 20 under
 * jest crashed loading them): test/e2e/ai.test.ts runs it to its end in the real n8n; here its
 * bound (the AI Agent's Max Iterations) is checked.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { startEmulator, type Emulator } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME } from '../../dev/documents';
import { activateWebhookTrigger, runWorkflow, startWaitingWebhooks, type ExecutionObserver, type PackageFiles, type RunWorkflowResult, type WorkflowJson } from '../../dev/harness';
import { uploadToEmulator } from '../../dev/emulator/client';
import { ensureN8n } from '../../dev/n8n/n8n-runtime';
import { AGENT_EXAMPLE } from '../../dev/model/chat-model';
import { CALLBACK_TRIGGER_TYPE, EXAMPLES_DIR, readExample } from '../../dev/n8n/n8n-stack';

const DOCUMENTS = path.join(EXAMPLES_DIR, 'documents');
/** Node runs an example may take before it is stopped: several times what each needs here. */
const MAX_NODE_RUNS = 100;
/** The documents of examples/documents and how each ends (the ZIP counts as its five members). */
const PROCESSED = [INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, 'invoice-INV-2024-0042.txt', INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME];
const FAILED = [
	['empty.txt', 'The file is empty'],
	['broken.pdf', 'The PDF could not be read'],
];

let nodesBase: PackageFiles;
let emulator: Emulator;

beforeAll(async () => {
	// n8n's Read/Write Files node reads only under N8N_RESTRICT_FILE_ACCESS_TO (npm start: documents/).
	process.env.N8N_RESTRICT_FILE_ACCESS_TO = DOCUMENTS;
	const runtime = await ensureN8n();
	nodesBase = {
		directory: path.join(runtime.hostDir, 'node_modules', 'n8n-nodes-base'),
		nodes: [
			'dist/nodes/Files/ReadWriteFile/ReadWriteFile.node.js',
			'dist/nodes/Files/ConvertToFile/ConvertToFile.node.js',
			'dist/nodes/HttpRequest/HttpRequest.node.js',
			'dist/nodes/Merge/Merge.node.js',
			'dist/nodes/Wait/Wait.node.js',
			'dist/nodes/If/If.node.js',
			'dist/nodes/Set/Set.node.js',
			'dist/nodes/Transform/SplitOut/SplitOut.node.js',
		],
		credentials: ['dist/credentials/HttpHeaderAuth.credentials.js'],
	};
	emulator = await startEmulator({ processingDelayMs: 300 });
});

afterAll(async () => {
	await emulator?.close();
});

/** An example as a user imports it, pointed at `on`; its Read node reads examples/documents (npm start copies them to documents/). */
function example(fileName: string, on: Emulator = emulator): WorkflowJson {
	const workflow = readExample(fileName, on.apiUrl) as unknown as WorkflowJson;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.readWriteFile') {
			node.parameters = { ...node.parameters, fileSelector: path.join(DOCUMENTS, String(node.parameters?.fileSelector).replace(/^documents\//, '')) };
		}
	}
	return workflow;
}

/** Runs the workflow; it must end on its own, successfully, within `maxNodeRuns` node runs. */
async function runToEnd(workflow: WorkflowJson, on: Emulator = emulator, maxNodeRuns = MAX_NODE_RUNS, observer?: ExecutionObserver): Promise<RunWorkflowResult> {
	const result = await runWorkflow(workflow, {
		observer,
		extraPackageDirs: [nodesBase],
		credentials: {
			documentExtractionApi: { apiKey: on.keys.readWrite, instance: 'default', baseUrl: on.apiUrl },
			httpHeaderAuth: { name: 'x-api-key', value: on.keys.readWrite },
		},
		binaryDataMode: 'filesystem',
		maxNodeRuns,
	});
	if (!observer) expect({ boundReached: result.boundReached, error: result.error?.message, status: result.status }).toEqual({ boundReached: false, error: undefined, status: 'success' });
	return result;
}

const json = (result: RunWorkflowResult, node: string, output = 0) => result.outputOf(node, output).map((item) => item.json);
const sorted = <T>(values: T[]) => [...values].sort();

const RUN_HERE = [
	'upload-and-extract.json',
	'upload-and-wait-for-callback.json',
	'extract-documents-from-disk.json',
	'baseline-http-request.json',
	'query-invoice-totals.json',
	'report-export-status.json',
	'trigger-on-processed-files.json',
	'callback-trigger-on-processed-files.json',
	'review-values.json',
];

test('every example is run to its end here, or (the agent) in test/e2e/ai.test.ts', () => {
	const examples = fs.readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json'));
	expect(sorted(examples)).toEqual(sorted([...RUN_HERE, AGENT_EXAMPLE]));
	expect(fs.readFileSync(path.join(__dirname, 'ai.test.ts'), 'utf8')).toContain('readExample(AGENT_EXAMPLE)');
});

describe('each example ends on the emulator, failing documents included', () => {
	test('upload-and-extract.json: the sample invoice it carries is uploaded as a PDF, processed, and its values come out', async () => {
		const result = await runToEnd(example('upload-and-extract.json'));
		expect(json(result, 'Upload and extract')).toEqual([expect.objectContaining({ fileName: INVOICE_PDF_FILE_NAME, status: 'processed', values: INVOICE_EXPECTED })]);
	});

	test('review-values.json: the execution waits for the review; an approval with a correction takes the approved path and reports the file booked', async () => {
		const waiting = await startWaitingWebhooks();
		try {
			const parked = await runToEnd(example('review-values.json'), emulator, MAX_NODE_RUNS, waiting);
			expect(parked.status).toBe('waiting');
			const [linked] = json(parked, 'Message to the reviewer');
			expect(String(linked.message)).toContain(String(linked.reviewUrl));
			const review = { files: [{ fileId: linked.fileId, decision: 'approve', note: 'checked', changes: [{ field: 'Tax', kind: 'number', value: '85' }] }] };
			const sent = await fetch(String(linked.reviewUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payload: JSON.stringify(review) }).toString() });
			expect(sent.status).toBe(200);
			const result = await waiting.whenEnded(parked.executionId);
			expect(json(result, 'Review the values')).toEqual([expect.objectContaining({ decision: 'approved', changes: [{ field: 'Tax', before: expect.anything(), after: 85 }] })]);
			expect(json(result, 'Report it booked')).toEqual([expect.objectContaining({ fileId: linked.fileId, integrationExportStatus: 'completed' })]);
			expect(json(result, 'Rejected or not reviewed')).toEqual([]);
		} finally {
			await waiting.close();
		}
	});

	test('upload-and-wait-for-callback.json: the execution waits, the emulator calls back, and both documents come out processed with their values; nothing to pick up', async () => {
		// n8n's waiting-webhook server, in process: the emulator calls the execution's resume URL there.
		const waiting = await startWaitingWebhooks();
		try {
			const parked = await runToEnd(example('upload-and-wait-for-callback.json'), emulator, MAX_NODE_RUNS, waiting);
			expect(parked.status).toBe('waiting');
			const result = await waiting.whenEnded(parked.executionId);
			expect({ error: result.error?.message, status: result.status }).toEqual({ error: undefined, status: 'success' });
			expect(json(result, 'Upload and wait for the service')).toEqual([
				expect.objectContaining({ fileName: 'invoice-INV-2024-0042.txt', status: 'processed', values: INVOICE_EXPECTED }),
				expect.objectContaining({ fileName: RECEIPT_FILE_NAME, status: 'processed', values: RECEIPT_EXPECTED }),
			]);
			expect(json(result, 'Not finished in time?', 0)).toEqual([]);
		} finally {
			await waiting.close();
		}
	});

	test('extract-documents-from-disk.json: every document of the folder comes out processed with its values, or failed with its reason', async () => {
		const result = await runToEnd(example('extract-documents-from-disk.json'));
		const items = json(result, 'Upload, wait and read values');
		expect(sorted(items.filter((item) => item.status === 'processed').map((item) => item.fileName))).toEqual(sorted(PROCESSED));
		expect(items.filter((item) => item.status === 'failed').map((item) => [item.fileName, item.errorReason])).toEqual(FAILED);
		expect(items.find((item) => item.fileName === RECEIPT_FILE_NAME)).toMatchObject({ values: RECEIPT_EXPECTED });
		expect(items).toHaveLength(PROCESSED.length + FAILED.length);
	});

	test('baseline-http-request.json: its wait loop ends once every document is processed or failed, the ZIP\'s failed members included', async () => {
		const result = await runToEnd(example('baseline-http-request.json'));
		const processed = json(result, 'Processed?', 0);
		expect(sorted(processed.map((item) => item.fileName))).toEqual(sorted(PROCESSED));
		expect(json(result, 'Processed?', 1).map((item) => [item.fileName, item.status, item.errorReason])).toEqual(FAILED.map(([name, reason]) => [name, 'failed', reason]));
		// One values answer per processed document.
		const values = json(result, 'Get values');
		expect(values).toHaveLength(PROCESSED.length);
		expect(values.every((answer) => Array.isArray((answer.values as { formValues?: unknown[] } | undefined)?.formValues))).toBe(true);
	});

	test('baseline-http-request.json: when documents never finish, it stops after its 120 checks and outputs them as not processed', async () => {
		// Processing that takes an hour; the example's Wait set to 0 s so that 120 checks take no time.
		const slow = await startEmulator({ processingDelayMs: 60 * 60 * 1000 });
		try {
			const workflow = example('baseline-http-request.json', slow);
			const wait = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.wait')!;
			wait.parameters = { ...wait.parameters, amount: 0 };
			const result = await runToEnd(workflow, slow, 1000);
			expect(result.runData['Finished, or checked 120 times?']).toHaveLength(120);
			expect(json(result, 'Processed?', 0)).toEqual([]);
			const waiting = json(result, 'Processed?', 1);
			expect(sorted(waiting.map((item) => item.fileName))).toEqual(sorted([INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, 'scanned-batch.zip']));
			expect(waiting.every((item) => item.status !== 'processed' && item.status !== 'failed')).toBe(true);
			expect(result.runData['Get values']).toBeUndefined();
		} finally {
			await slow.close();
		}
	});

	test('query-invoice-totals.json: one row per invoice, with its number, vendor and total', async () => {
		const result = await runToEnd(example('query-invoice-totals.json'));
		const rows = json(result, 'Invoices with their totals');
		expect(rows.length).toBeGreaterThan(0);
		expect(rows[0]).toMatchObject({ invoiceNumber: 'INV-2024-0042', vendor: INVOICE_EXPECTED['Vendor Name'], total: INVOICE_EXPECTED['Total Amount'], paid: false });
	});

	test('report-export-status.json: every processed file is reported completed, the failed ones are left out', async () => {
		const result = await runToEnd(example('report-export-status.json'));
		const files = json(result, 'Get the files');
		const processed = files.filter((file) => file.status === 'processed');
		expect(files.length).toBeGreaterThan(processed.length);
		const reported = json(result, 'Report export completed');
		expect(sorted(reported.map((item) => item.fileId))).toEqual(sorted(processed.map((file) => file.fileId)));
		expect(reported.every((item) => item.integrationExportStatus === 'completed')).toBe(true);
	});

	test('trigger-on-processed-files.json: a manual run takes the newest processed document (by upload) and reports it', async () => {
		const result = await runToEnd(example('trigger-on-processed-files.json'));
		const reported = json(result, 'Report export completed');
		expect(reported).toHaveLength(1);
		expect(reported[0]).toMatchObject({ integrationExportStatus: 'completed', integrationExportMessages: [expect.stringContaining('Received by the n8n workflow')] });
	});

	test('trigger-on-processed-files.json on an empty workspace (the emulator after a restart): ends without an error, and reports nothing', async () => {
		const empty = await startEmulator({ processingDelayMs: 0 });
		try {
			const result = await runToEnd(example('trigger-on-processed-files.json', empty), empty);
			// The trigger looked (GET /files) and found nothing to fire for: the report never ran.
			expect(empty.requests.some((entry) => entry.method === 'GET' && entry.path === '/prod/v1/files')).toBe(true);
			expect(result.runData['Report export completed']).toBeUndefined();
			expect(empty.requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
		} finally {
			await empty.close();
		}
	});

	test('callback-trigger-on-processed-files.json: published, the emulator calls it back after an upload; the document is reported once', async () => {
		const workflow = example('callback-trigger-on-processed-files.json');
		const triggerNode = workflow.nodes.find((node) => node.type === CALLBACK_TRIGGER_TYPE)!;
		const trigger = await activateWebhookTrigger({
			type: 'documentExtractionCallbackTrigger',
			parameters: triggerNode.parameters,
			webhookId: String(triggerNode.webhookId),
			nodeName: triggerNode.name,
			credentials: { documentExtractionApi: { apiKey: emulator.keys.readWrite, instance: 'default', baseUrl: emulator.apiUrl } },
		});
		try {
			emulator.setDefaultCallbackUrl(emulator.keys.readWrite, trigger.localUrl);
			const uploadId = await uploadToEmulator(emulator, emulator.keys.readWrite, RECEIPT_FILE_NAME, fs.readFileSync(path.join(DOCUMENTS, RECEIPT_FILE_NAME)));
			await emulator.idle();
			for (let waited = 0; trigger.emissions().length === 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
			await trigger.settled();
			expect(trigger.emissions()).toHaveLength(1);
			const emitted = trigger.items();
			expect(emitted.map((item) => item.json)).toEqual([expect.objectContaining({ uploadId, status: 'processed', values: RECEIPT_EXPECTED })]);
			// The rest of the workflow, from what the trigger emitted (the trigger stands in as a pass-through start).
			const rest = { ...workflow, nodes: workflow.nodes.map((node) => (node === triggerNode ? { ...node, type: 'n8n-nodes-base.noOp', parameters: {} } : node)) };
			const result = await runWorkflow(rest, {
				credentials: { documentExtractionApi: { apiKey: emulator.keys.readWrite, instance: 'default', baseUrl: emulator.apiUrl } },
				startNode: triggerNode.name,
				inputItems: emitted,
				maxNodeRuns: MAX_NODE_RUNS,
			});
			expect(result.status).toBe('success');
			expect(json(result, 'Report export completed')).toEqual([expect.objectContaining({ fileId: emitted[0].json.fileId, integrationExportStatus: 'completed' })]);
		} finally {
			emulator.setDefaultCallbackUrl(emulator.keys.readWrite, undefined);
			await trigger.close();
		}
	});

	test(`${AGENT_EXAMPLE}: the AI Agent is bounded (Max Iterations), so a model that keeps calling tools ends too`, () => {
		const agent = readExample(AGENT_EXAMPLE).nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.agent')!;
		const maxIterations = (agent.parameters.options as { maxIterations?: number }).maxIterations;
		expect(maxIterations).toBeGreaterThan(0);
		expect(maxIterations).toBeLessThanOrEqual(10);
	});
});
