import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequestAllItems, listAt } from '../DocumentExtraction/transport';

/**
 * The workspace's file types for the File Types filter. The value is the class name a processed
 * file carries in its `fileClass` field (the type's className, else its name).
 */
export async function getFileClasses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const fileTypes = await apiRequestAllItems.call(
		this,
		{ method: 'GET', path: '/file-type', qs: { sortBy: 'createdAt', sortOrder: 'ASC' } },
		{ extract: listAt('fileTypes') },
	);
	const options = new Map<string, INodePropertyOptions>();
	for (const fileType of fileTypes as IDataObject[]) {
		if (fileType.isDeleted === true) continue;
		const value = String(fileType.className || fileType.name || '').trim();
		if (value === '' || options.has(value)) continue;
		const name = String(fileType.name || value);
		options.set(value, {
			name: name === value ? name : `${name} (${value})`,
			value,
			description: typeof fileType.description === 'string' ? fileType.description : undefined,
		});
	}
	return [...options.values()].sort((left, right) => left.name.localeCompare(right.name));
}
