/**
 * Workflows of File > Review Values in the real n8n, shared by the end-to-end suites (test/e2e,
 * test/queue): a production Webhook (answering at once) -> optionally Split Out (one item per
 * file of `body.files`) -> File > Get Review Link -> File > Review Values.
 */
import { EMULATOR_CREDENTIAL_ID, EMULATOR_CREDENTIAL_NAME, NODE_TYPE, type WorkflowJson } from './n8n-stack';

const CREDENTIALS = { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } };

export const REVIEW_LINK_NODE = 'Get Review Link';
export const REVIEW_NODE = 'Review Values';
const START = 'A file to review';
const SPLIT = 'One item per file';

export interface ReviewWorkflowOptions {
	id: string;
	name: string;
	/** The production webhook's path: POST <n8n>/webhook/<path> starts an execution. */
	webhookPath: string;
	webhookId: string;
	/** Wait Limit (hours) of Review Values. */
	waitHours: number;
	/** The files: one posted as `{ fileId }`, or several as `{ files: [{ fileId }, …] }` (split into one item each). */
	files: 'one' | 'several';
	/** Review Values' Options (e.g. { reportExportStatus: true }). */
	options?: Record<string, unknown>;
}

export function reviewWorkflow(options: ReviewWorkflowOptions): WorkflowJson {
	const several = options.files === 'several';
	const nodes: WorkflowJson['nodes'] = [
		{ id: 'r1', name: START, type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: options.webhookId, parameters: { httpMethod: 'POST', path: options.webhookPath, responseMode: 'onReceived', options: {} } },
		...(several ? [{ id: 'r2', name: SPLIT, type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [220, 0] as [number, number], parameters: { fieldToSplitOut: 'body.files', options: {} } }] : []),
		{ id: 'r3', name: REVIEW_LINK_NODE, type: NODE_TYPE, typeVersion: 2, position: [440, 0], parameters: { resource: 'file', operation: 'getReviewLink' }, credentials: CREDENTIALS },
		{
			id: 'r4',
			name: REVIEW_NODE,
			type: NODE_TYPE,
			typeVersion: 2,
			position: [660, 0],
			parameters: {
				resource: 'file',
				operation: 'reviewValues',
				fileId: { __rl: true, mode: 'id', value: several ? '={{ $json.fileId }}' : '={{ $json.body.fileId }}' },
				waitHours: options.waitHours,
				...(options.options ? { options: options.options } : {}),
			},
			credentials: CREDENTIALS,
		},
	];
	const chain = several ? [START, SPLIT, REVIEW_LINK_NODE, REVIEW_NODE] : [START, REVIEW_LINK_NODE, REVIEW_NODE];
	const connections: WorkflowJson['connections'] = {};
	for (let index = 0; index + 1 < chain.length; index++) connections[chain[index]] = { main: [[{ node: chain[index + 1], type: 'main', index: 0 }]] };
	return { id: options.id, name: options.name, nodes, connections, settings: { executionOrder: 'v1' } };
}
