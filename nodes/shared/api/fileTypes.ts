import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ANSWER_LIMITS, SCHEMA_LIMITS } from '../limits';
import { PagingGuard, pagingNodeError, walkPages } from '../paging';
import type { ApiContext } from '../run';
import { apiRequest, apiRequestAllItems, listAt } from '../transport';
import { ENDPOINTS, sendWrite } from './endpoints';
import type { ApiCall, SortOrder, SuccessAnswer, WriteCall } from './types';

/** A file type (docs/dev/api-contract.md#file-types), with its current schema version. */
export interface FileType extends IDataObject {
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
export async function listFileTypes(context: ApiContext, options: FileTypeListOptions, call: ApiCall): Promise<FileType[]> {
	return await apiRequestAllItems(
		context,
		{
			...ENDPOINTS.listFileTypes,
			qs: { sortBy: options.sortBy ?? 'createdAt', sortOrder: options.sortOrder ?? 'ASC' },
			...call,
		},
		{ extract: listAt('fileTypes'), limit: options.limit },
	);
}

/**
 * GET /file-type, page after page (SCHEMA_LIMITS.fileTypeLookupPageSize a page: each file type
 * carries its whole field list), until a file type `matches`: the first match, or undefined when
 * the list ends without one. There is no endpoint for one file type. Through the paging guard,
 * as every list.
 */
export async function findFileType(
	context: ApiContext,
	matches: (fileType: FileType) => boolean,
	call: ApiCall,
): Promise<FileType | undefined> {
	const pageSize = SCHEMA_LIMITS.fileTypeLookupPageSize;
	const extract = listAt('fileTypes');
	const guard = new PagingGuard<IDataObject>({
		list: ENDPOINTS.listFileTypes.path,
		pageSize,
		maxRequests: ANSWER_LIMITS.maxPagesWithoutTotal,
		idOf: (fileType) => (typeof fileType.id === 'string' ? fileType.id : undefined),
		whatToDo: 'Try again later, or report it to the service.',
		fail: (problem) => pagingNodeError(context.getNode(), problem, call.policy.itemIndex),
	});
	let found: FileType | undefined;
	await walkPages(
		guard,
		async (page) =>
			extract(
				await apiRequest(context, {
					...ENDPOINTS.listFileTypes,
					qs: { sortBy: 'createdAt', sortOrder: 'ASC', page, limit: pageSize },
					...call,
				}),
			),
		{
			onPage: (fresh) => {
				found = fresh.find((fileType) => matches(fileType as FileType)) as FileType | undefined;
				return found !== undefined;
			},
		},
	);
	return found;
}

/** PATCH /file-type/approve body: a file type's schema version. */
export interface FileTypeApproval extends IDataObject {
	blueprintId: string;
	schemaId: string;
}

/** PATCH /file-type/approve. */
export async function approveFileType(
	context: IExecuteFunctions,
	body: FileTypeApproval,
	{ policy }: WriteCall,
): Promise<SuccessAnswer> {
	return (await sendWrite(context, ENDPOINTS.approveFileType, body, policy)).body;
}

/** PATCH /schemas body (deprecated by the API): field definitions, each naming a field by id or title. */
interface SchemaFieldsPatch extends IDataObject {
	schemaId: string;
	fields: IDataObject[];
}

/** PATCH /schemas (deprecated by the API; it will be removed in a future version). */
export async function patchSchemaFields(
	context: IExecuteFunctions,
	body: SchemaFieldsPatch,
	{ policy }: WriteCall,
): Promise<SuccessAnswer> {
	return (await sendWrite(context, ENDPOINTS.patchSchemaFields, body, policy)).body;
}
