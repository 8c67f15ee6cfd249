import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FileType } from '../api';
import { findFileType, getFile, getFormValues, isId } from '../api';
import { SCHEMA_LIMITS } from '../limits';
import type { ApiContext, RequestPolicy } from '../run';
import type { SchemaField } from './fields';
import { readFields, withSchemaDetails } from './fields';

/**
 * Where a file's fields come from: the file's own values (the titles and kinds a write names),
 * with the allowed values and read-only marks of its file type's schema; or a file type's current
 * schema. Used by the editor's field mapper (one bounded chain of requests per lookup, through the
 * editor's request policy) and by Update Values before it writes (the item's policy).
 *
 * Cached per node run, as far as that is honest: what a run looks up about file types (a schema's
 * fields, a file's schema ID) is kept in a map that belongs to the run's n8n context and dies with
 * it, at most SCHEMA_LIMITS.runCacheEntries entries, shared by the run's items. A file's own
 * fields are read for every item (they are what the write is checked against). n8n gives editor
 * lookups a fresh context each time, so there nothing outlives one lookup.
 */

const runCaches = new WeakMap<ApiContext, Map<string, Promise<unknown>>>();

async function cached<T>(context: ApiContext, key: string, compute: () => Promise<T>): Promise<T> {
	let cache = runCaches.get(context);
	if (!cache) {
		cache = new Map();
		runCaches.set(context, cache);
	}
	const known = cache.get(key) as Promise<T> | undefined;
	if (known) {
		try {
			return await known;
		} catch {
			// Another item's lookup failed (its error names that item): this item asks for itself.
			return await compute();
		}
	}
	const pending = compute();
	if (cache.size < SCHEMA_LIMITS.runCacheEntries) {
		cache.set(key, pending);
		// A failure is the item's: the next item asks again.
		pending.catch(() => cache.delete(key));
	}
	return await pending;
}

function currentVersion(fileType: FileType): IDataObject {
	const version = fileType.currentSchemaVersion;
	return version && typeof version === 'object' && !Array.isArray(version) ? version : {};
}

/** The fields of the file type whose current schema version is `schemaId`; none when no file type has it (an older version). */
async function fieldsOfSchema(context: ApiContext, schemaId: string, policy: RequestPolicy): Promise<SchemaField[]> {
	return await cached(context, `schema ${schemaId}`, async () => {
		const fileType = await findFileType(context, (candidate) => currentVersion(candidate).id === schemaId, { policy });
		return fileType ? readFields(currentVersion(fileType).fields) : [];
	});
}

/** The file's schema ID (its file record's schemaId), when it is one. */
async function schemaIdOfFile(context: ApiContext, fileId: string, policy: RequestPolicy): Promise<string | undefined> {
	return await cached(context, `file ${fileId}`, async () => {
		const file = await getFile(context, fileId, { policy });
		return typeof file.schemaId === 'string' && isId(file.schemaId, 'objectId') ? file.schemaId : undefined;
	});
}

/**
 * The file's fields: those of its values (GET /files/{fileId}/values, its first form), with the
 * allowed values and read-only marks of its file type (GET /files for its schemaId, then the file
 * types until the one whose current schema version it is). Fails when the file has no values yet.
 */
export async function fileFields(context: ApiContext, fileId: string, policy: RequestPolicy): Promise<SchemaField[]> {
	const forms = await getFormValues(context, fileId, { policy, idSource: { what: 'file ID', source: 'The File parameter' } });
	if (forms.length === 0 || !Array.isArray(forms[0].fields)) {
		throw new NodeOperationError(context.getNode(), `File ${fileId} has no extracted values yet`, {
			itemIndex: policy.itemIndex,
			description: 'Its fields are known once the service has processed it: wait for processing (Upload with Wait for Completion), or choose the fields of a file type.',
		});
	}
	const own = readFields(forms[0].fields);
	const schemaId = await schemaIdOfFile(context, fileId, policy);
	return schemaId ? withSchemaDetails(own, await fieldsOfSchema(context, schemaId, policy)) : own;
}

/** The fields of the file type `fileTypeId`'s current schema version; fails when the workspace has no such file type. */
export async function fileTypeFields(context: ApiContext, fileTypeId: string, policy: RequestPolicy): Promise<SchemaField[]> {
	return await cached(context, `file type ${fileTypeId}`, async () => {
		const fileType = await findFileType(context, (candidate) => candidate.id === fileTypeId, { policy });
		if (!fileType) {
			throw new NodeOperationError(context.getNode(), `File type ${fileTypeId} was not found in this workspace`, {
				itemIndex: policy.itemIndex,
				description: 'Choose the file type from the list (the API key decides the workspace).',
			});
		}
		return readFields(currentVersion(fileType).fields);
	});
}
