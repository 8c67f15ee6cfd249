import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listFileTypes } from '../../shared/api';
import { editorPolicy } from '../../shared/requestPolicy';
import { fileTypeLabel } from '../helpers/fileTypes';

/** The workspace's file types for multi-selects (Query > Document Types), by name. */
export async function getFileTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const fileTypes = await listFileTypes.call(this, { sortBy: 'name', sortOrder: 'ASC' }, { policy: editorPolicy(this) });
	return fileTypes.map((fileType) => ({
		name: fileTypeLabel(fileType),
		value: String(fileType.id),
		description: typeof fileType.description === 'string' ? fileType.description : undefined,
	}));
}
