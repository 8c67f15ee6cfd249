import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiContext } from '../run';
import { apiRequest } from '../transport';
import { ENDPOINTS, pathTo, sendWrite } from './endpoints';
import type { ApiCall, WriteCall } from './types';
import { objectAt } from './types';

/** The workspace subscription (docs/dev/api-contract.md#subscription-and-project-settings): plan, credit, quotas. */
interface Subscription extends IDataObject {
	id?: string;
	workspaceId?: string;
	subscriptionPlan?: string;
	isTrial?: boolean;
	creditInCents?: number;
}

/** GET /subscription. */
export async function getSubscription(context: ApiContext, call: ApiCall): Promise<Subscription> {
	const body = await apiRequest(context, { ...ENDPOINTS.getSubscription, ...call });
	return objectAt<Subscription>(context, body, 'subscription', 'the subscription request', call.policy.itemIndex);
}

/** The project settings (docs/dev/api-contract.md#subscription-and-project-settings). */
interface ProjectSettings extends IDataObject {
	projectId?: string;
	ocrModel?: string;
	formTargetLanguage?: string;
	isSplit?: boolean;
}

/** GET /project/setting: the settings object itself, as answered. */
export async function getProjectSettings(context: ApiContext, call: ApiCall): Promise<ProjectSettings> {
	return await apiRequest(context, { ...ENDPOINTS.getProjectSettings, ...call });
}

/** POST /directories body. */
export interface DirectoryRequest extends IDataObject {
	name: string;
	description?: string;
	/** Absent: the root. */
	parentId?: string;
}

/** A directory (docs/dev/api-contract.md#create-a-directory). */
interface Directory extends IDataObject {
	id?: string;
	name?: string;
	status?: string;
	parentId?: string;
	depth?: number;
}

/** POST /directories: the created directory. */
export async function createDirectory(
	context: IExecuteFunctions,
	body: DirectoryRequest,
	{ policy }: WriteCall,
): Promise<Directory> {
	const { body: answer } = await sendWrite(context, ENDPOINTS.createDirectory, body, policy);
	return objectAt<Directory>(context, answer, 'directory', 'the directory creation', policy.itemIndex);
}

/** A workflow (docs/dev/api-contract.md#workflow) with its step summaries. */
interface Workflow extends IDataObject {
	id?: string;
	name?: string;
	status?: string;
	workflowSteps?: IDataObject[];
}

/** GET /workflows/{workflowId}. */
export async function getWorkflow(context: ApiContext, workflowId: string, call: ApiCall): Promise<Workflow> {
	const body = await apiRequest(context, {
		method: ENDPOINTS.getWorkflow.method,
		path: pathTo(context, ENDPOINTS.getWorkflow, workflowId, { what: 'workflow ID', source: 'The Workflow parameter' }, call.policy.itemIndex),
		...call,
	});
	return objectAt<Workflow>(context, body, 'workflow', 'the workflow request', call.policy.itemIndex);
}
