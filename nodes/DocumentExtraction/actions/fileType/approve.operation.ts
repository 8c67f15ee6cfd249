import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { FileTypeApproval } from '../../../shared/api';
import { approveFileType, listFileTypes } from '../../../shared/api';
import { optionsCollection } from '../../../shared/requestOptions';
import { fileTypeLocator } from '../../descriptions/common';
import { currentSchemaIds } from '../../helpers/fileTypes';
import type { ItemPolicy } from '../../../shared/run';
import { requireObjectId, requireOneOf } from '../../../shared/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Approve By',
		name: 'approveBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'File Type',
				value: 'fileType',
				description: 'Choose a file type: its current schema version is approved',
			},
			{
				name: 'Blueprint and Schema IDs',
				value: 'ids',
				description: 'Give the blueprint ID and the schema (version) ID yourself',
			},
		],
		default: 'fileType',
	},
	fileTypeLocator('The file type whose current schema version to approve', { show: { approveBy: ['fileType'] } }),
	{
		displayName: 'Blueprint ID',
		name: 'blueprintId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 6650a00000000000000f0002',
		description: 'The blueprint ID (currentSchemaVersion.blueprintId of File Type > Get Many)',
		displayOptions: { show: { approveBy: ['ids'] } },
	},
	{
		displayName: 'Schema ID',
		name: 'schemaId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 6650a00000000000000c0003',
		description: 'The ID of the schema version to approve (currentSchemaVersion.ID of File Type > Get Many)',
		displayOptions: { show: { approveBy: ['ids'] } },
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['fileType'], operation: ['approve'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The blueprint and schema ids of the chosen file type's current schema version. */
async function idsOfFileType(
	this: IExecuteFunctions,
	policy: ItemPolicy,
): Promise<FileTypeApproval> {
	const { itemIndex } = policy;
	const fileTypeId = requireObjectId(
		this,
		itemIndex,
		'File Type',
		this.getNodeParameter('fileType', itemIndex, '', { extractValue: true }),
	);
	const fileType = (await listFileTypes(this, {}, { policy })).find((type) => type.id === fileTypeId);
	if (!fileType) {
		throw new NodeOperationError(
			this.getNode(),
			`File type ${fileTypeId} (parameter "File Type", item ${itemIndex}) was not found in the workspace of this API key`,
			{ itemIndex, description: 'Choose the file type from the list, or check the ID with File Type > Get Many.' },
		);
	}
	const { blueprintId, schemaId } = currentSchemaIds(fileType);
	if (!blueprintId || !schemaId) {
		throw new NodeOperationError(
			this.getNode(),
			`File type ${fileTypeId} (item ${itemIndex}) has no current schema version to approve`,
			{ itemIndex, description: 'Approve By "Blueprint and Schema IDs" to name the version yourself.' },
		);
	}
	return { fileTypeId, fileTypeName: fileType.name as string, blueprintId, schemaId };
}

/** Outputs { success, blueprintId, schemaId } (and the file type's id and name when chosen). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const approveBy = requireOneOf(this, itemIndex, 'Approve By', this.getNodeParameter('approveBy', itemIndex, 'fileType'), [
		'fileType',
		'ids',
	] as const);
	const chosen: FileTypeApproval =
		approveBy === 'ids'
			? {
					blueprintId: requireObjectId(this, itemIndex, 'Blueprint ID', this.getNodeParameter('blueprintId', itemIndex)),
					schemaId: requireObjectId(this, itemIndex, 'Schema ID', this.getNodeParameter('schemaId', itemIndex)),
				}
			: await idsOfFileType.call(this, policy);
	const body = { blueprintId: chosen.blueprintId, schemaId: chosen.schemaId };
	const response = await approveFileType(this, body, { policy });
	return [{ json: { success: response.success ?? true, ...chosen } }];
}
