import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fileIdParameter, maxRateLimitWaitOption, simplifyParameter } from '../../descriptions/common';
import { simplifyFormValue } from '../../helpers/simplify';
import { requireUuid } from '../../helpers/validation';
import { getFormValues } from './shared';

const properties: INodeProperties[] = [
	fileIdParameter,
	simplifyParameter,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [maxRateLimitWaitOption],
	},
];

const displayOptions = { show: { resource: ['file'], operation: ['getValues'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per form of the file (usually one): simplified, or the raw form record. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileId = requireUuid(
		this,
		itemIndex,
		'File',
		this.getNodeParameter('fileId', itemIndex, '', { extractValue: true }),
	);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const forms = await getFormValues.call(this, fileId, itemIndex);
	return forms.map((form) => ({ json: simplify ? simplifyFormValue(form) : form }));
}
