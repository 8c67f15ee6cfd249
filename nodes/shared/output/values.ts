import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, RequestPolicy } from '../run';
import type { IdSource } from '../api';
import { getFormValues } from '../api';
import { simplifyFormValue } from './simplify';

/**
 * The values of a file as the `values` field of an output item (both nodes): simplified, one
 * object when the file has one form; else the raw form records as `formValues`.
 */
export async function valuesField(
	this: ApiContext,
	fileId: string,
	policy: RequestPolicy,
	simplify: boolean,
	idSource?: IdSource,
): Promise<IDataObject> {
	const forms = await getFormValues.call(this, fileId, { policy, idSource });
	if (!simplify) return { formValues: forms };
	const simplified = forms.map((form) => simplifyFormValue(form));
	return { values: simplified.length === 1 ? simplified[0] : simplified };
}
