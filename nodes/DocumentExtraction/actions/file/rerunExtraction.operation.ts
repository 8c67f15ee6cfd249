import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fileIdParameter, optionsCollection } from '../../descriptions/common';
import { COMMA_OR_NEW_LINE, splitList } from '../../helpers/lists';
import { apiRequest, idempotencyKey } from '../../transport';
import { readFileId } from './records';

const properties: INodeProperties[] = [
	{ ...fileIdParameter, description: 'The file to extract again' },
	{
		displayName: 'Run in Background',
		name: 'backgroundRerun',
		type: 'boolean',
		default: false,
		description:
			'Whether the service reruns the extraction in the background and the node continues at once. When off, the node waits until the rerun is done, so the next node can read the new values.',
	},
	optionsCollection([
		{
			displayName: 'Fields to Rerun',
			name: 'fields',
			type: 'string',
			default: '',
			placeholder: 'e.g. Total Amount, Due Date',
			description:
				'Only rerun these fields: titles separated by commas or new lines, or an expression that returns an array. A title becomes the pointer /Title; a value starting with / is used as a pointer as it is. Empty reruns every field.',
		},
		{
			displayName: 'Only Modified Fields',
			name: 'partialRerun',
			type: 'boolean',
			default: false,
			description:
				'Whether to rerun only the fields whose schema definition changed (partial rerun) instead of all fields',
		},
		{
			displayName: 'Notify on Completion',
			name: 'shouldSendOnCompletion',
			type: 'boolean',
			default: false,
			description:
				"Whether the service calls the file's callback URL (or the API key's default) when the rerun is done",
		},
		{
			displayName: 'Notification Reference Type',
			name: 'referenceEntityName',
			type: 'options',
			options: [
				{ name: 'File', value: 'FILE' },
				{ name: 'Schema', value: 'SCHEMA' },
			],
			default: 'FILE',
			description: 'What the completion notification refers to',
		},
		{
			displayName: 'Notification Reference ID',
			name: 'referenceEntityId',
			type: 'string',
			default: '',
			description: 'The ID of the file or schema the notification refers to (the file when empty)',
		},
		{
			displayName: 'Notification Reference Action',
			name: 'referenceEntityAction',
			type: 'options',
			options: [
				{ name: 'Create', value: 'CREATE' },
				{ name: 'Delete', value: 'DELETE' },
				{ name: 'Update', value: 'UPDATE' },
			],
			default: 'UPDATE',
			description: 'The action the completion notification reports',
		},
	]),
];

const displayOptions = { show: { resource: ['file'], operation: ['rerunExtraction'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** A field title as a JSON Pointer (`/Title`, with `~` and `/` escaped); pointers stay as they are. */
function fieldPointer(field: string): string {
	return field.startsWith('/') ? field : `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const NOTIFICATION_KEYS = [
	'shouldSendOnCompletion',
	'referenceEntityName',
	'referenceEntityId',
	'referenceEntityAction',
] as const;

function rerunOptions(options: IDataObject): IDataObject | undefined {
	const result: IDataObject = {};
	const paths = splitList(options.fields, COMMA_OR_NEW_LINE).map(fieldPointer);
	if (paths.length > 0) result.paths = paths;
	if (options.partialRerun !== undefined) result.partialRerun = options.partialRerun === true;
	const notification: IDataObject = {};
	for (const key of NOTIFICATION_KEYS) {
		const value = options[key];
		if (value !== undefined && value !== '') notification[key] = value;
	}
	if (Object.keys(notification).length > 0) result.notification = notification;
	return Object.keys(result).length > 0 ? result : undefined;
}

/** Reruns form filling of a file against its current schema (PATCH /files/schema/rerun). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const backgroundRerun = this.getNodeParameter('backgroundRerun', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const body: IDataObject = { fileId, backgroundRerun };
	const extra = rerunOptions(options);
	if (extra) body.rerunOptions = extra;
	const answer = await apiRequest.call(this, {
		method: 'PATCH',
		path: '/files/schema/rerun',
		body,
		idempotencyKey: idempotencyKey(this, itemIndex, 'file.rerunExtraction', body),
		itemIndex,
	});
	return [
		{
			json: {
				fileId,
				success: answer.success !== false,
				backgroundRerun,
				...(extra?.paths ? { paths: extra.paths } : {}),
			},
		},
	];
}
