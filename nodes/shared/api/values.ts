import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiContext } from '../run';
import { apiRequestAllItems } from '../transport';
import { ENDPOINTS, pathTo, sendWrite, sendWriteWithKey } from './endpoints';
import type { IdSource } from '../ids';
import type { ApiCall, SuccessAnswer, WriteCall } from './types';

/** One extracted field of a form (docs/dev/api-contract.md#read-values). */
interface FormField extends IDataObject {
	title?: string;
	type?: string;
	description?: string;
	format?: string | null;
	hidden?: boolean;
	items?: IDataObject[] | null;
}

/** One form value record of a file: its fields and their values. */
interface FormValue extends IDataObject {
	id?: string;
	fileId?: string;
	fileName?: string;
	fields?: FormField[];
}

/** Where a file ID comes from when the caller does not say: a file record of a list (the trigger). */
const FILE_RECORD: IdSource = { what: 'file ID', source: 'A file record the service answered' };

/**
 * GET /files/{fileId}/values: every form value record of a file (all pages, full tables). The
 * file ID is checked to be a UUID before it goes into the path, as callers pass IDs the service
 * handed back (the trigger's file list, Upload's upload status); a bad one fails naming
 * `idSource`, where it came from.
 */
export async function getFormValues(
	context: ApiContext,
	fileId: string,
	call: ApiCall & { idSource?: IdSource },
): Promise<FormValue[]> {
	const { idSource = FILE_RECORD, policy, deadline } = call;
	return await apiRequestAllItems(
		context,
		{
			method: ENDPOINTS.getFormValues.method,
			path: pathTo(context, ENDPOINTS.getFormValues, fileId, idSource, policy.itemIndex),
			qs: { includeFullTableData: true },
			policy,
			deadline,
		},
		{
			whatToDoAtSize: 'Raise "Max List Size (MB)" in the node options if the document\'s values are legitimately that large.',
			extract: (body) => {
				const values = (body.values ?? {}) as IDataObject;
				return {
					items: Array.isArray(values.formValues) ? (values.formValues as IDataObject[]) : [],
					total: typeof values.count === 'number' ? values.count : undefined,
				};
			},
		},
	);
}

/** One value to write: the field's title (as the file's values name it) and its new value. */
export interface FieldValue {
	title: string;
	value: unknown;
}

/**
 * PATCH /files/{fileId}/values. The specification references this endpoint without showing its
 * body; this is our documented choice, kept here only: `{ fields: [{ title, value }, …] }`,
 * `value: null` clearing a field (docs/dev/api-contract.md#update-values-body).
 */
export async function updateFormValues(
	context: IExecuteFunctions,
	fileId: string,
	fields: FieldValue[],
	{ policy }: WriteCall,
): Promise<IDataObject> {
	const path = pathTo(context, ENDPOINTS.updateFormValues, fileId, { what: 'file ID', source: 'The File parameter' }, policy.itemIndex);
	return (await sendWrite(context, ENDPOINTS.updateFormValues, updateBody(fields), policy, path)).body;
}

/** The same write from a webhook call (File > Review Values' submit), keyed by its caller (sendWriteWithKey). */
export async function updateFormValuesWithKey(
	context: ApiContext,
	fileId: string,
	fields: FieldValue[],
	{ policy, idempotencyKey }: WriteCall & { idempotencyKey: string },
): Promise<IDataObject> {
	const path = pathTo(context, ENDPOINTS.updateFormValues, fileId, { what: 'file ID', source: 'A review page' }, policy.itemIndex);
	return (await sendWriteWithKey(context, ENDPOINTS.updateFormValues, updateBody(fields), policy, path, idempotencyKey)).body;
}

function updateBody(fields: FieldValue[]): IDataObject {
	return { fields: fields.map(({ title, value }) => ({ title, value })) as IDataObject[] };
}

/** The notification a rerun sends on completion, and the entity and action it reports. */
export interface RerunNotification extends IDataObject {
	shouldSendOnCompletion?: boolean;
	referenceEntityName?: 'FILE' | 'SCHEMA';
	referenceEntityId?: string;
	referenceEntityAction?: 'CREATE' | 'DELETE' | 'UPDATE';
}

export interface RerunOptions extends IDataObject {
	/** Field pointers (e.g. /Total) of the fields to update. */
	paths?: string[];
	/** Only the fields whose definition changed. */
	partialRerun?: boolean;
	notification?: RerunNotification;
}

/** PATCH /files/schema/rerun body. */
export interface RerunRequest extends IDataObject {
	fileId: string;
	backgroundRerun: boolean;
	rerunOptions?: RerunOptions;
}

/** PATCH /files/schema/rerun: form filling of a file again, against its current schema version. */
export async function rerunExtraction(
	context: IExecuteFunctions,
	body: RerunRequest,
	{ policy }: WriteCall,
): Promise<SuccessAnswer> {
	return (await sendWrite(context, ENDPOINTS.rerunExtraction, body, policy)).body;
}
