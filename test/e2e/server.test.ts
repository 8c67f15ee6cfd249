/**
 * The package under `n8n start` (the real server, community package, emulator on 127.0.0.1):
 * - the credential test of n8n's REST API (the editor's "Test" button) for good and bad keys;
 * - the trigger in a published workflow: each document uploaded to the emulator starts one
 *   execution (File Processed), read back through n8n's public API, exactly once;
 * - a 300 MB document read from disk into binary data in filesystem mode and uploaded in parts,
 *   with the n8n process's peak memory recorded.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS, keyLeaks, waitForRequest } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_LINES } from '../../dev/documents';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	emulatorCredential,
	executionMs,
	executionOutput,
	findNode,
	listExecutions,
	readExample,
	runWorkflow,
	startStack,
	waitForExecution,
	type ExecutionRecord,
	type Stack,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { e2eRuntime, megabytes, uploadToEmulator, waitFor } from './helpers';
import { describeFieldMapperInRealN8n } from './resource-mapper-cases';

const LARGE_FILE_BYTES = 300 * 1024 * 1024;
const PART_SIZE_BYTES = 10 * 1024 * 1024;

const WORKSPACE_B_CREDENTIAL = { id: 'dexWorkspaceBCred', name: 'Emulator, workspace B' };
const BAD_KEY_CREDENTIAL = { id: 'dexBadKeyCred001', name: 'Emulator, unknown key' };
const INACTIVE_KEY_CREDENTIAL = { id: 'dexInactiveCred01', name: 'Emulator, inactive key' };
const UNKNOWN_KEY = 'dex_test_wsA_unknown_0000000000000000';

const TRIGGER = readExample('trigger-on-processed-files.json');
const TRIGGER_NODE = 'When a document is processed';
/** Report Export Status: PATCH <base>/files/{fileId}, nothing after the id. */
const REPORT_PATH = /\/files\/([^/]+)$/;
// n8n polls at most once a minute per entry of Poll Times: six entries poll every 10 seconds.
findNode(TRIGGER, TRIGGER_NODE).parameters.pollTimes = {
	item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
};

/**
 * Manual Trigger -> Document Extraction Workspace > Get Subscription: the hardening cases run it
 * with emulator faults on GET /subscription, which the published trigger never calls.
 */
const SUBSCRIPTION: WorkflowJson = {
	id: 'dexE2eSubscrip01',
	name: 'e2e: read the subscription (hardening cases)',
	nodes: [
		{ id: 'h1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'h2',
			name: 'Read the subscription',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { resource: 'workspace', operation: 'getSubscription', options: { requestTimeout: 600 } },
			credentials: { documentExtractionApi: { id: 'dexEmulatorCred01', name: 'Document Extraction (local emulator)' } },
		},
	],
	connections: { Start: { main: [[{ node: 'Read the subscription', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

function largeUploadWorkflow(filePath: string): WorkflowJson {
	return {
		id: 'dexE2eLargeUpld1',
		name: 'e2e: upload a 300 MB document from disk',
		nodes: [
			{ id: 'l1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'l2',
				name: 'Read the large file',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { operation: 'read', fileSelector: filePath, options: {} },
			},
			{
				id: 'l3',
				name: 'Upload in parts',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				// Multipart Upload "Auto" with the default 100 MB threshold and 10 MB parts.
				parameters: { resource: 'file', operation: 'upload', binaryPropertyName: 'data', waitForCompletion: true, includeExtractedValues: true, simplify: true, options: { pollInterval: 1, waitTimeout: 600 } },
				credentials: { documentExtractionApi: WORKSPACE_B_CREDENTIAL },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Read the large file', type: 'main', index: 0 }]] },
			'Read the large file': { main: [[{ node: 'Upload in parts', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The invoice first (so extraction finds its values in the first 16 MiB), then filler lines up to `bytes`. */
function writeLargeInvoice(filePath: string, bytes: number): void {
	const fd = fs.openSync(filePath, 'w');
	try {
		const head = Buffer.from(INVOICE_LINES.join('\n') + '\n\n', 'utf8');
		fs.writeSync(fd, head);
		let written = head.length;
		let line = 0;
		const chunk: string[] = [];
		while (written < bytes) {
			chunk.length = 0;
			let chunkBytes = 0;
			while (chunkBytes < 1024 * 1024) {
				const text = `filler line ${String(line++).padStart(9, '0')} of the large e2e document, no values here\n`;
				chunk.push(text);
				chunkBytes += text.length;
			}
			const buffer = Buffer.from(chunk.join(''), 'utf8').subarray(0, Math.min(chunkBytes, bytes - written));
			fs.writeSync(fd, buffer);
			written += buffer.length;
		}
	} finally {
		fs.closeSync(fd);
	}
}

/** Linux: writing 5 to clear_refs resets VmHWM to the current resident size. */
function resetPeakRss(pid: number): boolean {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

function residentBytes(pid: number): number {
	const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) * 1024 : 0;
}

function filesUnder(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function triggeredFileIds(executions: ExecutionRecord[]): string[] {
	return executions.flatMap((execution) => executionOutput(execution, TRIGGER_NODE).map((item) => String(item.fileId)));
}

/** The trigger node's static data as n8n stored it (public API), or undefined before it is stored. */
async function storedTriggerState(n8n: Stack['n8n']): Promise<Record<string, unknown> | undefined> {
	const { staticData } = await n8n.publicApi<{ staticData?: string | Record<string, unknown> | null }>(`/workflows/${TRIGGER.id}`);
	const all = (typeof staticData === 'string' ? JSON.parse(staticData) : staticData) as Record<string, Record<string, unknown> | undefined> | null | undefined;
	return all?.[`node:${TRIGGER_NODE}`];
}

/** The file ids an execution's trigger emitted, without throwing for one that has no run data yet. */
function fileIdsOf(execution: ExecutionRecord): string {
	const runs = execution.data?.resultData.runData[TRIGGER_NODE];
	if (!runs?.length) return '(no trigger output yet)';
	return (runs[0].data?.main?.[0] ?? []).map((item) => String(item.json.fileId)).join(', ');
}

/**
 * What the trigger test saw, for its failure message: the workflow's executions (file ids,
 * status, times), the documents uploaded (created, processed), the emulator's API requests since
 * `sinceMs` (paths and queries, never headers), and the last lines of n8n's log about polls.
 */
async function triggerTimeline(stack: Stack, sinceMs: number, uploadIds: string[]): Promise<string> {
	const lines: string[] = [];
	let executions: ExecutionRecord[] = [];
	try {
		executions = await listExecutions(stack.n8n, TRIGGER.id!);
	} catch (error) {
		lines.push(`executions could not be listed: ${(error as Error).message}`);
	}
	lines.push(`executions of the trigger workflow (${executions.length}):`);
	for (const execution of [...executions].sort((a, b) => Number(a.id) - Number(b.id))) {
		const error = execution.data?.resultData.error?.message;
		lines.push(`  #${execution.id} ${execution.status} mode=${execution.mode} started ${execution.startedAt} stopped ${execution.stoppedAt ?? '-'} files [${fileIdsOf(execution)}]${error ? ` error: ${error}` : ''}`);
	}
	lines.push(`the trigger's stored state: ${JSON.stringify(await storedTriggerState(stack.n8n).catch((error: Error) => error.message))}`);
	lines.push('documents uploaded by the test:');
	for (const file of stack.emulator.state.files.values()) {
		if (!uploadIds.includes(file.uploadId)) continue;
		lines.push(`  ${file.fileId} ${file.fileName} ${file.status} created ${new Date(file.createdAtMs).toISOString()} updated ${new Date(file.updatedAtMs).toISOString()} export ${file.exportInfo?.integrationExportStatus ?? '-'}`);
	}
	lines.push(`emulator API requests since ${new Date(sinceMs).toISOString()} (uploads, lists, values, reports):`);
	for (const entry of stack.emulator.requests) {
		if (entry.host !== 'api' || Date.parse(entry.time) < sinceMs) continue;
		const query = entry.rawQuery ? `?${decodeURIComponent(entry.rawQuery)}` : '';
		lines.push(`  ${entry.time} #${entry.sequence} ${entry.method} ${entry.path}${query} -> ${entry.status}${entry.fault ? ` (${entry.fault})` : ''}${entry.durationMs === undefined ? '' : ` ${entry.durationMs} ms`}`);
	}
	try {
		const log = fs.readFileSync(stack.n8n.logFile, 'utf8').split('\n');
		const relevant = log.filter((line) => /Document Extraction|poll|[Ee]rror|[Ww]arn/.test(line)).slice(-40);
		lines.push(`n8n log (${stack.n8n.logFile}), the last lines about polls, warnings and errors:`, ...(relevant.length ? relevant.map((line) => `  ${line}`) : ['  (none)']));
	} catch (error) {
		lines.push(`n8n log unreadable: ${(error as Error).message}`);
	}
	return lines.join('\n');
}

/** Runs `body`; when it fails, the error carries `explain()`'s account of what the test saw. */
async function explainingFailure(explain: () => Promise<string>, body: () => Promise<void>): Promise<void> {
	try {
		await body();
	} catch (error) {
		const account = await explain().catch((explainError: Error) => `(no account: ${explainError.message})`);
		if (error instanceof Error) {
			error.message = `${error.message}\n\n--- what the test saw ---\n${account}`;
			throw error;
		}
		throw new Error(`${String(error)}\n\n--- what the test saw ---\n${account}`);
	}
}

describe('the package under n8n start', () => {
	let stack: Stack;
	const isN8n1 = () => stack.n8n.n8nVersion.startsWith('1.');
	let largeDir: string;
	let largeFile: string;

	beforeAll(async () => {
		largeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-e2e-large-'));
		largeFile = path.join(largeDir, 'large-invoice.txt');
		writeLargeInvoice(largeFile, LARGE_FILE_BYTES);
		stack = await startStack({
			build: false,
			runtime: await e2eRuntime(),
			extraReadableDirs: [largeDir],
			workflows: [TRIGGER, largeUploadWorkflow(largeFile), SUBSCRIPTION],
			publish: [TRIGGER.id!],
			emulator: { processingDelayMs: 300 },
			credentials: (apiUrl) => [
				emulatorCredential(apiUrl, SEEDED_KEYS.workspaceB, WORKSPACE_B_CREDENTIAL.id, WORKSPACE_B_CREDENTIAL.name),
				emulatorCredential(apiUrl, UNKNOWN_KEY, BAD_KEY_CREDENTIAL.id, BAD_KEY_CREDENTIAL.name),
				emulatorCredential(apiUrl, SEEDED_KEYS.inactive, INACTIVE_KEY_CREDENTIAL.id, INACTIVE_KEY_CREDENTIAL.name),
			],
		});
	});

	describeFieldMapperInRealN8n(() => ({ n8n: stack.n8n, runtime: stack.runtime, emulator: stack.emulator, credential: WORKSPACE_B_CREDENTIAL }));

	afterAll(async () => {
		await stack?.stop();
		if (largeDir) fs.rmSync(largeDir, { recursive: true, force: true });
		if (stack && !process.env.E2E_KEEP) fs.rmSync(stack.userFolder, { recursive: true, force: true });
	});

	describe('credential test (POST /rest/credentials/test, as the editor\'s Test button)', () => {
		async function testCredential(id: string, name: string, apiKey: string): Promise<{ status: string; message: string }> {
			return await stack.n8n.rest<{ status: string; message: string }>('/credentials/test', {
				body: { credentials: { id, name, type: CREDENTIAL_TYPE, data: { apiKey, instance: 'default', baseUrl: stack.emulator.apiUrl } } },
			});
		}

		test('a good key: success', async () => {
			const result = await testCredential('dexEmulatorCred01', 'Document Extraction (local emulator)', SEEDED_KEYS.readWrite);
			expect(result.status).toBe('OK');
		});

		test('an unknown key: a failure that says the key was rejected', async () => {
			const result = await testCredential(BAD_KEY_CREDENTIAL.id, BAD_KEY_CREDENTIAL.name, UNKNOWN_KEY);
			expect(result.status).toBe('Error');
			// The node's own credential test words it, on n8n 1.x as on 2.x.
			expect(result.message).toMatch(/^The API key was rejected \(HTTP 401\)/);
		});

		test('an inactive key: a failure that says the key is inactive', async () => {
			const result = await testCredential(INACTIVE_KEY_CREDENTIAL.id, INACTIVE_KEY_CREDENTIAL.name, SEEDED_KEYS.inactive);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^The API key is inactive \(HTTP 403\)/);
		});
	});

	describe('hardening in the real n8n', () => {
		const subscriptionRequests = () => stack.emulator.requests.filter((entry) => entry.host === 'api' && entry.path.endsWith('/subscription'));

		test.each([
			['http:evil.example', /not a loopback host/],
			['https://user:secret@api.example.com', /user name or password/],
			['https://api.example.com\n.evil.example', /control or invisible/],
		])('the credential test refuses the Base URL %j before sending anything, and says why', async (baseUrl, reason) => {
			const result = await stack.n8n.rest<{ status: string; message: string }>('/credentials/test', {
				body: { credentials: { id: 'dexEmulatorCred01', name: 'Document Extraction (local emulator)', type: CREDENTIAL_TYPE, data: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl } } },
			});
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(reason);
			expect(result.message).not.toContain(SEEDED_KEYS.readWrite);
		});

		test('an API redirect to another host is not followed: the execution fails naming it, the other host gets nothing', async () => {
			const { emulator, n8n } = stack;
			emulator.faults.redirectNext({ method: 'GET', path: '/subscription', status: 302 });
			const execution = await waitForExecution(n8n, await runWorkflow(n8n, SUBSCRIPTION.id!, 'Start'));
			expect(execution.status).toBe('error');
			expect(execution.data?.resultData.error?.message).toMatch(/answered HTTP 302 with a redirect to the host http:\/\/127\.0\.0\.1:\d+\. The node does not follow redirects/);
			expect(emulator.requests.filter((entry) => entry.host === 'trap')).toEqual([]);
			expect(keyLeaks(emulator, SEEDED_KEYS.readWrite)).toEqual([]);
			expect(JSON.stringify(execution)).not.toContain(SEEDED_KEYS.readWrite);
		});

		test('429 with retryAfter 0, three times: waited out (at least 1 s, 2 s, 4 s), then success', async () => {
			const { emulator, n8n } = stack;
			const before = subscriptionRequests().length;
			emulator.faults.failNext({ method: 'GET', path: '/subscription', status: 429, retryAfter: 0, count: 3 });
			const execution = await waitForExecution(n8n, await runWorkflow(n8n, SUBSCRIPTION.id!, 'Start'));
			expect(execution.status).toBe('success');
			const requests = subscriptionRequests().slice(before);
			expect(requests.map((entry) => entry.status)).toEqual([429, 429, 429, 200]);
		});

		test('stopping the execution (POST /rest/executions/:id/stop) while a request hangs ends it, and nothing more is sent', async () => {
			const { emulator, n8n } = stack;
			emulator.faults.hangNext({ method: 'GET', path: '/subscription' });
			const arrived = waitForRequest(emulator, (entry) => entry.path.endsWith('/subscription') && entry.fault === 'hang', { timeoutMs: 60_000 });
			const executionId = await runWorkflow(n8n, SUBSCRIPTION.id!, 'Start');
			const hanging = await arrived;
			await n8n.rest(`/executions/${executionId}/stop`, { method: 'POST', body: {} });
			const execution = await waitForExecution(n8n, executionId, 30_000);
			expect(execution.status).toBe('canceled');
			expect(subscriptionRequests().filter((entry) => entry.sequence > hanging.sequence)).toEqual([]);
		});
	});

	describe('trigger in a published workflow', () => {
		test('each uploaded document starts one execution (File Processed), and no document comes twice', async () => {
			const { emulator, n8n } = stack;
			// The log is trimmed from its start: the next sequence number is the last one's plus one.
			const firstSequence = (emulator.requests.at(-1)?.sequence ?? 0) + 1;
			// A failure's account starts 30 s (three polls) before the test: the polls that led to it.
			const sinceMs = Date.now() - 30_000;
			const uploadIds: string[] = [];
			const upload = async (index: number) => {
				const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `receipt-e2e-${index}.txt`, Buffer.from(`Document Type: Receipt\nReceipt Number: R-E2E-${index}\nTotal: ${index}0.00\n`));
				uploadIds.push(uploadId);
				return uploadId;
			};
			await explainingFailure(() => triggerTimeline(stack, sinceMs, uploadIds), async () => {
				const workflow = await n8n.publicApi<{ active: boolean }>(`/workflows/${TRIGGER.id}`);
				expect(workflow.active).toBe(true);
				// The trigger's start is stored: n8n saves the static data once the activation (and its
				// poll) has ended. From here on every upload is new to the trigger. (The first GET /files
				// only says that the activation poll has begun.)
				await waitFor('the trigger\'s stored start (its cursor in the static data)', async () => ((await storedTriggerState(n8n))?.cursor === undefined ? undefined : true), 60_000);

				const uploaded: string[] = [];
				const executionsWith = async (fileId: string) => {
					const executions = await listExecutions(n8n, TRIGGER.id!);
					const matching = executions.filter((execution) => execution.stoppedAt && triggeredFileIds([execution]).includes(fileId));
					return matching.length ? matching : undefined;
				};
				const fileIdOf = (uploadId: string) => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId;

				// One at a time: each document its own execution.
				for (let index = 1; index <= 3; index++) {
					const uploadId = await upload(index);
					const fileId = await waitFor(`document ${index} processed`, () => fileIdOf(uploadId), 30_000);
					const executions = await waitFor(`an execution for document ${index}`, () => executionsWith(fileId), 60_000, 1000);
					expect(executions).toHaveLength(1);
					expect(executionOutput(executions[0], TRIGGER_NODE).map((item) => item.fileId)).toEqual([fileId]);
					uploaded.push(fileId);
				}
				// Two at once: both come, in one execution or two.
				const pair = await Promise.all([4, 5].map(upload));
				for (const uploadId of pair) {
					const fileId = await waitFor('the pair processed', () => fileIdOf(uploadId), 30_000);
					await waitFor('an execution for the pair', () => executionsWith(fileId), 60_000, 1000);
					uploaded.push(fileId);
				}

				// Two more polls with nothing new: still one emission per document.
				const pollsBefore = emulator.requests.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/files')).length;
				await waitFor('two more polls', () => (emulator.requests.filter((entry) => entry.method === 'GET' && entry.path.endsWith('/files')).length >= pollsBefore + 2 ? true : undefined), 60_000, 1000);
				const executions = await listExecutions(n8n, TRIGGER.id!);
				const emitted = triggeredFileIds(executions);
				expect([...emitted].sort()).toEqual([...uploaded].sort());
				expect(executions.length).toBeGreaterThanOrEqual(4);
				expect(executions.length).toBeLessThanOrEqual(5);
				for (const execution of executions) {
					expect(execution.status).toBe('success');
					expect(execution.mode).toBe('trigger');
					// The trigger added the extracted values (Include Extracted Values in the example).
					for (const item of executionOutput(execution, TRIGGER_NODE)) expect(item.values).toMatchObject({ 'Receipt Number': expect.stringMatching(/^R-E2E-\d$/) });
				}
				// The workflow's second node reported each document "completed", once.
				for (const fileId of uploaded) {
					expect(emulator.state.files.get(fileId)?.exportInfo).toMatchObject({ integrationExportStatus: 'completed' });
				}
				// Reports are PATCH /files/{fileId} (Report Export Status) since the test began; the
				// field mapper cases' PATCH /files/{fileId}/values (workspace B) are not reports.
				const reportedFileIds = emulator.requests
					.filter((entry) => entry.host === 'api' && entry.method === 'PATCH' && entry.sequence >= firstSequence)
					.map((entry) => REPORT_PATH.exec(entry.path)?.[1])
					.filter((fileId) => fileId !== undefined);
				expect(reportedFileIds.sort()).toEqual([...uploaded].sort());
			});
		});
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.n8n.outboundAttempts()).toEqual([]);
	});

	describe('binary data in filesystem mode', () => {
		test('a 300 MB document read from disk is uploaded in 10 MB parts and its values come back; peak memory is recorded', async () => {
			const { emulator, n8n } = stack;
			expect(fs.statSync(largeFile).size).toBe(LARGE_FILE_BYTES);
			const peakAtStart = n8n.peakRssBytes();
			// Reset the process's peak resident size (VmHWM) so that the peak read afterwards is the run's own.
			const peakReset = resetPeakRss(n8n.pid);
			const residentBefore = residentBytes(n8n.pid);
			const firstRequest = emulator.requests.length ? emulator.requests[emulator.requests.length - 1].sequence : 0;

			const executionId = await runWorkflow(n8n, 'dexE2eLargeUpld1', 'Start');
			const execution = await waitForExecution(n8n, executionId, 600_000);
			const peakDuringRun = n8n.peakRssBytes();
			expect(execution.data?.resultData.error).toBeUndefined();
			expect(execution.status).toBe('success');

			const [item, ...rest] = executionOutput(execution, 'Upload in parts');
			expect(rest).toHaveLength(0);
			expect(item).toMatchObject({ fileName: 'large-invoice.txt', fileSize: LARGE_FILE_BYTES, status: 'processed', values: INVOICE_EXPECTED });

			const requests = emulator.requests.filter((entry) => entry.sequence > firstRequest);
			const apiCalls = requests.filter((entry) => entry.host === 'api').map((entry) => `${entry.method} ${entry.path.replace(/^\/prod\/v1/, '')}`);
			expect(apiCalls.filter((call) => call.startsWith('POST /files/upload'))).toEqual(['POST /files/upload/multipart', 'POST /files/upload/multipart/complete']);
			const parts = requests.filter((entry) => entry.host === 'storage' && entry.method === 'PUT');
			expect(parts).toHaveLength(LARGE_FILE_BYTES / PART_SIZE_BYTES);
			expect(parts.every((entry) => entry.status === 200)).toBe(true);
			expect(parts.reduce((sum, entry) => sum + entry.bodyBytes, 0)).toBe(LARGE_FILE_BYTES);

			// n8n kept the file's binary data on disk (filesystem mode): one stored file of its full size.
			const stored = filesUnder(path.join(stack.userFolder, '.n8n', isN8n1() ? 'binaryData' : 'storage')).filter((file) => fs.statSync(file).size === LARGE_FILE_BYTES);
			expect(stored).toHaveLength(1);

			console.log(
				`300 MB upload through n8n: ${(executionMs(execution) / 1000).toFixed(1)} s, ${parts.length} parts of ${megabytes(PART_SIZE_BYTES)}; ` +
					`n8n peak RSS since start ${megabytes(peakAtStart)}` +
					`, RSS before the run ${megabytes(residentBefore)}` +
					(peakReset ? `, peak RSS during the run ${megabytes(peakDuringRun)}` : `, peak RSS after the run ${megabytes(peakDuringRun)} (the peak could not be reset)`),
			);
		});
	});
});
