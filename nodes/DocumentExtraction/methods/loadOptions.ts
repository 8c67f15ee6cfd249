import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listFileTypes } from '../../shared/api';
import { editorPolicy } from '../../shared/requestPolicy';
import { fileTypeLabel } from '../helpers/fileTypes';
import { queryFieldOptions } from '../helpers/queryFields';

/** The workspace's file types for multi-selects (Query > Document Types), by name. */
export async function getFileTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const fileTypes = await listFileTypes(this, { sortBy: 'name', sortOrder: 'ASC' }, { policy: editorPolicy(this) });
	return fileTypes.map((fileType) => ({
		name: fileTypeLabel(fileType),
		value: String(fileType.id),
		description: typeof fileType.description === 'string' ? fileType.description : undefined,
	}));
}

/**
 * Query > Execute's field pickers: file attributes, then the titles of the fields of the file
 * types chosen in Document Types (every type's when none is chosen), typed and labelled.
 */
export async function getQueryFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const selected = this.getCurrentNodeParameter('documentTypes');
	const chosen = new Set(Array.isArray(selected) ? selected.map(String) : []);
	const fileTypes = await listFileTypes(this, { sortBy: 'name', sortOrder: 'ASC' }, { policy: editorPolicy(this) });
	return queryFieldOptions(fileTypes, chosen);
}
