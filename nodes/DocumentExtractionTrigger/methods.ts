import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listFileTypes } from '../shared/api';
import { editorPolicy } from '../shared/requestPolicy';

/**
 * The workspace's file types for the File Types filter. The value is the class name a processed
 * file carries in its `fileClass` field (the type's className, else its name).
 */
export async function getFileClasses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const options = new Map<string, INodePropertyOptions>();
	for (const fileType of await listFileTypes(this, {}, { policy: editorPolicy(this) })) {
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
