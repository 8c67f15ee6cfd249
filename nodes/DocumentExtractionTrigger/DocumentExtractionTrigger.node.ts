import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { waitClock, withRunScope } from '../DocumentExtraction/transport';
import { triggerProperties } from './description';
import { getFileClasses } from './methods';
import { pollBudgetMs, pollDocuments } from './poll';

export class DocumentExtractionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Trigger',
		name: 'documentExtractionTrigger',
		icon: {
			light: 'file:../../icons/documentExtraction.svg',
			dark: 'file:../../icons/documentExtraction.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] === "fileUpdated" ? "File Updated" : "File Processed" }}',
		description:
			'Starts the workflow when the Document Extraction Service finishes processing a document, or when a processed document changes',
		defaults: { name: 'Document Extraction Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentExtractionApi', required: true }],
		properties: triggerProperties,
	};

	methods = { loadOptions: { getFileClasses } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await withRunScope(this, async () => await pollDocuments.call(this), {
			waitDeadline: waitClock.now() + pollBudgetMs(this),
		});
	}
}
