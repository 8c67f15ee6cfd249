import type { ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { SCHEMA_LIMITS } from '../../shared/limits';
import { requireObjectId, requireUuid } from '../../shared/parameters';
import { editorPolicy } from '../../shared/requestPolicy';
import { fileFields, fileTypeFields, mapperFields, savedFieldsById } from '../../shared/schema';

/**
 * Update Values' field mapper (n8n's resource mapper, typeVersion 2): the fields of the chosen
 * file (its values, with its file type's choices and read-only marks; each field offered with the
 * file's current value as its start value) or of a file type's current schema, typed
 * (nodes/shared/schema/mapperFields.ts). One bounded chain of requests through the editor's
 * request policy each time the editor asks (n8n then keeps the list in the node, and asks again
 * when the node is opened, to see whether it changed).
 *
 * When the editor cannot know the source (the File is an expression with no value in the editor,
 * or nothing is chosen yet) the answer is the field list the node has saved, unchanged, with a
 * notice that says what to pick: an empty answer would mark the saved list stale, and the
 * editor's Refresh would then drop every mapped value. The parameters hide n8n's red "no fields"
 * line (`hideNoDataError`, as n8n's Data Table node does), so an empty list reads as the notice.
 */

/** A parameter as the editor resolved it (an ID; '' when none is chosen yet or an expression has no value in the editor). */
function chosen(context: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = context.getNodeParameter(name, '', { extractValue: true });
	} catch {
		// An expression n8n cannot resolve without input data: no value in the editor.
		return '';
	}
	const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
	return text.startsWith('=') ? '' : text;
}

/** The field list the node has saved (Values to Update's schema), as the editor saved it. */
function savedFields(context: ILoadOptionsFunctions): ResourceMapperField[] {
	const columns = context.getCurrentNodeParameter('columns');
	const schema = columns && typeof columns === 'object' ? (columns as { schema?: unknown }).schema : undefined;
	return [...savedFieldsById(schema).values()].slice(0, SCHEMA_LIMITS.maxMapperFields) as unknown as ResourceMapperField[];
}

/** The saved list, kept, with what to pick. */
function nothingToRead(context: ILoadOptionsFunctions, notice: string): ResourceMapperFields {
	return { fields: savedFields(context), emptyFieldsNotice: notice };
}

const CHOOSE_FILE =
	'Choose a file to see its fields. When the File is an expression (it has no value here until the node before this one has run), set Fields From to "A File Type" and choose the file type of the files it brings: each file is checked against its own fields when the node runs.';
const CHOOSE_FILE_TYPE = 'Choose a file type to see its fields';
const NO_FILE_FIELDS =
	'The file has no fields to change (its extracted values hold none, or only hidden ones: turn on Include Hidden Fields). Choose another file, or set Fields From to "A File Type".';
const NO_FILE_TYPE_FIELDS = "The file type's current schema has no fields (or only hidden ones: turn on Include Hidden Fields).";

export async function getMappingFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const includeHidden = this.getNodeParameter('includeHidden', false) === true;
	const policy = editorPolicy(this);
	if (this.getNodeParameter('fieldsFrom', 'file') === 'fileType') {
		const fileType = chosen(this, 'fileType');
		if (!fileType) return nothingToRead(this, CHOOSE_FILE_TYPE);
		const fields = await fileTypeFields(this, requireObjectId(this, undefined, 'File Type', fileType), policy);
		const listed = mapperFields(this.getNode(), fields, { includeHidden, source: 'file type' });
		return listed.length ? { fields: listed } : { fields: [], emptyFieldsNotice: NO_FILE_TYPE_FIELDS };
	}
	const file = chosen(this, 'fileId');
	if (!file) return nothingToRead(this, CHOOSE_FILE);
	const fields = await fileFields(this, requireUuid(this, undefined, 'File', file), policy);
	const listed = mapperFields(this.getNode(), fields, { includeHidden, source: 'file' });
	return listed.length ? { fields: listed } : { fields: [], emptyFieldsNotice: NO_FILE_FIELDS };
}
