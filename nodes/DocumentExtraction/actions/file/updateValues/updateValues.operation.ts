import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../../../shared/requestOptions';
import type { ItemPolicy } from '../../../../shared/run';
import { SCHEMA_AWARE_VERSION, isSchemaAware } from '../../../../shared/versions';
import { fileIdParameter, simplifyParameter } from '../../../descriptions/common';
import { executeV1, propertiesV1 } from './v1';
import { executeV2, ignoreUnwritableOption, propertiesV2 } from './v2';
import { valuesJsonParameter } from './valuesJson';

/**
 * File > Update Values, a folder of its own: two typeVersions of its parameters (docs/versioning.md).
 *   v1.ts          typeVersion 1, kept as saved workflows know it: titles and value types by hand, or JSON
 *   v2.ts          typeVersion 2: the file's fields in the field mapper, Map Automatically, or JSON; checked and converted
 *   valuesJson.ts  Values (JSON), the same in both
 */

const version1 = { '@version': [1] };
const version2 = { '@version': [{ _cnd: { gte: SCHEMA_AWARE_VERSION } }] };

function only(versions: object, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, ...versions } },
	}));
}

const properties: INodeProperties[] = [
	{ ...fileIdParameter, description: 'The file whose extracted values to change' },
	...only(version1, propertiesV1),
	...only(version2, propertiesV2),
	valuesJsonParameter,
	{
		...simplifyParameter,
		description:
			"Whether to output the file's values after the update as { field title: value } (tables as lists of row objects) instead of the raw form records",
	},
	...only(version1, [optionsCollection()]),
	...only(version2, [optionsCollection([ignoreUnwritableOption])]),
];

const displayOptions = { show: { resource: ['file'], operation: ['updateValues'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Writes new values into fields of a file; outputs `{ fileId, updatedFields, values }`. */
export async function execute(this: IExecuteFunctions, itemIndex: number, policy: ItemPolicy): Promise<INodeExecutionData[]> {
	return isSchemaAware(this) ? await executeV2.call(this, itemIndex, policy) : await executeV1.call(this, itemIndex, policy);
}
