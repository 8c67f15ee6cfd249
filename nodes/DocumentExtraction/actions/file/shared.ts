import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { simplifyFormValue } from '../../helpers/simplify';
import type { UploadProgress } from '../../helpers/uploadStatus';
import { readUploadStatus } from '../../helpers/uploadStatus';
import type { ApiContext } from '../../transport';
import { apiRequest, apiRequestAllItems, pause } from '../../transport';

/** Steps of the File resource that several operations share. */

export async function getUploadStatus(
	this: IExecuteFunctions,
	uploadId: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await apiRequest.call(this, {
		method: 'GET',
		path: `/uploads/${encodeURIComponent(uploadId)}`,
		itemIndex,
	});
}

/** Every form value record of a file (all pages, full tables). Also used by the trigger. */
export async function getFormValues(
	this: ApiContext,
	fileId: string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return await apiRequestAllItems.call(
		this,
		{
			method: 'GET',
			path: `/files/${encodeURIComponent(fileId)}/values`,
			qs: { includeFullTableData: true },
			itemIndex,
		},
		{
			extract: (body) => {
				const values = (body.values ?? {}) as IDataObject;
				return {
					items: Array.isArray(values.formValues) ? (values.formValues as IDataObject[]) : [],
					total: typeof values.count === 'number' ? values.count : undefined,
				};
			},
		},
	);
}

/** The values of a file as the `values` field of an output item. */
export async function valuesField(
	this: ApiContext,
	fileId: string,
	itemIndex: number | undefined,
	simplify: boolean,
): Promise<IDataObject> {
	const forms = await getFormValues.call(this, fileId, itemIndex);
	if (!simplify) return { formValues: forms };
	const simplified = forms.map(simplifyFormValue);
	return { values: simplified.length === 1 ? simplified[0] : simplified };
}

const FIRST_STATUS_CHECK_MS = 1000;

export interface WaitOptions {
	uploadId: string;
	/** For messages: the name of what was uploaded. */
	fileName: string;
	expectZip: boolean;
	pollIntervalMs: number;
	timeoutMs: number;
	itemIndex: number;
}

/**
 * Polls GET /uploads/{uploadId} until processing ends or the timeout passes. A timeout or a
 * failed upload throws an error that carries the uploadId (error.context.uploadId) and says how
 * to continue.
 */
export async function waitForUpload(
	this: IExecuteFunctions,
	options: WaitOptions,
): Promise<UploadProgress> {
	const deadline = Date.now() + options.timeoutMs;
	// Small documents are often done within a second or two: ask early, then back off to the interval.
	let nextPauseMs = Math.min(FIRST_STATUS_CHECK_MS, options.pollIntervalMs);
	let progress: UploadProgress;
	for (;;) {
		const status = await getUploadStatus.call(this, options.uploadId, options.itemIndex);
		progress = readUploadStatus(status, options.expectZip);
		if (progress.state !== 'processing') break;
		const remaining = deadline - Date.now();
		if (remaining <= 0) {
			const error = new NodeOperationError(
				this.getNode(),
				`Processing of "${options.fileName}" did not finish within ${Math.round(options.timeoutMs / 1000)} seconds${progress.lastStep ? ` (last step: ${progress.lastStep})` : ''}. The file was uploaded: continue with the Get Upload Status operation and upload ID ${options.uploadId}.`,
				{
					itemIndex: options.itemIndex,
					description: `Upload ID: ${options.uploadId}. Raise "Timeout" in the options to wait longer, or turn off "Wait for Completion".`,
				},
			);
			error.context.uploadId = options.uploadId;
			throw error;
		}
		await pause(this, Math.min(nextPauseMs, remaining));
		nextPauseMs = Math.min(nextPauseMs * 2, options.pollIntervalMs);
	}

	// A ZIP whose members failed one by one still answers an item per member, each saying why.
	if (progress.state === 'failed' && progress.failed.length === 0) {
		const error = new NodeOperationError(
			this.getNode(),
			`Processing of "${options.fileName}" failed: ${progress.errorReason ?? 'no reason given'} (upload ID ${options.uploadId})`,
			{
				itemIndex: options.itemIndex,
				description: `Upload ID: ${options.uploadId}`,
			},
		);
		error.context.uploadId = options.uploadId;
		throw error;
	}
	return progress;
}
