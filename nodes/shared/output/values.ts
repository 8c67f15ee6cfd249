import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, Deadline, RequestPolicy } from '../run';
import type { IdSource } from '../api';
import { getFormValues } from '../api';
import { isSchemaAware } from '../versions';
import { simplifyFormValue } from './simplify';
import { typedFormValue } from './typed';

/**
 * One form record simplified to { field title: value }: from typeVersion 2 (both nodes, the AI
 * tool), its values typed by their fields first (typed.ts); before, as the service sent them.
 */
export function simplifiedForm(context: Pick<ApiContext, 'getNode'>, formValue: IDataObject): IDataObject {
	return simplifyFormValue(isSchemaAware(context) ? typedFormValue(formValue) : formValue);
}

/**
 * The values of a file as the `values` field of an output item (both nodes): simplified, one
 * object when the file has one form; else the raw form records as `formValues`.
 */
export async function valuesField(
	context: ApiContext,
	fileId: string,
	policy: RequestPolicy,
	simplify: boolean,
	idSource?: IdSource,
	deadline?: Deadline,
): Promise<IDataObject> {
	const forms = await getFormValues(context, fileId, { policy, idSource, deadline });
	if (!simplify) return { formValues: forms };
	const simplified = forms.map((form) => simplifiedForm(context, form));
	return { values: simplified.length === 1 ? simplified[0] : simplified };
}
