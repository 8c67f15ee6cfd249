/**
 * pollTrigger(): one poll of a polling trigger, as n8n runs it.
 * - mode 'trigger' (an active workflow's poll): n8n-core's PollTriggerExecutor runs the node's
 *   poll() in a PollContext whose __emit/__emitError/__commitCursor/__runPoll are the host's.
 * - mode 'manual' (the editor's "Fetch Test Event"): a manual execution through WorkflowExecute
 *   starting at the trigger; n8n does not save static data of manual executions.
 * The node's static data goes in and comes out, so a test carries it from poll to poll the way
 * n8n keeps it between polls.
 * activatePollTrigger(): an active workflow's trigger polled several times in one PollContext,
 * as n8n keeps one context for the whole activation.
 */
import './container';

import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow, deepCopy } from 'n8n-workflow';

import { HARNESS_WORKFLOW_ID, createAdditionalData } from './additional-data';
import type { BinaryDataMode } from './container';
import { Container, harnessLogger, useBinaryDataMode } from './container';
import { HarnessCredentialsHelper } from './credentials-helper';
import { runWorkflow } from './engine';
import type { LogLine } from './logger';
import { fullNodeTypeName } from './registry';
import type { PackageOptions } from './session';
import { openSession } from './session';

/**
 * How the host keeps the node's static data across a poll:
 * - 'in-memory' (n8n's classic poller): the node mutates the workflow's static data in place;
 *   whatever it changed stays changed for the next poll, even when the poll then throws.
 * - 'staged' (n8n's durable poll cursors): the poll works on a copy, committed only when the poll
 *   emits or returns null; a poll that throws leaves the stored data untouched.
 */
export type StaticDataHost = 'in-memory' | 'staged';

export interface PollTriggerOptions extends PackageOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** the node's static data before this poll (what getWorkflowStaticData('node') returns) */
	staticData?: IDataObject;
	/** 'trigger' (active workflow, default) or 'manual' ("Fetch Test Event") */
	mode?: 'trigger' | 'manual';
	/** activation mode of a 'trigger' poll; default 'activate' */
	activation?: WorkflowActivateMode;
	/** what getPollBudgetMs() returns; default n8n's (5 minutes) */
	pollBudgetMs?: number;
	/** default 'in-memory' (the stricter host: see StaticDataHost) */
	staticDataHost?: StaticDataHost;
	binaryDataMode?: BinaryDataMode;
	nodeName?: string;
}

export interface PollTriggerResult {
	/** items of the first output ([] when the poll returned null) */
	items: INodeExecutionData[];
	/** what poll() returned (null: nothing new) */
	outputs: INodeExecutionData[][] | null;
	/** the node's static data after the poll, as the host keeps it for the next poll */
	staticData: IDataObject;
	/** the poll's error (given to __emitError in trigger mode), if it failed */
	error: Error | ExecutionError | undefined;
	logs: LogLine[];
}

export const DEFAULT_TRIGGER_NAME = 'Trigger under test';

/**
 * An active workflow's trigger: one PollContext for the whole activation, as n8n's
 * ActiveWorkflows keeps it, polled as often as the test likes.
 */
export interface ActivePollTrigger {
	/** One poll in the activation's context; static data carries over from the previous poll. */
	poll(): Promise<PollTriggerResult>;
	/** Replaces the stored credentials, as a user editing a credential while the workflow is active. */
	setCredentials(credentials: Record<string, ICredentialDataDecryptedObject>): void;
}

/** Activates a polling trigger (mode 'trigger' only); see PollTriggerOptions and ActivePollTrigger. */
export async function activatePollTrigger(options: PollTriggerOptions): Promise<ActivePollTrigger> {
	const session = await openSession(options);
	const { credentialsHelper, nodeTypes, mainPackage } = session;
	const credentials = options.credentials ?? {};
	credentialsHelper.setCredentials(credentials);
	await useBinaryDataMode(options.binaryDataMode ?? 'default');

	const nodeName = options.nodeName ?? DEFAULT_TRIGGER_NAME;
	const type = fullNodeTypeName(mainPackage, options.type);
	const typeVersion =
		options.typeVersion ?? nodeTypes.getByNameAndVersion(type).description.version;
	const node: INode = {
		id: 'harness-trigger',
		name: nodeName,
		type,
		typeVersion: Array.isArray(typeVersion) ? Math.max(...typeVersion) : typeVersion,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: Object.fromEntries(
			Object.keys(credentials).map((name) => [
				name,
				{ id: HarnessCredentialsHelper.credentialId(name), name: `${name} (harness)` },
			]),
		),
	};
	const staticDataKey = `node:${nodeName}`;
	const workflow = new Workflow({
		id: HARNESS_WORKFLOW_ID,
		name: 'Harness trigger workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: { [staticDataKey]: deepCopy(options.staticData ?? {}) },
		settings: { executionOrder: 'v1' },
	});

	const host = options.staticDataHost ?? 'in-memory';
	let committed: IDataObject = deepCopy(options.staticData ?? {});
	let staged: IDataObject | undefined;
	let emitted: INodeExecutionData[][] | null = null;
	let emitError: Error | ExecutionError | undefined;

	const commit = () => {
		if (staged !== undefined) committed = deepCopy(staged);
	};
	const additionalData = createAdditionalData({ credentialsHelper, workflowId: HARNESS_WORKFLOW_ID });
	const pollContext = new PollContext(
		workflow,
		node,
		additionalData,
		'trigger',
		options.activation ?? 'activate',
		(data) => {
			emitted = data;
			commit();
		},
		(error) => {
			emitError = error;
		},
		async () => commit(),
		async (poll) => {
			if (host === 'in-memory') return await poll();
			staged = deepCopy(committed);
			try {
				return await poll();
			} finally {
				staged = undefined;
			}
		},
		host === 'staged'
			? () => staged ?? workflow.getStaticData('node', node)
			: () => workflow.getStaticData('node', node),
		options.pollBudgetMs === undefined ? undefined : () => options.pollBudgetMs as number,
	);
	const pollOnce = Container.get(PollTriggerExecutor).create(workflow, node, pollContext, () => true);

	return {
		async poll() {
			emitted = null;
			emitError = undefined;
			const logStart = harnessLogger.lines.length;
			await pollOnce(false);

			const staticData =
				host === 'in-memory' ? deepCopy(workflow.getStaticData('node', node)) : deepCopy(committed);
			return {
				items: (emitted as INodeExecutionData[][] | null)?.[0] ?? [],
				outputs: emitted,
				staticData,
				error: emitError,
				logs: harnessLogger.lines.slice(logStart),
			};
		},
		setCredentials(next) {
			credentialsHelper.setCredentials(next);
		},
	};
}

async function pollAsActiveWorkflow(options: PollTriggerOptions): Promise<PollTriggerResult> {
	return await (await activatePollTrigger(options)).poll();
}

async function pollManually(options: PollTriggerOptions): Promise<PollTriggerResult> {
	const nodeName = options.nodeName ?? DEFAULT_TRIGGER_NAME;
	const staticData = deepCopy(options.staticData ?? {});
	const result = await runWorkflow(
		{
			nodes: [
				{
					name: nodeName,
					type: options.type,
					typeVersion: options.typeVersion,
					parameters: options.parameters ?? {},
				},
			],
			connections: {},
			staticData: { [`node:${nodeName}`]: staticData },
		},
		{
			packageDir: options.packageDir,
			extraPackageDirs: options.extraPackageDirs,
			credentials: options.credentials,
			binaryDataMode: options.binaryDataMode,
			startNode: nodeName,
			mode: 'manual',
		},
	);
	const outputs = result.runData[nodeName]?.[0]?.data?.main ?? null;
	return {
		items: result.outputOf(nodeName),
		outputs: outputs && outputs.map((output) => output ?? []),
		// n8n discards static data changed by manual executions.
		staticData,
		error: result.errorOf(nodeName) ?? result.error,
		logs: result.logs,
	};
}

/** One poll of a polling trigger node; see PollTriggerOptions. */
export async function pollTrigger(options: PollTriggerOptions): Promise<PollTriggerResult> {
	return (options.mode ?? 'trigger') === 'manual'
		? await pollManually(options)
		: await pollAsActiveWorkflow(options);
}
