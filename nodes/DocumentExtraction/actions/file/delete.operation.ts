import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DeleteFilesAnswer } from '../../../shared/api';
import { deleteFiles } from '../../../shared/api';
import { ITEM_LIMITS } from '../../../shared/limits';
import { optionsCollection } from '../../../shared/requestOptions';
import type { ItemPolicy } from '../../../shared/run';
import { invalidParameter, requireIdList } from '../../../shared/parameters';

/** The API's recommended maximum of files per DELETE /files request. */
const DELETE_BATCH_SIZE = ITEM_LIMITS.deleteBatchSize;

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting a file is permanent: the file and its extracted values cannot be restored',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'File IDs',
		name: 'fileIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, 9a1d…',
		description:
			'The files to delete: UUIDs separated by commas, spaces or new lines, or an expression that returns an array of IDs',
		hint: 'More than 100 IDs are sent in batches of 100. The output has one item per file ID, saying whether it was deleted.',
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['file'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface DeleteResult extends IDataObject {
	fileId: string;
	deleted: boolean;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Reads what one successful (2xx) DELETE /files answer says about each id of its batch.
 * `{ success: true }` means all were deleted. A partial failure lists the failed files in
 * `errors` (each with its `fileId`, a `code` and a `detail`): those were not deleted and every
 * id it does not mention was. `deletedFileIds`, when given, confirms deletions. Only an answer
 * that says it failed without naming any file leaves the batch's ids not deleted.
 */
function batchOutcome(batch: string[], body: DeleteFilesAnswer): DeleteResult[] {
	const failures = new Map<string, IDataObject>();
	for (const entry of Array.isArray(body.errors) ? (body.errors as IDataObject[]) : []) {
		const fileId = text(entry?.fileId) ?? text(entry?.id);
		if (fileId) failures.set(fileId.toLowerCase(), entry);
	}
	const confirmed = Array.isArray(body.deletedFileIds)
		? new Set((body.deletedFileIds as unknown[]).map((id) => String(id).toLowerCase()))
		: undefined;
	const reportedFailure = body.success === false;
	const unexplained =
		reportedFailure && failures.size === 0
			? (text(body.detail) ?? text(body.message) ?? 'The API reported a failure without details')
			: undefined;

	return batch.map((fileId): DeleteResult => {
		const failure = failures.get(fileId.toLowerCase());
		if (failure) {
			return {
				fileId,
				deleted: false,
				error: text(failure.detail) ?? text(failure.message) ?? text(failure.code) ?? 'Not deleted',
				...(text(failure.code) ? { errorCode: text(failure.code) } : {}),
			};
		}
		if (unexplained && !confirmed?.has(fileId.toLowerCase())) {
			return { fileId, deleted: false, error: unexplained };
		}
		return { fileId, deleted: true };
	});
}

/**
 * Deletes the files of one item in batches of at most 100, each batch with its own
 * Idempotency-Key (the same on every retry of that batch, so a retry never acts twice). Outputs
 * one item per file ID. A batch that fails before any file of the item was deleted fails the
 * item; once files were deleted, a failed batch is reported on its files instead, so the output
 * always says exactly which files are gone.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const rawIds = this.getNodeParameter('fileIds', itemIndex, '');
	const fileIds = requireIdList(this, itemIndex, 'File IDs', rawIds, 'uuid');
	if (fileIds.length === 0) {
		throw invalidParameter(this, itemIndex, 'File IDs', rawIds, 'at least one file UUID');
	}

	const results: DeleteResult[] = [];
	let anyDeleted = false;
	for (let start = 0; start < fileIds.length; start += DELETE_BATCH_SIZE) {
		const batch = fileIds.slice(start, start + DELETE_BATCH_SIZE);
		const outcome = await deleteFiles(this, batch, { policy })
			// The failure (always a NodeApiError or NodeOperationError from the transport) is kept
			// as a value: after files were deleted, it is reported on the files of this batch.
			.then(
				(answer) => ({ answer, failure: undefined }),
				(failure: NodeApiError | NodeOperationError) => ({ answer: undefined, failure }),
			);
		if (outcome.answer) {
			const outcomes = batchOutcome(batch, outcome.answer);
			results.push(...outcomes);
			anyDeleted ||= outcomes.some((result) => result.deleted);
			continue;
		}
		if (!anyDeleted) throw outcome.failure;
		const reason = outcome.failure.message;
		results.push(...batch.map((fileId) => ({ fileId, deleted: false, error: reason })));
	}
	return results.map((json) => ({ json }));
}
