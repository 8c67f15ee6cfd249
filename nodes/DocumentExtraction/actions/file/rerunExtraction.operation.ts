import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RerunNotification, RerunOptions, RerunRequest } from '../../../shared/api';
import { rerunExtraction } from '../../../shared/api';
import {
	COMMA_OR_NEW_LINE,
	given,
	requireBoolean,
	requireObjectId,
	requireOneOf,
	requireTextList,
	requireUuid,
} from '../../../shared/parameters';
import { optionsCollection } from '../../../shared/requestOptions';
import { fileIdParameter } from '../../descriptions/common';
import { readFileId } from './records';
import type { ItemPolicy } from '../../../shared/run';

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

const REFERENCE_ENTITY_NAMES = ['FILE', 'SCHEMA'] as const;
const REFERENCE_ENTITY_ACTIONS = ['CREATE', 'DELETE', 'UPDATE'] as const;

/** The completion notification's settings, checked; undefined when none was given. */
function notificationOf(context: IExecuteFunctions, itemIndex: number, options: IDataObject): RerunNotification | undefined {
	const notification: RerunNotification = {};
	if (given(options.shouldSendOnCompletion)) {
		notification.shouldSendOnCompletion = requireBoolean(context, itemIndex, 'Notify on Completion', options.shouldSendOnCompletion);
	}
	if (given(options.referenceEntityName)) {
		notification.referenceEntityName = requireOneOf(
			context,
			itemIndex,
			'Notification Reference Type',
			options.referenceEntityName,
			REFERENCE_ENTITY_NAMES,
		);
	}
	if (given(options.referenceEntityId)) {
		// The id of the file (a UUID) or of the schema (24 hex) the notification refers to.
		const parameter = 'Notification Reference ID';
		notification.referenceEntityId =
			notification.referenceEntityName === 'SCHEMA'
				? requireObjectId(context, itemIndex, parameter, options.referenceEntityId)
				: requireUuid(context, itemIndex, parameter, options.referenceEntityId);
	}
	if (given(options.referenceEntityAction)) {
		notification.referenceEntityAction = requireOneOf(
			context,
			itemIndex,
			'Notification Reference Action',
			options.referenceEntityAction,
			REFERENCE_ENTITY_ACTIONS,
		);
	}
	return Object.keys(notification).length > 0 ? notification : undefined;
}

function rerunOptions(context: IExecuteFunctions, itemIndex: number, options: IDataObject): RerunOptions | undefined {
	const result: RerunOptions = {};
	const fields = requireTextList(
		context,
		itemIndex,
		'Fields to Rerun',
		options.fields,
		COMMA_OR_NEW_LINE,
		'field titles separated by commas or new lines, or an array of titles',
	);
	const paths = fields.map(fieldPointer);
	if (paths.length > 0) result.paths = paths;
	if (options.partialRerun !== undefined) {
		result.partialRerun = requireBoolean(context, itemIndex, 'Only Modified Fields', options.partialRerun);
	}
	const notification = notificationOf(context, itemIndex, options);
	if (notification) result.notification = notification;
	return Object.keys(result).length > 0 ? result : undefined;
}

/** Reruns form filling of a file against its current schema (PATCH /files/schema/rerun). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const backgroundRerun = requireBoolean(
		this,
		itemIndex,
		'Run in Background',
		this.getNodeParameter('backgroundRerun', itemIndex, false),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const body: RerunRequest = { fileId, backgroundRerun };
	const extra = rerunOptions(this, itemIndex, options);
	if (extra) body.rerunOptions = extra;
	const answer = await rerunExtraction(this, body, { policy });
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
