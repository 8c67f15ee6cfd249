/**
 * The whole local setup in one call: the real n8n with this package installed as a community
 * package, the emulator, a credential pointed at it and the example workflows. `npm start`,
 * the end-to-end suite (test/e2e), the baseline benchmark and the screenshot script use it.
 *
 * Layout of an n8n user folder prepared here (the folder 0700; n8n runs with umask 077):
 *   <userFolder>/.n8n/                      n8n's own data (database, binary data, nodes/)
 *   <userFolder>/.n8n/nodes/node_modules/n8n-nodes-document-extraction   the package (npm pack)
 *   <userFolder>/documents/                 a copy of examples/documents/; n8n runs with its
 *                                           working directory at <userFolder>, so the examples'
 *                                           Read/Write Files nodes read "documents/*", and
 *                                           N8N_RESTRICT_FILE_ACCESS_TO allows this folder only
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SEEDED_KEYS, startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import { writeExampleDocuments } from '../example-documents';
import { n8nCli, withScratchFile, type N8nCli } from './n8n-cli';
import { makeUserFolder } from './n8n-env';
import { startN8n, type N8nInstance, type StartOptions } from './n8n-launcher';
import { installPackageInto, type InstalledPackage } from './n8n-package';
import { ensureN8n, type N8nRuntime } from './n8n-runtime';
import { privateDir } from './sandbox-state';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');
export const EXAMPLES_DIR = path.join(REPOSITORY_ROOT, 'examples');
export const PACKAGE_NAME = 'n8n-nodes-document-extraction';
export const NODE_TYPE = `${PACKAGE_NAME}.documentExtraction`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.documentExtractionTrigger`;
export const CREDENTIAL_TYPE = 'documentExtractionApi';

/** The credential id every example workflow names. */
export const EMULATOR_CREDENTIAL_ID = 'dexEmulatorCred01';
export const EMULATOR_CREDENTIAL_NAME = 'Document Extraction (local emulator)';
/** The header-auth credential of the baseline built from HTTP Request nodes (examples/baseline-http-request.json). */
export const BASELINE_CREDENTIAL_ID = 'dexEmulatorHdr01';
export const BASELINE_CREDENTIAL_NAME = 'Document Extraction API key as a header (local emulator)';

/** The emulator address written in examples/baseline-http-request.json; replaced by the real one on import. */
export const EXAMPLE_EMULATOR_URL = 'http://127.0.0.1:8787';

/**
 * Examples that `npm start` does not import into n8n, each with its reason in examples/README.md
 * (test/package/examples.test.ts checks both). None today: every example runs in the editor as is.
 */
export const NOT_FOR_THE_EDITOR: ReadonlySet<string> = new Set<string>([]);

export const DOCUMENTS_FOLDER = 'documents';

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; credentials?: Record<string, { id: string; name: string }>; [key: string]: unknown }>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/** The credential the examples use, pointed at an emulator (plain JSON data: n8n encrypts it on import). */
export function emulatorCredential(apiUrl: string, apiKey: string = SEEDED_KEYS.readWrite, id = EMULATOR_CREDENTIAL_ID, name = EMULATOR_CREDENTIAL_NAME): object {
	return { id, name, type: CREDENTIAL_TYPE, data: { apiKey, instance: 'default', baseUrl: apiUrl } };
}

/** n8n's generic header credential with the API key, as a user of plain HTTP Request nodes would make it. */
export function baselineCredential(apiKey: string = SEEDED_KEYS.readWrite): object {
	return { id: BASELINE_CREDENTIAL_ID, name: BASELINE_CREDENTIAL_NAME, type: 'httpHeaderAuth', data: { name: 'x-api-key', value: apiKey } };
}

/** examples/*.json that run in the editor, by file name. */
export function exampleWorkflowFiles(): string[] {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json') && !NOT_FOR_THE_EDITOR.has(name))
		.sort();
}

/** An example workflow, with the example emulator address replaced by `apiUrl`. */
export function readExample(fileName: string, apiUrl?: string): WorkflowJson {
	let text = fs.readFileSync(path.join(EXAMPLES_DIR, fileName), 'utf8');
	if (apiUrl) text = text.split(EXAMPLE_EMULATOR_URL).join(apiUrl);
	return JSON.parse(text) as WorkflowJson;
}

export const CALLBACK_TRIGGER_TYPE = `${PACKAGE_NAME}.documentExtractionCallbackTrigger`;
export const CALLBACK_EXAMPLE = 'callback-trigger-on-processed-files.json';

/**
 * The Production URL of the Callback Trigger example in an n8n at `n8nUrl` (its webhookId is in
 * the example): `npm start` makes it the emulator key's default callback URL, as a user sets the
 * dashboard's, so that every upload calls the example once it is published.
 */
export function exampleCallbackUrl(n8nUrl: string): string {
	const trigger = readExample(CALLBACK_EXAMPLE).nodes.find((node) => node.type === CALLBACK_TRIGGER_TYPE);
	if (typeof trigger?.webhookId !== 'string') throw new Error(`${CALLBACK_EXAMPLE} has no Callback Trigger with a webhookId`);
	return `${n8nUrl.replace(/\/$/, '')}/webhook/${trigger.webhookId}/callback`;
}

export function findNode(workflow: WorkflowJson, name: string): WorkflowJson['nodes'][number] {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`workflow "${workflow.name}" has no node "${name}" (it has ${workflow.nodes.map((n) => n.name).join(', ')})`);
	return node;
}

/** Environment for every n8n process of a stack: filesystem binary data, file access to documents/ only. */
export function stackEnv(userFolder: string, extraReadableDirs: string[] = []): Record<string, string> {
	return {
		// Under jest NODE_ENV is "test", and n8n then runs in its own test mode (silent logger, ...): run it as a user does.
		NODE_ENV: '',
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_RESTRICT_FILE_ACCESS_TO: [path.join(userFolder, DOCUMENTS_FOLDER), ...extraReadableDirs].join(';'),
		// Manual and production executions are kept with their data: the tests read them back.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
	};
}

export interface PrepareOptions {
	/** n8n user folder; default: a fresh temp dir. */
	userFolder?: string;
	/** Build the package before packing it (default true). */
	build?: boolean;
	/** Folders besides <userFolder>/documents that the Read/Write Files node may read. */
	extraReadableDirs?: string[];
	runtime?: N8nRuntime;
	log?: (line: string) => void;
	/** Further environment for every n8n process of this folder (e.g. a sandbox's own N8N_ENCRYPTION_KEY). */
	env?: Record<string, string>;
}

export interface PreparedFolder {
	runtime: N8nRuntime;
	userFolder: string;
	documentsDir: string;
	installed: InstalledPackage;
	env: Record<string, string>;
	cli: N8nCli;
}

/** ensureN8n, a user folder with the package installed and the sample documents copied; no n8n process runs afterwards. */
export async function prepareUserFolder(options: PrepareOptions = {}): Promise<PreparedFolder> {
	const log = options.log ?? (() => undefined);
	const runtime = options.runtime ?? (await ensureN8n({ log }));
	const userFolder = privateDir(options.userFolder ?? makeUserFolder('n8n-dex-'));
	privateDir(path.join(userFolder, '.n8n'));
	const installed = await installPackageInto(userFolder, { build: options.build ?? true, log });
	const documentsDir = path.join(userFolder, DOCUMENTS_FOLDER);
	await writeExampleDocuments(documentsDir);
	const env = { ...stackEnv(userFolder, options.extraReadableDirs), ...options.env };
	return { runtime, userFolder, documentsDir, installed, env, cli: n8nCli({ userFolder, env, runtime }) };
}

/** Imports the emulator credential (and the baseline's header credential) and the examples (or the given workflows) in two CLI runs. */
export async function importCredentialsAndWorkflows(
	cli: N8nCli,
	emulator: { apiUrl: string },
	workflows: WorkflowJson[] = exampleWorkflowFiles().map((file) => readExample(file, emulator.apiUrl)),
	extraCredentials: object[] = [],
): Promise<void> {
	await cli.importCredentials([emulatorCredential(emulator.apiUrl), baselineCredential(), ...extraCredentials]);
	if (workflows.length === 0) return;
	const result = await withScratchFile(cli.userFolder, 'workflows.json', JSON.stringify(workflows), (file) => cli.run(['import:workflow', `--input=${file}`]));
	// Judged by its output: n8n may die of SIGSEGV at exit after its work (dev/n8n/README.md).
	if (!result.stdout.includes('Successfully imported') && result.exitCode !== 0) {
		throw new Error(`n8n import:workflow exited with ${result.exitCode}:\n${(result.stdout + result.stderr).slice(-4000)}`);
	}
}

export interface Stack extends PreparedFolder {
	emulator: Emulator;
	n8n: N8nInstance;
	stop(): Promise<void>;
}

export interface StackOptions extends PrepareOptions {
	emulator?: EmulatorOptions;
	/** Workflows to import instead of the examples (or a function of the emulator's address that gives them). */
	workflows?: WorkflowJson[] | ((emulatorApiUrl: string) => WorkflowJson[]);
	/** Credentials to import besides the emulator credential and the baseline's header credential, given the emulator's address. */
	credentials?: (emulatorApiUrl: string) => object[];
	/** Ids of imported workflows to publish before n8n starts (active from its start). */
	publish?: string[];
	n8n?: Omit<StartOptions, 'userFolder' | 'runtime'>;
}

/** prepareUserFolder + an in-process emulator + imports + `n8n start`. stop() ends n8n, then the emulator. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
	const prepared = await prepareUserFolder(options);
	const emulator = await startEmulator({ processingDelayMs: 300, ...options.emulator });
	let n8n: N8nInstance | undefined;
	try {
		const workflows = typeof options.workflows === 'function' ? options.workflows(emulator.apiUrl) : options.workflows;
		await importCredentialsAndWorkflows(prepared.cli, emulator, workflows, options.credentials?.(emulator.apiUrl));
		for (const id of options.publish ?? []) await prepared.cli.publishWorkflow(id);
		n8n = await startN8n({
			...options.n8n,
			userFolder: prepared.userFolder,
			runtime: prepared.runtime,
			env: { ...prepared.env, ...options.n8n?.env },
		});
	} catch (error) {
		await emulator.close();
		throw error;
	}
	const running = n8n;
	return {
		...prepared,
		emulator,
		n8n: running,
		async stop() {
			await running.stop();
			await emulator.close();
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Executions through the running server

export interface ExecutionRecord {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> }; error?: { message?: string } }>>;
			error?: { message?: string; description?: string };
			lastNodeExecuted?: string;
		};
	};
}

/** Starts a saved workflow from its trigger in the server, as the editor's "Execute workflow" does; returns the execution id. */
export async function runWorkflow(n8n: N8nInstance, workflowId: string, triggerName: string): Promise<string> {
	// n8n 1.x also wants the whole workflow in the body.
	const workflowData = n8n.n8nVersion?.startsWith('1.') ? await n8n.rest<Record<string, unknown>>(`/workflows/${workflowId}`) : undefined;
	const started = await n8n.rest<{ executionId?: string; waitingForWebhook?: boolean }>(`/workflows/${workflowId}/run`, {
		body: { ...(workflowData ? { workflowData } : {}), triggerToStartFrom: { name: triggerName } },
	});
	if (!started.executionId) throw new Error(`n8n started no execution of ${workflowId}: ${JSON.stringify(started)}`);
	return started.executionId;
}

/** Waits until an execution has ended and returns it with its data (public API). */
export async function waitForExecution(n8n: N8nInstance, executionId: string, timeoutMs = 300_000): Promise<ExecutionRecord> {
	const deadline = Date.now() + timeoutMs;
	let endedSeenAt: number | undefined;
	for (;;) {
		const execution = await n8n.publicApi<ExecutionRecord>(`/executions/${executionId}?includeData=true`);
		if (execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status)) {
			// n8n 1.x stores an ended execution's status before its data: give the data 10 s to follow.
			const hasData = Object.keys(execution.data?.resultData.runData ?? {}).length > 0 || execution.data?.resultData.error !== undefined;
			endedSeenAt ??= Date.now();
			if (hasData || Date.now() - endedSeenAt > 10_000) return execution;
		}
		if (Date.now() > deadline) throw new Error(`execution ${executionId} still ${execution.status} after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Every execution of a workflow (newest first), with data, through the public API's pages. */
export async function listExecutions(n8n: N8nInstance, workflowId: string): Promise<ExecutionRecord[]> {
	const all: ExecutionRecord[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (cursor) query.set('cursor', cursor);
		const page = await n8n.publicApi<{ data: ExecutionRecord[]; nextCursor?: string | null }>(`/executions?${query}`);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

/** The output items (json) of a node's first run in an execution. */
export function executionOutput(execution: ExecutionRecord, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName];
	if (!runs?.length) {
		throw new Error(`node "${nodeName}" did not run in execution ${execution.id}; ran: ${Object.keys(execution.data?.resultData.runData ?? {}).join(', ')}`);
	}
	return (runs[0].data?.main?.[outputIndex] ?? []).map((item) => item.json);
}

/** Milliseconds from start to stop of an execution, as n8n recorded them. */
export function executionMs(execution: { startedAt: string; stoppedAt: string | null }): number {
	return execution.stoppedAt ? Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt) : Number.NaN;
}
