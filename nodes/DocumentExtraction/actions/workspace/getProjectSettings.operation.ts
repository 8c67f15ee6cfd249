import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getProjectSettings } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import type { ItemPolicy } from '../../../shared/run';

const properties: INodeProperties[] = [optionsCollection()];

const displayOptions = { show: { resource: ['workspace'], operation: ['getProjectSettings'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the project settings: OCR model, form target language, split setting. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	return [{ json: await getProjectSettings(this, { policy }) }];
}
