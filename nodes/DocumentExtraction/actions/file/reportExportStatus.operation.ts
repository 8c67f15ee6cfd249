import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ExportStatus, ExportStatusReport } from '../../../shared/api';
import { reportExportStatus } from '../../../shared/api';
import { NEW_LINE, requireOneOf, requireTextList } from '../../../shared/parameters';
import { optionsCollection } from '../../../shared/requestOptions';
import { fileIdParameter } from '../../descriptions/common';
import { readFileId } from './records';
import type { ItemPolicy } from '../../../shared/run';

const EXPORT_STATUSES: readonly ExportStatus[] = ['completed', 'empty', 'error', 'exporting'];

const properties: INodeProperties[] = [
	{ ...fileIdParameter, description: 'The file whose export to report' },
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{
				name: 'Completed',
				value: 'completed',
				description: 'Your system processed the file',
			},
			{
				name: 'Empty (Clear Status)',
				value: 'empty',
				description: 'Reset the export status',
			},
			{
				name: 'Error',
				value: 'error',
				description: 'Your system failed to process the file',
			},
			{
				name: 'Exporting',
				value: 'exporting',
				description: 'The export is queued or in progress',
			},
		],
		default: 'completed',
		description: 'The export status to show for the file in the service',
	},
	optionsCollection([
		{
			displayName: 'Messages',
			name: 'messages',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'e.g. Booked as invoice 2024-118',
			description:
				'Messages shown with the status, one per line, or an expression that returns an array of texts',
		},
	]),
];

const displayOptions = { show: { resource: ['file'], operation: ['reportExportStatus'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Reports what the user's own system did with a file (PATCH /files/{fileId}). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	const rawStatus = this.getNodeParameter('status', itemIndex);
	const status = requireOneOf(
		this,
		itemIndex,
		'Status',
		typeof rawStatus === 'string' ? rawStatus.toLowerCase() : rawStatus,
		EXPORT_STATUSES,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const body: ExportStatusReport = { integrationExportStatus: status };
	const messages = requireTextList(
		this,
		itemIndex,
		'Messages',
		options.messages,
		NEW_LINE,
		'messages, one per line, or an array of texts',
	);
	if (messages.length > 0) body.integrationExportMessages = messages;
	const answer = await reportExportStatus(this, fileId, body, { policy });
	const exportInfo = answer.exportInfo ?? {};
	return [
		{
			json: {
				fileId: answer.fileId ?? fileId,
				integrationExportStatus: exportInfo.integrationExportStatus ?? status,
				integrationExportMessages: exportInfo.integrationExportMessages ?? null,
				integrationExportUpdatedAt: exportInfo.integrationExportUpdatedAt ?? null,
			},
		},
	];
}
