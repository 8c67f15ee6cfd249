import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { requireObjectId, requireUuid } from '../../shared/parameters';
import { editorPolicy } from '../../shared/requestPolicy';
import { fileFields, fileTypeFields, mapperFields } from '../../shared/schema';

/**
 * Update Values' field mapper (n8n's resource mapper, typeVersion 2): the fields of the chosen
 * file (its values, with its file type's choices and read-only marks) or of a file type's current
 * schema, typed (nodes/shared/schema/mapperFields.ts). One bounded chain of requests through the
 * editor's request policy each time the editor asks (n8n then keeps the list in the node, and asks
 * again when the node is opened, to see whether it changed).
 */

/** A parameter as the editor resolved it (an ID, or '' when none is chosen yet). */
function chosen(context: ILoadOptionsFunctions, name: string): string {
	const value = context.getNodeParameter(name, '', { extractValue: true });
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

const FROM_EXPRESSION = 'When the File comes from an expression, set Fields From to "A File Type".';

export async function getMappingFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const includeHidden = this.getNodeParameter('includeHidden', false) === true;
	const policy = editorPolicy(this);
	if (this.getNodeParameter('fieldsFrom', 'file') === 'fileType') {
		const fileType = chosen(this, 'fileType');
		if (!fileType) return { fields: [], emptyFieldsNotice: 'Choose a file type to see its fields' };
		const fields = await fileTypeFields(this, requireObjectId(this, undefined, 'File Type', fileType), policy);
		return { fields: mapperFields(this.getNode(), fields, { includeHidden, source: 'file type' }) };
	}
	const file = chosen(this, 'fileId');
	if (!file || file.startsWith('=')) return { fields: [], emptyFieldsNotice: `Choose a file to see its fields. ${FROM_EXPRESSION}` };
	const fields = await fileFields(this, requireUuid(this, undefined, 'File', file), policy);
	return { fields: mapperFields(this.getNode(), fields, { includeHidden, source: 'file' }) };
}
