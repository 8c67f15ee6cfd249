import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { FileRecord, UploadStatus } from '../shared/api';
import { FILE_PAGE_SIZE, getUploadStatus, isId, listFiles } from '../shared/api';
import { asNodeError } from '../shared/nodeError';
import type { Deadline, RequestPolicy } from '../shared/run';
import { readUploadStatus } from '../shared/uploadStatus';
import type { CallbackHint, Verdict } from '../shared/callbacks';
import { RETRY_LATER } from '../shared/callbacks';
import type { CallbackSettings } from './settings';

/** What a checked callback emits: processed files (their list records), failed files, or a step. */
export interface Emission {
	processed: FileRecord[];
	failed: IDataObject[];
	steps: IDataObject[];
}

export interface CheckedVerdict extends Verdict {
	emission?: Emission;
	/** A file of the upload (its status's first file with a UUID id): where a claim across processes is written. */
	claimFileId?: string;
}

function firstFileId(status: UploadStatus): string | undefined {
	const files = Array.isArray(status.files) ? status.files : [];
	const file = files.find((entry) => entry !== null && typeof entry === 'object' && isId(entry.fileId, 'uuid'));
	return file ? String(file.fileId) : undefined;
}

/** The key under which a callback is handled once: an upload's outcome, or one of its steps. */
export function keyOf(hint: CallbackHint): string {
	return hint.kind === 'step' ? `s:${hint.uploadId}:${hint.step ?? ''}` : `u:${hint.uploadId}`;
}

function ignored(reason: string, handled = false): CheckedVerdict {
	return { status: 200, body: { received: true, outcome: 'ignored', reason }, handled };
}

/** The request policies of a call (requestPolicy.ts, callbackPolicy): the first request, then those after the API confirmed the upload. */
export interface CallPolicies {
	check: RequestPolicy;
	confirmed: RequestPolicy;
}

/**
 * Asks the API about the upload a callback names and decides what the call emits. Nothing of the
 * body but the upload id (checked) and the step name is used: the outcome, the files and their
 * records are the API's. Every request carries `deadline` (the time left to answer the call). The
 * status request is made once, never repeated (`policies.check`): whoever sent the call, it costs
 * at most one request until the API has confirmed the upload.
 * - The API does not know the upload (404, or another 4xx than 401, 403, 429): 404, nothing emitted:
 *   a forged callback, or an upload of another key's workspace.
 * - The API cannot be asked now (5xx, 429, network, 401/403, no time left): 503, so that the service
 *   calls again; nothing is remembered.
 * - An outcome the API does not confirm yet (still processing): 503 too; a forged "completed" for
 *   a real upload never emits, and a true one is emitted when the service calls again.
 */
export async function checkCallback(
	context: IWebhookFunctions,
	hint: CallbackHint,
	settings: CallbackSettings,
	policies: CallPolicies,
	deadline: Deadline,
): Promise<CheckedVerdict> {
	let status: UploadStatus;
	try {
		status = await getUploadStatus(context, hint.uploadId, {
			policy: policies.check,
			deadline,
			idSource: { what: 'upload ID', source: 'The callback' },
		});
	} catch (error) {
		return failedCheck(context, hint, error);
	}
	if (hint.kind === 'step') return { ...stepVerdict(hint, status), claimFileId: firstFileId(status) };
	const progress = readUploadStatus(status, false);
	if (progress.state === 'processing') {
		return {
			status: RETRY_LATER,
			body: { received: true, outcome: 'retryLater', reason: 'The API does not show this upload as finished yet' },
			handled: false,
		};
	}
	const processedRecords = settings.events.has('fileProcessed') ? progress.processed.map(({ file }) => file as FileRecord) : [];
	let processed: FileRecord[];
	try {
		processed = await listRecords(context, processedRecords, policies.confirmed, deadline);
	} catch (error) {
		return failedCheck(context, hint, error);
	}
	const failed = settings.events.has('processingFailed') ? failedItems(hint.uploadId, status, progress) : [];
	if (processed.length + failed.length === 0) return ignored('Nothing the trigger is set to emit: no processed file asked for', true);
	return {
		status: 200,
		body: { received: true, outcome: 'emitted', items: processed.length + failed.length },
		handled: true,
		emission: { processed, failed, steps: [] },
		claimFileId: firstFileId(status),
	};
}

/** A step the API lists for the upload; a step it does not list is not emitted. */
function stepVerdict(hint: CallbackHint, status: UploadStatus): CheckedVerdict {
	const steps = Array.isArray(status.statuses) ? status.statuses : [];
	const record = steps.find((step) => step !== null && typeof step === 'object' && step.step === hint.step);
	if (!record) return ignored('The API does not list this step for the upload');
	return {
		status: 200,
		body: { received: true, outcome: 'emitted', items: 1 },
		handled: true,
		emission: {
			processed: [],
			failed: [],
			steps: [
				{
					uploadId: hint.uploadId,
					step: hint.step,
					status: 'waiting',
					stepStatus: record.status,
					timestamp: record.timestamp,
					statuses: steps,
				},
			],
		},
	};
}

/**
 * The list records (GET /files, as the polling trigger emits them) of the processed files, in the
 * order of the upload's status, a request per 100 files. A file the list does not give (a list
 * that lags behind, an id that is not a UUID) is emitted with its record from the upload's status.
 */
async function listRecords(
	context: IWebhookFunctions,
	files: FileRecord[],
	policy: RequestPolicy,
	deadline: Deadline,
): Promise<FileRecord[]> {
	const ids = [...new Set(files.map((file) => file.fileId).filter((id) => isId(id, 'uuid')))];
	const listed = new Map<string, FileRecord>();
	for (let start = 0; start < ids.length; start += FILE_PAGE_SIZE) {
		const fileIds = ids.slice(start, start + FILE_PAGE_SIZE);
		const asked = new Set(fileIds);
		const page = await listFiles(context, { fileIds, page: 1, limit: FILE_PAGE_SIZE }, { policy, deadline });
		for (const file of page.files) if (asked.has(file.fileId)) listed.set(file.fileId, file);
	}
	const seen = new Set<unknown>();
	const records: FileRecord[] = [];
	for (const file of files) {
		if (seen.has(file.fileId)) continue;
		seen.add(file.fileId);
		records.push(listed.get(file.fileId) ?? file);
	}
	return records;
}

/** One item per file that failed, from the upload's status (the API lists only processed files). */
function failedItems(uploadId: string, status: UploadStatus, progress: ReturnType<typeof readUploadStatus>): IDataObject[] {
	if (progress.isZip) {
		const members = progress.failed.map((member) => ({
			fileName: member.fileName,
			fileType: member.fileType,
			status: 'failed',
			errorReason: member.errorReason,
			step: member.step,
			uploadId: member.uploadId ?? uploadId,
			zipUploadId: uploadId,
		}));
		if (members.length > 0 || progress.state !== 'failed') return members;
		return [{ status: 'failed', errorReason: progress.errorReason, uploadId }];
	}
	if (progress.state !== 'failed') return [];
	const files = (Array.isArray(status.files) ? status.files : []).filter((file) => file !== null && typeof file === 'object');
	if (files.length === 0) return [{ status: 'failed', errorReason: progress.errorReason, step: progress.lastStep, uploadId }];
	return files.map((file) => ({ ...file, status: 'failed', errorReason: file.errorReason ?? progress.errorReason, uploadId }));
}

function httpStatusOf(error: unknown): number | undefined {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	const status = typeof code === 'string' ? Number(code) : Number.NaN;
	return Number.isInteger(status) ? status : undefined;
}

function failedCheck(context: IWebhookFunctions, hint: CallbackHint, error: unknown): CheckedVerdict {
	const status = httpStatusOf(error);
	const message = asNodeError(context, error).message;
	if (status !== undefined && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) {
		context.logger.warn(
			`Document Extraction Callback Trigger "${context.getNode().name}": a callback named upload ${hint.uploadId}, which the API does not know for this credential (${message}). Nothing was emitted. If the uploads are yours, the trigger's credential must be the key that uploads (its workspace).`,
		);
		return { status: 404, body: { received: true, outcome: 'unknownUpload', reason: 'The API does not know this upload for the trigger\'s key' }, handled: false };
	}
	context.logger.warn(
		`Document Extraction Callback Trigger "${context.getNode().name}": the callback for upload ${hint.uploadId} could not be checked through the API, answered 503 so that the service calls again. Cause: ${message}`,
	);
	return { status: RETRY_LATER, body: { received: true, outcome: 'retryLater', reason: 'The trigger could not check this callback through the API in time' }, handled: false };
}
