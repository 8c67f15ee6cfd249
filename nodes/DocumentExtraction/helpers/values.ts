import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../transport';
import { apiRequestAllItems } from '../transport';
import { simplifyFormValue } from './simplify';
import type { IdSource } from './validation';
import { requireServiceId } from './validation';

/** A file's extracted values, as both nodes read and output them. */

/** Where a file ID comes from when the caller does not say: a file record of a list (the trigger). */
const FILE_RECORD: IdSource = { what: 'file ID', source: 'A file record the service answered' };

/**
 * Every form value record of a file (all pages, full tables). The file ID is checked to be a UUID
 * before it goes into the path, as callers pass IDs the service handed back (the trigger's file
 * list, Upload's upload status); a bad one fails naming `idSource`, where it came from.
 */
export async function getFormValues(
	this: ApiContext,
	fileId: string,
	itemIndex?: number,
	idSource: IdSource = FILE_RECORD,
): Promise<IDataObject[]> {
	const id = requireServiceId(this, fileId, 'uuid', idSource, itemIndex);
	return await apiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: `/files/${encodeURIComponent(id)}/values`,
			qs: { includeFullTableData: true },
			itemIndex,
		},
		{
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

/** The values of a file as the `values` field of an output item. */
export async function valuesField(
	this: ApiContext,
	fileId: string,
	itemIndex: number | undefined,
	simplify: boolean,
	idSource?: IdSource,
): Promise<IDataObject> {
	const forms = await getFormValues.call(this, fileId, itemIndex, idSource);
	if (!simplify) return { formValues: forms };
	const simplified = forms.map(simplifyFormValue);
	return { values: simplified.length === 1 ? simplified[0] : simplified };
}
