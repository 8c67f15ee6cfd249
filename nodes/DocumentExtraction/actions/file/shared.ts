import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadProgress } from '../../helpers/uploadStatus';
import { readUploadStatus } from '../../helpers/uploadStatus';
import type { Deadline } from '../../transport';
import { apiRequest, trimTrailingStops, cancelledError, isCancelled, isEndedByDeadline, pause, waitClock } from '../../transport';

/** Steps of the File resource that several operations share. */

export async function getUploadStatus(
	this: IExecuteFunctions,
	uploadId: string,
	itemIndex: number,
	deadline?: Deadline,
): Promise<IDataObject> {
	return await apiRequest.call(this, {
		method: 'GET',
		path: `/uploads/${encodeURIComponent(uploadId)}`,
		itemIndex,
		deadline,
	});
}

/**
 * Whether the bytes of an upload already reached the service. Asked before sending them when the
 * upload (or multipart initiation) request was answered as a replay of an earlier attempt, which
 * happens when the same stored execution runs again (n8n's Retry On Fail, a queue-mode worker
 * taking over a stalled job): the presigned URL can be used more than once, and a second PUT
 * would make a second document. The service records a step once the bytes arrive.
 */
export async function bytesAlreadyArrived(this: IExecuteFunctions, uploadId: string, itemIndex: number): Promise<boolean> {
	const status = await getUploadStatus.call(this, uploadId, itemIndex);
	const steps = Array.isArray(status.statuses) ? status.statuses : [];
	const files = Array.isArray(status.files) ? status.files : [];
	return steps.length > 0 || files.length > 0;
}

/** The API answered with the stored answer of an earlier request with the same Idempotency-Key. */
export function isReplayed(headers: IDataObject): boolean {
	return String(headers['idempotent-replayed'] ?? '').toLowerCase() === 'true';
}

const FIRST_STATUS_CHECK_MS = 1000;
/** The last status check of a wait gets at least this much of the Wait Timeout. */
const LAST_STATUS_CHECK_MS = 1000;

export interface WaitOptions {
	uploadId: string;
	/** For messages: the name of what was uploaded. */
	fileName: string;
	expectZip: boolean;
	pollIntervalMs: number;
	timeoutMs: number;
	itemIndex: number;
}

/** Errors of the wait carry the upload ID (error.context.uploadId) and say how to continue. */
function uploadedButUnfinished(
	context: IExecuteFunctions,
	options: WaitOptions,
	message: string,
	description: string,
): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), message, {
		itemIndex: options.itemIndex,
		description,
	});
	error.context.uploadId = options.uploadId;
	return error;
}

/**
 * Polls GET /uploads/{uploadId} until processing ends or the Wait Timeout passes; the timeout
 * bounds the whole wait, status requests and their retries included. A timeout, a status check
 * that keeps failing or a failed upload throws an error that carries the uploadId
 * (error.context.uploadId) and says how to continue.
 */
export async function waitForUpload(
	this: IExecuteFunctions,
	options: WaitOptions,
): Promise<UploadProgress> {
	const deadline = waitClock.now() + options.timeoutMs;
	const timeoutText = `${Math.round(options.timeoutMs / 1000)} seconds`;
	const continueWith = `The file was uploaded: continue with the Get Upload Status operation and upload ID ${options.uploadId}.`;
	// Small documents are often done within a second or two: ask early, then back off to the interval.
	let nextPauseMs = Math.min(FIRST_STATUS_CHECK_MS, options.pollIntervalMs);
	let progress: UploadProgress;
	for (;;) {
		let status: IDataObject;
		try {
			status = await getUploadStatus.call(this, options.uploadId, options.itemIndex, {
				at: deadline,
				note: `The Wait Timeout of ${timeoutText} is over`,
			});
		} catch (error) {
			if (isCancelled(this)) throw cancelledError(this);
			const cause = trimTrailingStops((error as Error).message ?? 'unknown error');
			if (isEndedByDeadline(error) || waitClock.now() >= deadline) {
				throw uploadedButUnfinished(
					this,
					options,
					`Processing of "${options.fileName}" did not finish within ${timeoutText}: the last status check got no answer in time (${cause}). ${continueWith}`,
					`Upload ID: ${options.uploadId}. Raise "Wait Timeout" in the options to wait longer, or turn off "Wait for Completion".`,
				);
			}
			throw uploadedButUnfinished(
				this,
				options,
				`Could not read the processing status of "${options.fileName}": ${cause}. ${continueWith}`,
				`Upload ID: ${options.uploadId}. Nothing needs to be uploaded again.`,
			);
		}
		progress = readUploadStatus(status, options.expectZip);
		if (progress.state !== 'processing') break;
		const remaining = deadline - waitClock.now();
		if (remaining <= LAST_STATUS_CHECK_MS) {
			throw uploadedButUnfinished(
				this,
				options,
				`Processing of "${options.fileName}" did not finish within ${timeoutText}${progress.lastStep ? ` (last step: ${progress.lastStep})` : ''}. ${continueWith}`,
				`Upload ID: ${options.uploadId}. Raise "Wait Timeout" in the options to wait longer, or turn off "Wait for Completion".`,
			);
		}
		await pause(this, Math.min(nextPauseMs, remaining - LAST_STATUS_CHECK_MS));
		nextPauseMs = Math.min(nextPauseMs * 2, options.pollIntervalMs);
	}

	// A ZIP whose members failed one by one still answers an item per member, each saying why.
	if (progress.state === 'failed' && progress.failed.length === 0) {
		throw uploadedButUnfinished(
			this,
			options,
			`Processing of "${options.fileName}" failed: ${progress.errorReason ?? 'no reason given'} (upload ID ${options.uploadId})`,
			`Upload ID: ${options.uploadId}`,
		);
	}
	return progress;
}
