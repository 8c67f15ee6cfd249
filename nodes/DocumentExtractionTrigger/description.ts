import type { INodeProperties } from 'n8n-workflow';

import { includeValuesOption } from '../shared/output/documentItem';
import { optionsCollection } from '../shared/requestOptions';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'fileProcessed',
		options: [
			{
				name: 'File Processed',
				value: 'fileProcessed',
				description:
					'A document finished processing. Fires once per document, even if it changes later.',
			},
			{
				name: 'File Updated',
				value: 'fileUpdated',
				description:
					'A processed document changed: processing finished, a rerun, edited values, an export status report. Fires once per change.',
			},
		],
	},
	{
		displayName: 'Start From',
		name: 'startFrom',
		type: 'options',
		noDataExpression: true,
		default: 'now',
		options: [
			{
				name: 'Now',
				value: 'now',
				description: 'Only documents processed (or changed) after the workflow is activated',
			},
			{
				name: 'Specific Date',
				value: 'date',
				description: 'Also every document since a date: the backlog is emitted on the first polls',
			},
		],
		hint: 'Changing Event or Start From on an active workflow starts the trigger afresh from this point',
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { startFrom: ['date'] } },
		description:
			'File Processed: documents uploaded on or after this date. File Updated: documents changed on or after it. Read in the workflow time zone unless the value names a zone.',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'With several filters a document passes when it matches any of them',
		options: [
			{
				displayName: 'File Type Names or IDs',
				name: 'fileClasses',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFileClasses' },
				default: [],
				description:
					'Only documents classified as one of these file types (the file\'s fileClass). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Schema IDs',
				name: 'schemaIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 6650a00000000000000c0002',
				description:
					'Only documents extracted with one of these schema versions (the file\'s schemaId). Separate several with commas.',
			},
		],
	},
	optionsCollection([
		includeValuesOption,
		{
			displayName: 'Max Documents per Poll',
			name: 'maxDocumentsPerPoll',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1000,
			description:
				'The most documents one poll emits. The others wait for the next polls; none is lost.',
		},
	]),
];
