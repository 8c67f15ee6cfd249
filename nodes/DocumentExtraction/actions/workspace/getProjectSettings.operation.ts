import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../descriptions/common';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [optionsCollection()];

const displayOptions = { show: { resource: ['workspace'], operation: ['getProjectSettings'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Outputs the project settings: OCR model, form target language, split setting. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const settings = await apiRequest.call(this, { method: 'GET', path: '/project/setting', itemIndex });
	return [{ json: settings }];
}
