import type { INodeProperties } from 'n8n-workflow';

import { CALLBACK_LIMITS } from '../shared/limits';
import { includeValuesOption } from '../shared/output/documentItem';
import { optionsCollection } from '../shared/requestOptions';

// Defaults as plain names: n8n's node lint reads a parameter's default only from a literal or a name.
const DEFAULT_HISTORY_SIZE = CALLBACK_LIMITS.defaultHistorySize;

/** The events a user may ask for; File Processed alone by default (as the polling trigger). */
export const CALLBACK_EVENTS = ['fileProcessed', 'processingFailed', 'processingStep'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export const callbackTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Copy this node\'s Production URL (above) into the fileAI dashboard as the API key\'s default callback URL, or into the Callback URL option of an Upload. The service only calls https: n8n\'s public address (WEBHOOK_URL) must be https. Every call is checked through the API before anything is emitted. With more than one n8n process taking webhooks (queue mode with webhook processes behind a load balancer), turn on Options > Claim Across Processes: without it, two deliveries of one callback that reach two processes at the same moment both fire.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['fileProcessed'],
		options: [
			{
				name: 'File Processed',
				value: 'fileProcessed',
				description:
					'A document finished processing: one item per processed file (a ZIP gives one per member), with the same fields as the Document Extraction Trigger',
			},
			{
				name: 'Processing Failed',
				value: 'processingFailed',
				description:
					'A document (or a member of a ZIP) could not be processed: one item per failed file, with its errorReason',
			},
			{
				name: 'Processing Step',
				value: 'processingStep',
				description:
					'A step of processing finished (file_uploaded, processing_started, …): one item per step the API lists for the upload',
			},
		],
		description: 'Which callbacks start the workflow. Each upload\'s outcome (processed or failed) fires once.',
	},
	optionsCollection([
		includeValuesOption,
		{
			displayName: 'Claim Across Processes',
			name: 'claimAcrossProcesses',
			type: 'boolean',
			default: false,
			description:
				'Whether each callback is claimed at the service before it fires, so that it fires once even when several n8n processes receive its deliveries at the same moment. Costs one write per upload (and per step): the upload\'s first file gets export status "exporting" with a message naming the n8n process that claimed it, shown in the service\'s file list. Not needed with one n8n process taking webhooks.',
		},
		{
			displayName: 'History Size',
			name: 'historySize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: CALLBACK_LIMITS.maxHistorySize, numberPrecision: 0 },
			default: DEFAULT_HISTORY_SIZE,
			description:
				'How many uploads (and steps) the trigger remembers to recognise a callback it has already handled (the service repeats callbacks). A repeat of an older one is checked again and fires again. Keep it above the number of uploads your key gets in an hour.',
		},
	]),
];
