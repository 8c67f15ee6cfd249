import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getFormValues } from '../../../shared/api';
import { FORM_LEADING_KEYS, withLeadingKeys } from '../../../shared/output/keyOrder';
import { simplifiedForm } from '../../../shared/output/values';
import { optionsCollection } from '../../../shared/requestOptions';
import { fileIdParameter, simplifyParameter } from '../../descriptions/common';
import { requireBoolean } from '../../../shared/parameters';
import { readFileId } from './records';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [fileIdParameter, simplifyParameter, optionsCollection()];

const displayOptions = { show: { resource: ['file'], operation: ['getValues'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per form of the file (usually one): simplified, or the raw form record. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	const forms = await getFormValues(this, fileId, { policy });
	return forms.map((form) => ({ json: simplify ? simplifiedForm(this, form) : withLeadingKeys(form, FORM_LEADING_KEYS) }));
}
