import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadStatus } from '../../../../shared/api';
import { getUploadStatus, isEndedByDeadline } from '../../../../shared/api';
import type { UploadProgress } from '../../../../shared/uploadStatus';
import { readUploadStatus } from '../../../../shared/uploadStatus';
import { PROCESSING_WAIT_LIMITS } from '../../../../shared/limits';
import type { ApiContext, ItemPolicy } from '../../../../shared/run';
import { cancelledError, isCancelled, pause, waitClock } from '../../../../shared/run';
import { trimTrailingStops } from '../../../../shared/text';

/** Wait for Completion: asks for the status of an upload until processing ends or the Wait Timeout passes. */

const { firstStatusCheckMs: FIRST_STATUS_CHECK_MS, lastStatusCheckMs: LAST_STATUS_CHECK_MS } = PROCESSING_WAIT_LIMITS;

interface WaitOptions {
	uploadId: string;
	/** For messages: the name of what was uploaded. */
	fileName: string;
	expectZip: boolean;
	pollIntervalMs: number;
	timeoutMs: number;
	/** The item's request policy (its item is named in errors). */
	policy: ItemPolicy;
}

/** Errors of the wait carry the upload ID (error.context.uploadId) and say how to continue. */
export function uploadedButUnfinished(
	context: ApiContext,
	options: { uploadId: string; policy: { itemIndex: number } },
	message: string,
	description: string,
): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), message, {
		itemIndex: options.policy.itemIndex,
		description,
	});
	error.context.uploadId = options.uploadId;
	return error;
}

function timeoutText(timeoutMs: number): string {
	return `${Math.round(timeoutMs / 1000)} seconds`;
}

function continueWith(uploadId: string): string {
	return `The file was uploaded: continue with the Get Upload Status operation and upload ID ${uploadId}.`;
}

/** The words of a wait that ran out, both wait modes: processing of the file had not ended. */
export function notFinishedInTime(fileName: string, uploadId: string, timeoutMs: number, lastStep?: string): { message: string; description: string } {
	return {
		message: `Processing of "${fileName}" did not finish within ${timeoutText(timeoutMs)}${lastStep ? ` (last step: ${lastStep})` : ''}. ${continueWith(uploadId)}`,
		description: `Upload ID: ${uploadId}. Raise "Wait Timeout" in the options to wait longer, or turn off "Wait for Completion".`,
	};
}

/** The words of an upload whose processing failed as a whole, both wait modes. */
export function processingFailed(fileName: string, uploadId: string, errorReason: string | undefined): { message: string; description: string } {
	return {
		message: `Processing of "${fileName}" failed: ${errorReason ?? 'no reason given'} (upload ID ${uploadId})`,
		description: `Upload ID: ${uploadId}`,
	};
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
	// Small documents are often done within a second or two: ask early, then back off to the interval.
	let nextPauseMs = Math.min(FIRST_STATUS_CHECK_MS, options.pollIntervalMs);
	let progress: UploadProgress;
	for (;;) {
		let status: UploadStatus;
		try {
			status = await getUploadStatus(this, options.uploadId, {
				policy: options.policy,
				deadline: { at: deadline, note: `The Wait Timeout of ${timeoutText(options.timeoutMs)} is over` },
			});
		} catch (error) {
			if (isCancelled(this)) throw cancelledError(this);
			const cause = trimTrailingStops((error as Error).message ?? 'unknown error');
			if (isEndedByDeadline(error) || waitClock.now() >= deadline) {
				throw uploadedButUnfinished(
					this,
					options,
					`Processing of "${options.fileName}" did not finish within ${timeoutText(options.timeoutMs)}: the last status check got no answer in time (${cause}). ${continueWith(options.uploadId)}`,
					`Upload ID: ${options.uploadId}. Raise "Wait Timeout" in the options to wait longer, or turn off "Wait for Completion".`,
				);
			}
			throw uploadedButUnfinished(
				this,
				options,
				`Could not read the processing status of "${options.fileName}": ${cause}. ${continueWith(options.uploadId)}`,
				`Upload ID: ${options.uploadId}. Nothing needs to be uploaded again.`,
			);
		}
		progress = readUploadStatus(status, options.expectZip);
		if (progress.state !== 'processing') break;
		const remaining = deadline - waitClock.now();
		if (remaining <= LAST_STATUS_CHECK_MS) {
			const { message, description } = notFinishedInTime(options.fileName, options.uploadId, options.timeoutMs, progress.lastStep);
			throw uploadedButUnfinished(this, options, message, description);
		}
		await pause(this, Math.min(nextPauseMs, remaining - LAST_STATUS_CHECK_MS));
		nextPauseMs = Math.min(nextPauseMs * 2, options.pollIntervalMs);
	}

	// A ZIP whose members failed one by one still answers an item per member, each saying why.
	if (progress.state === 'failed' && progress.failed.length === 0) {
		const { message, description } = processingFailed(options.fileName, options.uploadId, progress.errorReason);
		throw uploadedButUnfinished(this, options, message, description);
	}
	return progress;
}
