import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withLeadingKeys } from './keyOrder';

/**
 * The output item of a processed document, as both triggers emit it (the polling trigger and the
 * Callback Trigger): the file's record as GET /files lists it, plus what `extra` adds (its
 * `values` from valuesField, when asked), in the key order of every file item.
 */
export function documentItem(file: IDataObject, extra?: IDataObject): INodeExecutionData {
	return { json: withLeadingKeys({ ...file, ...(extra ?? {}) }) };
}

/** Both triggers' option that adds `values` to each document item (read as `options.includeValues`). */
export const includeValuesOption: INodeProperties = {
	displayName: 'Include Extracted Values',
	name: 'includeValues',
	type: 'boolean',
	default: false,
	description:
		'Whether to add the extracted values to each document, simplified to { field title: value } (tables as lists of row objects). Costs one more request per document.',
};
