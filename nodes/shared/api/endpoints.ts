import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { SUBSCRIPTION_PATH } from '../../../credentials/hosts';
import type { ApiContext, Deadline, ItemPolicy, RequestPolicy } from '../run';
import type { ApiResponse } from '../transport';
import { apiRequestWithResponse, idempotencyKey } from '../transport';
import type { IdForm, IdSource } from '../ids';
import { requireServiceId } from '../ids';

/**
 * Every endpoint of the Document Extraction API (docs/dev/api-contract.md#endpoints): the one place where
 * methods and paths are written. Paths are below the API prefix (/prod/v1, added by the
 * transport from credentials/urlPolicy.ts); a `{name}` segment is an ID, of the form `ids` gives.
 * A write names its call site, from which (with the item and the body) its Idempotency-Key is
 * derived: a changed name would change the keys of retries in flight.
 */
interface Endpoint {
	method: IHttpRequestMethods;
	path: string;
	ids?: Record<string, IdForm>;
	callSite?: string;
}

export const ENDPOINTS = {
	listFiles: { method: 'GET', path: '/files' },
	deleteFiles: { method: 'DELETE', path: '/files', callSite: 'file.delete' },
	reportExportStatus: {
		method: 'PATCH',
		path: '/files/{fileId}',
		ids: { fileId: 'uuid' },
		callSite: 'file.reportExportStatus',
	},
	createPreviewUrl: { method: 'POST', path: '/files/preview' },
	requestUpload: { method: 'POST', path: '/files/upload', callSite: 'file.upload' },
	initiateMultipartUpload: { method: 'POST', path: '/files/upload/multipart', callSite: 'file.upload.multipart' },
	completeMultipartUpload: {
		method: 'POST',
		path: '/files/upload/multipart/complete',
		callSite: 'file.upload.multipart.complete',
	},
	getUploadStatus: { method: 'GET', path: '/uploads/{uploadId}', ids: { uploadId: 'uuid' } },
	getFormValues: { method: 'GET', path: '/files/{fileId}/values', ids: { fileId: 'uuid' } },
	updateFormValues: {
		method: 'PATCH',
		path: '/files/{fileId}/values',
		ids: { fileId: 'uuid' },
		callSite: 'file.updateValues',
	},
	rerunExtraction: { method: 'PATCH', path: '/files/schema/rerun', callSite: 'file.rerunExtraction' },
	listFileTypes: { method: 'GET', path: '/file-type' },
	approveFileType: { method: 'PATCH', path: '/file-type/approve', callSite: 'fileType.approve' },
	createDirectory: { method: 'POST', path: '/directories', callSite: 'directory.create' },
	getWorkflow: { method: 'GET', path: '/workflows/{workflowId}', ids: { workflowId: 'objectId' } },
	executeQuery: { method: 'POST', path: '/query/execute' },
	getSubscription: { method: 'GET', path: SUBSCRIPTION_PATH },
	getProjectSettings: { method: 'GET', path: '/project/setting' },
	patchSchemaFields: { method: 'PATCH', path: '/schemas', callSite: 'schema.updateFields' },
} as const satisfies Record<string, Endpoint>;

/** How messages name an endpoint, as docs/dev/api-contract.md#endpoints does: e.g. `GET /uploads/{uploadId}`. */
export function endpointName(endpoint: Endpoint): string {
	return `${endpoint.method} ${endpoint.path}`;
}

/**
 * The path of an endpoint with its ID filled in. The ID is checked to be of the endpoint's form
 * before it goes into the path (".." or "a/b" would reach another endpoint of the same host,
 * whatever the encoding); a bad one fails naming `source`, and nothing is requested.
 */
export function pathTo(
	context: ApiContext,
	endpoint: Endpoint,
	id: unknown,
	source: IdSource,
	itemIndex?: number,
): string {
	const [name, form] = Object.entries(endpoint.ids ?? {})[0] ?? [];
	if (name === undefined || form === undefined) return endpoint.path;
	const checked = requireServiceId(context, id, form, source, itemIndex);
	return endpoint.path.replace(`{${name}}`, encodeURIComponent(checked));
}

/**
 * Sends a write with its Idempotency-Key (the same on every retry of this call: by the transport,
 * by n8n's Retry On Fail, by another queue-mode worker), so the API replays the first answer
 * instead of acting twice. `path`: the endpoint's path with its ID filled in (pathTo).
 */
export async function sendWrite(
	context: IExecuteFunctions,
	endpoint: Endpoint & { callSite: string },
	body: IDataObject,
	policy: ItemPolicy,
	path: string = endpoint.path,
): Promise<ApiResponse> {
	return await sendWriteWithKey(context, endpoint, body, policy, path, idempotencyKey(context, policy.itemIndex, endpoint.callSite, body));
}

/**
 * A write with an Idempotency-Key its caller made: a webhook call (File > Review Values' submit)
 * has no execution run to derive one from, so it keys the write by what makes it the same write.
 */
export async function sendWriteWithKey(
	context: ApiContext,
	endpoint: Endpoint,
	body: IDataObject,
	policy: RequestPolicy,
	path: string,
	key: string,
	deadline?: Deadline,
): Promise<ApiResponse> {
	return await apiRequestWithResponse(context, { method: endpoint.method, path, body, idempotencyKey: key, policy, deadline });
}
