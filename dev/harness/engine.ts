/**
 * Runs workflows through n8n-core's WorkflowExecute, as the n8n application runs a manual or
 * production execution: a Workflow over the loaded node types, an execution stack that starts
 * at the start node with the given input items, lifecycle hooks, and our credentials helper.
 */
import './container';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPinData,
	IRun,
	IRunData,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, UnexpectedError, Workflow, createRunExecutionData, deepCopy } from 'n8n-workflow';

import { HARNESS_WORKFLOW_ID, createAdditionalData, nextExecutionId } from './additional-data';
import type { BinaryDataMode } from './container';
import { harnessLogger, useBinaryDataMode } from './container';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { LogLine } from './logger';
import type { HarnessNodeTypes, LoadedPackage } from './registry';
import { fullNodeTypeName } from './registry';
import type { HarnessSession, PackageOptions } from './session';
import { openSession } from './session';

/** A node as in workflow JSON; id, position and typeVersion may be left out. */
export type WorkflowNodeJson = Omit<INode, 'id' | 'position' | 'typeVersion' | 'parameters'> & {
	id?: string;
	position?: [number, number];
	typeVersion?: number;
	parameters?: INodeParameters;
};

/** Workflow JSON as exported from n8n (the parts the engine uses). */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: WorkflowNodeJson[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	/** the workflow's static data, e.g. `{ 'node:My Trigger': { cursor: ... } }` */
	staticData?: IDataObject;
	pinData?: IPinData;
}

export interface RunWorkflowOptions extends PackageOptions {
	/** credential type name -> data as a user would enter it in the credential dialog */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** 'default' (binary data in memory, base64 in items) or 'filesystem'; default 'default' */
	binaryDataMode?: BinaryDataMode;
	/** items the start node receives (and passes on); default one empty item */
	inputItems?: INodeExecutionData[];
	/** name of the node to start at; default the workflow's start node (manual trigger etc.) */
	startNode?: string;
	/** execution mode; default 'manual' (the editor's "Execute workflow") */
	mode?: WorkflowExecuteMode;
	/** the execution id; default a fresh one (two runs with the same id stand for two databases) */
	executionId?: string;
	/**
	 * the execution's random resume token, which n8n keeps with the execution in its database;
	 * default a fresh one (the same token stands for a retry of the same stored execution)
	 */
	resumeToken?: string;
	/** when this settles, the execution is stopped, as by the editor's "Stop" button */
	cancelWhen?: Promise<unknown>;
	/**
	 * a bound on node runs (a loop's every pass counts): past it the execution is stopped, as by
	 * the editor's "Stop" button, and the result says `boundReached`
	 */
	maxNodeRuns?: number;
	/**
	 * follows the execution as n8n's database and waiting-webhook server do (waiting.ts's
	 * `startWaitingWebhooks()`): a node that waits can then be called back and resumed
	 */
	observer?: ExecutionObserver;
}

export interface RunWorkflowResult {
	run: IRun;
	runData: IRunData;
	status: IRun['status'];
	/** the execution's error (the failed node's error when a node stopped the workflow) */
	error: ExecutionError | undefined;
	executionId: string;
	workflow: Workflow;
	/** the workflow's static data after the run (what n8n would save for non-manual modes) */
	staticData: IDataObject;
	/** node names in the order they finished */
	nodeExecutionOrder: string[];
	/** the run was stopped because it went past `maxNodeRuns` */
	boundReached: boolean;
	/** log lines written during this run */
	logs: LogLine[];
	/** items of a node's output (default: first output of its first run); [] when none */
	outputOf(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** the error a node's run ended with, if any */
	errorOf(nodeName: string, runIndex?: number): ExecutionError | undefined;
}

function latestVersion(nodeType: INodeType | ReturnType<HarnessNodeTypes['getByName']>): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** Fills in what n8n's editor fills in, and links given credentials to the nodes that use them. */
function normalizeNodes(
	nodes: WorkflowNodeJson[],
	mainPackage: LoadedPackage,
	nodeTypes: HarnessNodeTypes,
	credentialTypesGiven: string[],
): INode[] {
	return nodes.map((node, index) => {
		const type = fullNodeTypeName(mainPackage, node.type);
		const typeDef = nodeTypes.getByName(type);
		const typeVersion = node.typeVersion ?? latestVersion(typeDef);
		const description = nodeTypes.getByNameAndVersion(type, typeVersion).description;
		const credentials: INodeCredentials = { ...(node.credentials ?? {}) };
		for (const { name } of description.credentials ?? []) {
			if (credentialTypesGiven.includes(name) && !credentials[name]) {
				credentials[name] = { id: HarnessCredentialsHelper.credentialId(name), name: `${name} (harness)` };
			}
		}
		return {
			...node,
			id: node.id ?? `harness-node-${index}`,
			position: node.position ?? [index * 200, 0],
			type,
			typeVersion,
			parameters: node.parameters ?? {},
			...(Object.keys(credentials).length > 0 ? { credentials } : {}),
		};
	});
}

function toRunResult(
	run: IRun,
	workflow: Workflow,
	executionId: string,
	nodeExecutionOrder: string[],
	boundReached: boolean,
	staticData: IDataObject,
	logs: LogLine[],
): RunWorkflowResult {
	const runData = run.data.resultData.runData;
	return {
		run,
		runData,
		status: run.status,
		error: run.data.resultData.error,
		executionId,
		workflow,
		staticData,
		nodeExecutionOrder,
		boundReached,
		logs,
		outputOf(nodeName, outputIndex = 0, runIndex = 0) {
			return runData[nodeName]?.[runIndex]?.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [];
		},
		errorOf(nodeName, runIndex = 0) {
			return runData[nodeName]?.[runIndex]?.error;
		},
	};
}

/**
 * What an execution needs besides its run data, kept so that it can run again later: the
 * waiting-webhook server (waiting.ts) resumes a waiting execution with it, as n8n resumes one
 * from its database (a fresh Workflow, fresh lifecycle hooks, the same execution id).
 */
export interface PreparedExecution {
	session: HarnessSession;
	nodes: INode[];
	workflowJson: WorkflowJson;
	workflowId: string;
	settings: IWorkflowSettings;
	mode: WorkflowExecuteMode;
	executionId: string;
	workflowData: IWorkflowBase;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	binaryDataMode: BinaryDataMode;
	/** The base of `$execution.resumeUrl` (n8n's `<webhook URL>/webhook-waiting`). */
	webhookWaitingBaseUrl?: string;
	/** A fresh Workflow over the nodes (static data as given). */
	newWorkflow(): Workflow;
}

/**
 * Follows an execution from outside (waiting.ts's server): told when it starts, and when a run of
 * it ends (waiting, or finished), with the run's data as n8n would store it.
 */
export interface ExecutionObserver {
	/** The base of the resume URLs it serves, e.g. http://127.0.0.1:PORT/webhook-waiting. */
	webhookWaitingBaseUrl: string;
	/** n8n 1.x: executions carry no resume token. */
	withoutResumeToken?: boolean;
	started(prepared: PreparedExecution): void;
	ended(prepared: PreparedExecution, result: RunWorkflowResult): void;
}

export async function prepareExecution(workflowJson: WorkflowJson, options: RunWorkflowOptions = {}): Promise<PreparedExecution> {
	const session = await openSession(options);
	const { nodeTypes, mainPackage } = session;
	const credentials = options.credentials ?? {};
	const mode = options.mode ?? 'manual';
	const nodes = normalizeNodes(workflowJson.nodes, mainPackage, nodeTypes, Object.keys(credentials));
	const workflowId = workflowJson.id ?? HARNESS_WORKFLOW_ID;
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...(workflowJson.settings ?? {}) };
	const newWorkflow = () =>
		new Workflow({
			id: workflowId,
			name: workflowJson.name ?? 'Harness workflow',
			nodes,
			connections: workflowJson.connections,
			active: false,
			nodeTypes,
			staticData: deepCopy(workflowJson.staticData ?? {}),
			settings,
			pinData: workflowJson.pinData,
		});
	const executionId = options.executionId ?? nextExecutionId();
	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: workflowJson.name ?? 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		nodes,
		connections: workflowJson.connections,
		settings,
		staticData: workflowJson.staticData,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as IWorkflowBase;
	return {
		session,
		nodes,
		workflowJson,
		workflowId,
		settings,
		mode,
		executionId,
		workflowData,
		credentials,
		binaryDataMode: options.binaryDataMode ?? 'default',
		webhookWaitingBaseUrl: options.observer?.webhookWaitingBaseUrl,
		newWorkflow,
	};
}

/** Additional data for a run of a prepared execution (with its hooks and, for a webhook call, the request). */
export function additionalDataFor(prepared: PreparedExecution, hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
	return createAdditionalData({
		credentialsHelper: prepared.session.credentialsHelper,
		hooks,
		executionId: prepared.executionId,
		workflowId: prepared.workflowId,
		rootExecutionMode: prepared.mode,
		webhookWaitingBaseUrl: prepared.webhookWaitingBaseUrl,
	});
}

/** Runs (or resumes) a prepared execution from the given run data, as n8n's WorkflowRunner does. */
export async function executeRunData(
	prepared: PreparedExecution,
	runExecutionData: IRunExecutionData,
	options: Pick<RunWorkflowOptions, 'cancelWhen' | 'maxNodeRuns'> = {},
): Promise<RunWorkflowResult> {
	prepared.session.credentialsHelper.setCredentials(prepared.credentials);
	await useBinaryDataMode(prepared.binaryDataMode);
	const workflow = prepared.newWorkflow();
	const hooks = new ExecutionLifecycleHooks(prepared.mode, prepared.executionId, prepared.workflowData);
	const nodeExecutionOrder: string[] = [];
	let boundReached = false;
	/** Set once the execution runs: stops it as the editor's "Stop" button does. */
	const stopper: { stop?: () => void } = {};
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		nodeExecutionOrder.push(nodeName);
		if (options.maxNodeRuns !== undefined && nodeExecutionOrder.length >= options.maxNodeRuns && !boundReached) {
			boundReached = true;
			stopper.stop?.();
		}
	});
	let newStaticData: IDataObject | undefined;
	hooks.addHandler('workflowExecuteAfter', (_run, staticData) => {
		newStaticData = staticData;
	});
	const additionalData = additionalDataFor(prepared, hooks);
	const logStart = harnessLogger.lines.length;
	const workflowExecute = new WorkflowExecute(additionalData, prepared.mode, runExecutionData);
	const running = workflowExecute.processRunExecutionData(workflow);
	void options.cancelWhen?.then(
		() => running.cancel(),
		() => running.cancel(),
	);
	stopper.stop = () => running.cancel();
	const run = await running;
	const staticData = deepCopy(newStaticData ?? workflow.staticData ?? {}) as IDataObject;
	return toRunResult(run, workflow, prepared.executionId, nodeExecutionOrder, boundReached, staticData, harnessLogger.lines.slice(logStart));
}

/** Runs workflow JSON through n8n-core's WorkflowExecute with real HTTP. */
export async function runWorkflow(
	workflowJson: WorkflowJson,
	options: RunWorkflowOptions = {},
): Promise<RunWorkflowResult> {
	const prepared = await prepareExecution(workflowJson, options);
	const workflow = prepared.newWorkflow();
	const startNode = options.startNode ? workflow.getNode(options.startNode) : workflow.getStartNode();
	if (!startNode) {
		throw new UnexpectedError(
			options.startNode
				? `Start node "${options.startNode}" is not in the workflow`
				: 'The workflow has no start node (add an n8n-nodes-base.manualTrigger or pass startNode)',
		);
	}
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: startNode,
					data: { [NodeConnectionTypes.Main]: [options.inputItems ?? [{ json: {} }]] },
					source: null,
				},
			],
		},
		resultData: { pinData: workflowJson.pinData },
		...(options.resumeToken ? { resumeToken: options.resumeToken } : {}),
	});
	if (options.observer?.withoutResumeToken) delete runExecutionData.resumeToken;
	options.observer?.started(prepared);
	const result = await executeRunData(prepared, runExecutionData, options);
	options.observer?.ended(prepared, result);
	return result;
}

export interface RunNodeOptions extends PackageOptions {
	/** node type: full (`pkg.name`) or the package's short name (`documentExtraction`) */
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** items the node receives (json and binary); default one empty item */
	inputItems?: INodeExecutionData[];
	binaryDataMode?: BinaryDataMode;
	/** the node's "On Error: Continue" setting */
	continueOnFail?: boolean;
	onError?: INode['onError'];
	nodeName?: string;
	mode?: WorkflowExecuteMode;
	staticData?: IDataObject;
	settings?: IWorkflowSettings;
	executionId?: string;
	resumeToken?: string;
	cancelWhen?: Promise<unknown>;
	observer?: ExecutionObserver;
}

export interface RunNodeResult {
	/** the node's first output */
	items: INodeExecutionData[];
	/** all outputs of the node's (first) run */
	outputs: INodeExecutionData[][];
	/** the node's error when it failed (continueOnFail off) */
	error: ExecutionError | undefined;
	result: RunWorkflowResult;
}

export const START_NODE_NAME = 'Start';
export const DEFAULT_NODE_NAME = 'Node under test';

/** Builds Start (manual trigger) -> the node, runs it, and returns the node's output. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const nodeName = options.nodeName ?? DEFAULT_NODE_NAME;
	const onError = options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : undefined);
	const workflowJson: WorkflowJson = {
		nodes: [
			{ name: START_NODE_NAME, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
			{
				name: nodeName,
				type: options.type,
				typeVersion: options.typeVersion,
				parameters: options.parameters ?? {},
				...(onError ? { onError } : {}),
			},
		],
		connections: {
			[START_NODE_NAME]: {
				[NodeConnectionTypes.Main]: [[{ node: nodeName, type: NodeConnectionTypes.Main, index: 0 }]],
			},
		},
		staticData: options.staticData,
		settings: options.settings,
	};
	const result = await runWorkflow(workflowJson, {
		packageDir: options.packageDir,
		extraPackageDirs: options.extraPackageDirs,
		credentials: options.credentials,
		binaryDataMode: options.binaryDataMode,
		inputItems: options.inputItems,
		mode: options.mode,
		executionId: options.executionId,
		resumeToken: options.resumeToken,
		cancelWhen: options.cancelWhen,
		observer: options.observer,
	});
	const taskData = result.runData[nodeName]?.[0];
	return {
		items: result.outputOf(nodeName),
		outputs: (taskData?.data?.[NodeConnectionTypes.Main] ?? []).map((output) => output ?? []),
		error: result.errorOf(nodeName),
		result,
	};
}
