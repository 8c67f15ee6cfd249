import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiContext } from '../run';
import { apiRequestAllItems, listAt } from '../transport';
import { ENDPOINTS, sendWrite } from './endpoints';
import type { ApiCall, SortOrder, SuccessAnswer, WriteCall } from './types';

/** A file type (docs/dev/api-contract.md#file-types), with its current schema version. */
interface FileType extends IDataObject {
	id?: string;
	name?: string;
	description?: string;
	classId?: string;
	className?: string;
	isDeleted?: boolean;
	isPublished?: boolean;
	mode?: string;
	usageApprovalState?: string;
	currentSchemaVersion?: IDataObject;
	createdAt?: string;
	updatedAt?: string;
}

interface FileTypeListOptions {
	/** Stop after this many file types; undefined reads every page. */
	limit?: number;
	sortBy?: string;
	sortOrder?: SortOrder;
}

/** GET /file-type, every page (page and limit; the cursor mode is not used): lists, pickers and lookups. */
export async function listFileTypes(this: ApiContext, options: FileTypeListOptions, call: ApiCall): Promise<FileType[]> {
	return await apiRequestAllItems.call(
		this,
		{
			...ENDPOINTS.listFileTypes,
			qs: { sortBy: options.sortBy ?? 'createdAt', sortOrder: options.sortOrder ?? 'ASC' },
			...call,
		},
		{ extract: listAt('fileTypes'), limit: options.limit },
	);
}

/** PATCH /file-type/approve body: a file type's schema version. */
export interface FileTypeApproval extends IDataObject {
	blueprintId: string;
	schemaId: string;
}

/** PATCH /file-type/approve. */
export async function approveFileType(
	this: IExecuteFunctions,
	body: FileTypeApproval,
	{ policy }: WriteCall,
): Promise<SuccessAnswer> {
	return (await sendWrite(this, ENDPOINTS.approveFileType, body, policy)).body;
}

/** PATCH /schemas body (deprecated by the API): field definitions, each naming a field by id or title. */
interface SchemaFieldsPatch extends IDataObject {
	schemaId: string;
	fields: IDataObject[];
}

/** PATCH /schemas (deprecated by the API; it will be removed in a future version). */
export async function patchSchemaFields(
	this: IExecuteFunctions,
	body: SchemaFieldsPatch,
	{ policy }: WriteCall,
): Promise<SuccessAnswer> {
	return (await sendWrite(this, ENDPOINTS.patchSchemaFields, body, policy)).body;
}
