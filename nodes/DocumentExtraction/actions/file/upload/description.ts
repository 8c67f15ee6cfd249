import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PROCESSING_WAIT_LIMITS, UPLOAD_LIMITS } from '../../../../shared/limits';
import { optionsCollection, transferSpeedOptions } from '../../../../shared/requestOptions';
import { batchingOption } from '../../../descriptions/batching';
import { binaryPropertyParameter, simplifyParameter } from '../../../descriptions/common';
import { ocrModelParameter } from '../../../descriptions/ocrModels';

// Defaults as plain names: n8n's node lint reads a parameter's default only from a literal or a name.
const DEFAULT_MULTIPART_THRESHOLD_MB = UPLOAD_LIMITS.defaultMultipartThresholdMb;
const DEFAULT_PART_CONCURRENCY = UPLOAD_LIMITS.defaultPartConcurrency;
const DEFAULT_PART_SIZE_MB = UPLOAD_LIMITS.defaultPartSizeMb;
const DEFAULT_POLL_INTERVAL_SECONDS = PROCESSING_WAIT_LIMITS.defaultPollIntervalSeconds;
const DEFAULT_WAIT_TIMEOUT_SECONDS = PROCESSING_WAIT_LIMITS.defaultWaitTimeoutSeconds;

/** Upload's parameters, as the editor shows them; parameters.ts reads and checks them. */
const properties: INodeProperties[] = [
	binaryPropertyParameter,
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the service has processed the file and output the processed file(s). When off, the node outputs the upload ID at once; continue later with Get Upload Status.',
	},
	{
		displayName: 'Wait Mode',
		name: 'waitMode',
		type: 'options',
		options: [
			{
				name: 'Poll the Service',
				value: 'poll',
				description:
					'Ask for the processing status until it ends. The execution keeps running while it waits (in queue mode it holds a worker slot).',
			},
			{
				name: 'When the Service Calls Back',
				value: 'callback',
				description:
					"Upload every item, then wait as n8n's Wait node does (listed as Waiting, holding no worker) until the service's callbacks, each checked with the API, show that all uploads have finished. Needs n8n's public https:// webhook URL.",
			},
		],
		default: 'poll',
		description: 'How the node learns that processing has ended',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		displayName:
			"The service calls n8n back at the execution's resume URL, which n8n builds from WEBHOOK_URL (N8N_WEBHOOK_URL on n8n 2): set it to n8n's public https:// address on every n8n process, workers included. The items wait together and come out in their order. While they wait, the execution is Waiting (so listed under Executions, holding no worker) and this node's output in the editor says what it waits for. If the Wait Timeout passes first, n8n outputs the input items unchanged; the upload IDs stay at {{ $('this node').context.uploadIds[$itemIndex] }} for Get Upload Status. Where several n8n processes take webhooks (queue mode with webhook processes), send /webhook-waiting/ to one of them: two processes taking the last callbacks of one execution at the same instant may both resume it (n8n 1.x then runs the rest of the workflow twice).",
		name: 'callbackNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { waitForCompletion: [true], waitMode: ['callback'] } },
	},
	{
		displayName: 'Include Extracted Values',
		name: 'includeExtractedValues',
		type: 'boolean',
		default: true,
		description: 'Whether to add the values extracted from each processed file to its output item',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		...simplifyParameter,
		displayOptions: { show: { waitForCompletion: [true], includeExtractedValues: [true] } },
	},
	optionsCollection([
		...transferSpeedOptions,
		{
			displayName: 'API Request ID',
			name: 'apiRequestId',
			type: 'string',
			default: '',
			description:
				'Groups files uploaded together (sent back on callbacks as api_request_id). For a ZIP without it, the ZIP file ID is used.',
		},
		batchingOption,
		{
			displayName: 'Callback URL',
			name: 'callbackURL',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/webhook',
			description:
				"HTTPS URL the service calls when processing ends. Overrides the API key's default callback URL. Not with Wait Mode \"When the Service Calls Back\", which gives its own.",
		},
		{
			displayName: 'Delete After 24 Hours',
			name: 'isEphemeral',
			type: 'boolean',
			default: false,
			description: 'Whether the file and all its data are deleted 24 hours after upload (ephemeral)',
		},
		{
			displayName: 'Destination Path',
			name: 'destinationPath',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoices/2024/march',
			description: 'Slash-separated folder path; missing folders are created. May be combined with Directory ID.',
		},
		{
			displayName: 'Directory ID',
			name: 'directoryId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 6650a00000000000000d0001',
			description: 'The directory (folder) to put the file in: 24 hexadecimal characters',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-0042.pdf',
			description: "Name to give the file, with its extension. Default: the binary's file name.",
		},
		{
			displayName: 'Keep ZIP File Name',
			name: 'retainOriginalZipFileName',
			type: 'boolean',
			default: false,
			description:
				'Whether files extracted from a ZIP keep the archive name (sanitised, up to 255 characters) as zipArchiveName. Ignored for other files.',
		},
		{
			displayName: 'Lock Schema',
			name: 'schemaLocking',
			type: 'boolean',
			default: false,
			description: 'Whether to lock the schema after upload',
		},
		{
			displayName: 'MIME Type',
			name: 'mimeType',
			type: 'string',
			default: '',
			placeholder: 'e.g. application/pdf',
			description: "MIME type of the file. Default: the binary's MIME type.",
		},
		{
			displayName: 'Multipart Threshold (MB)',
			name: 'multipartThreshold',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MULTIPART_THRESHOLD_MB,
			description:
				'With Multipart Upload "Auto", files larger than this are sent in parts. 1 MB = 1,048,576 bytes.',
		},
		{
			displayName: 'Multipart Upload',
			name: 'multipart',
			type: 'options',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description: 'In parts when the file is larger than the Multipart Threshold',
				},
				{ name: 'Always', value: 'always', description: 'Always in parts' },
				{ name: 'Never', value: 'never', description: 'Always in one request' },
			],
			default: 'auto',
			description:
				'How the file is sent. Parts are read one at a time from n8n\'s binary storage, so large files need little memory.',
		},
		ocrModelParameter,
		{
			displayName: 'Page Count',
			name: 'pageCount',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'Number of pages, used by the service to check page limits early',
		},
		{
			displayName: 'Part Concurrency',
			name: 'partConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: UPLOAD_LIMITS.maxPartConcurrency, numberPrecision: 0 },
			default: DEFAULT_PART_CONCURRENCY,
			description: 'How many parts of a multipart upload are sent at the same time',
		},
		{
			displayName: 'Part Size (MB)',
			name: 'partSize',
			type: 'number',
			typeOptions: { minValue: UPLOAD_LIMITS.minPartSizeMb, maxValue: UPLOAD_LIMITS.maxPartSizeMb },
			default: DEFAULT_PART_SIZE_MB,
			description:
				'Size of each part of a multipart upload. Memory used while sending is about Part Size x Part Concurrency.',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: PROCESSING_WAIT_LIMITS.minPollIntervalSeconds, numberPrecision: 1 },
			default: DEFAULT_POLL_INTERVAL_SECONDS,
			description:
				'How often to ask for the processing status while waiting for completion (Wait Mode "Poll the Service"). The first checks come sooner (after 1 second, then doubling up to this interval).',
		},
		{
			displayName: 'Split Document',
			name: 'isSplit',
			type: 'boolean',
			default: false,
			description: 'Whether to split a document that holds several documents into separate files',
		},
		{
			displayName: 'Split Excel by Worksheet',
			name: 'isSplitExcel',
			type: 'boolean',
			default: false,
			description: 'Whether to split an Excel file into one file per worksheet',
		},
		{
			displayName: 'Wait Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			typeOptions: { minValue: PROCESSING_WAIT_LIMITS.minWaitTimeoutSeconds },
			default: DEFAULT_WAIT_TIMEOUT_SECONDS,
			description:
				'How long Wait for Completion waits for processing. Polling: status checks and their retries included, then the item fails with its upload ID (continue with Get Upload Status). Callbacks: the longest of the items for the whole run (see the notice above).',
		},
	]),
];

const displayOptions = { show: { resource: ['file'], operation: ['upload'] } };

export const description = updateDisplayOptions(displayOptions, properties);
