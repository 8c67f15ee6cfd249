import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	UsableAsToolDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties, toolProperties } from './actions/node.description';
import { router } from './actions/router';
import { listSearch, loadOptions } from './methods';
import { withRunScope } from './transport';

export class DocumentExtraction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction',
		name: 'documentExtraction',
		icon: {
			light: 'file:../../icons/documentExtraction.svg',
			dark: 'file:../../icons/documentExtraction.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Upload documents, get the values the service extracts, query them and report what your systems did with them',
		defaults: { name: 'Document Extraction' },
		// n8n builds the node's tool form from this description with these fields replaced.
		usableAsTool: {
			replacements: { properties: toolProperties } as UsableAsToolDescription['replacements'],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentExtractionApi', required: true }],
		properties: nodeProperties,
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await withRunScope(this, async () => await router.call(this));
	}
}
