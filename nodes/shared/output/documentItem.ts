import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { withLeadingKeys } from './keyOrder';

/**
 * The output item of a processed document, as both triggers emit it (the polling trigger and the
 * Callback Trigger): the file's record as GET /files lists it, plus what `extra` adds (its
 * `values` from valuesField, when asked), in the key order of every file item.
 */
export function documentItem(file: IDataObject, extra?: IDataObject): INodeExecutionData {
	return { json: withLeadingKeys({ ...file, ...(extra ?? {}) }) };
}
