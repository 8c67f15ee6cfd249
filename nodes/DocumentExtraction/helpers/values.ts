import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../transport';
import { apiRequestAllItems } from '../transport';
import { simplifyFormValue } from './simplify';

/** A file's extracted values, as both nodes read and output them. */

/** Every form value record of a file (all pages, full tables). */
export async function getFormValues(
	this: ApiContext,
	fileId: string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return await apiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: `/files/${encodeURIComponent(fileId)}/values`,
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
): Promise<IDataObject> {
	const forms = await getFormValues.call(this, fileId, itemIndex);
	if (!simplify) return { formValues: forms };
	const simplified = forms.map(simplifyFormValue);
	return { values: simplified.length === 1 ? simplified[0] : simplified };
}
