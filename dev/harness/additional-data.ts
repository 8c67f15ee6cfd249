/**
 * IWorkflowExecuteAdditionalData: what the n8n application hands the engine for one execution
 * (cli's WorkflowExecuteAdditionalData.getBase). Features this harness does not provide
 * (sub-workflows, task runners, agents) fail loudly instead of pretending.
 */
import './container';

import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type {
	ICredentialsHelper,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

export const HARNESS_WORKFLOW_ID = 'harness-workflow';
const BASE_URL = 'http://127.0.0.1:5678';

let executionCounter = 0;

/** A fresh execution id, unique in this process. */
export function nextExecutionId(): string {
	executionCounter += 1;
	return `harness-${process.pid}-${executionCounter}`;
}

function notInHarness(feature: string): never {
	throw new UnexpectedError(`${feature} is not available in the engine harness`);
}

export interface AdditionalDataOptions {
	credentialsHelper: ICredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
	currentNodeParameters?: INodeParameters;
	rootExecutionMode?: WorkflowExecuteMode;
	executionTimeoutTimestamp?: number;
	/** The base of `$execution.resumeUrl` (default: the fixed base below, which nothing serves). */
	webhookWaitingBaseUrl?: string;
}

export function createAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId ?? HARNESS_WORKFLOW_ID,
		userId: 'harness-user',
		currentNodeParameters: options.currentNodeParameters,
		currentNodeExecutionIndex: 0,
		rootExecutionMode: options.rootExecutionMode,
		executionTimeoutTimestamp: options.executionTimeoutTimestamp,
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: BASE_URL,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: options.webhookWaitingBaseUrl ?? `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		variables: {},
		executeWorkflow: async () => notInHarness('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => notInHarness('The task runner (Code node)'),
		externalSecretsProxy: new ExternalSecretsProxy(),
	};
	return additionalData;
}
