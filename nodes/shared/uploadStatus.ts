import type { IDataObject } from 'n8n-workflow';

/**
 * Reading GET /uploads/{uploadId}: where an upload stands, and which files it produced (Upload's
 * Wait for Completion, Get Upload Status and the Callback Trigger).
 *
 * The specification shows the shape but not the transitions, so the rules are
 * (docs/dev/api-contract.md#when-an-upload-is-done-or-failed):
 * - a step record with status `error` (e.g. `processing_failed`) fails what it belongs to, with
 *   its `errorReason`;
 * - a file record (it has a `fileId`) is done when its status is `processed`;
 * - a ZIP upload answers per-member records (`statuses`, optional nested `files`); it is done
 *   when its `zip_extraction` step completed, its members are listed and every member is done
 *   or failed.
 */

type UploadState = 'processing' | 'completed' | 'partial' | 'failed';

interface ProcessedFile {
	file: IDataObject;
	/** For a ZIP member: the member's name inside the archive. */
	memberName?: string;
}

interface FailedFile {
	fileName?: string;
	fileType?: string;
	uploadId?: string;
	errorReason: string;
	step?: string;
	statuses: IDataObject[];
}

export interface UploadProgress {
	state: UploadState;
	isZip: boolean;
	processed: ProcessedFile[];
	failed: FailedFile[];
	/** Why the upload as a whole failed, when it did. */
	errorReason?: string;
	/** Name of the latest step, for progress messages. */
	lastStep?: string;
}

const FILE_DONE_STATUSES = new Set(['processed']);
const FILE_FAILED_STATUSES = new Set(['failed', 'error', 'processing_failed']);

function steps(record: IDataObject): IDataObject[] {
	return Array.isArray(record.statuses) ? (record.statuses as IDataObject[]) : [];
}

function failedStep(record: IDataObject): IDataObject | undefined {
	return steps(record).find((step) => step.status === 'error');
}

function hasCompletedStep(record: IDataObject, name: string): boolean {
	return steps(record).some((step) => step.step === name && step.status === 'completed');
}

function isFileRecord(record: IDataObject): boolean {
	return typeof record.fileId === 'string';
}

function filesOf(record: IDataObject): IDataObject[] {
	return Array.isArray(record.files) ? (record.files as IDataObject[]) : [];
}

type RecordState = { state: 'processing' } | { state: 'done' } | { state: 'failed'; reason: string; step?: string };

function fileState(file: IDataObject): RecordState {
	const status = String(file.status ?? '');
	if (FILE_DONE_STATUSES.has(status)) return { state: 'done' };
	if (FILE_FAILED_STATUSES.has(status)) {
		return { state: 'failed', reason: String(file.errorReason ?? `The file ended with status "${status}"`) };
	}
	return { state: 'processing' };
}

function reasonOf(step: IDataObject): string {
	return String(step.errorReason ?? step.message ?? `The step "${String(step.step)}" failed`);
}

export function readUploadStatus(status: IDataObject, expectZip: boolean): UploadProgress {
	const topFiles = filesOf(status);
	const isZip = expectZip || topFiles.some((record) => !isFileRecord(record) && Array.isArray(record.statuses));
	const allSteps = steps(status);
	const lastStep = allSteps.length ? String(allSteps[allSteps.length - 1].step ?? '') : undefined;
	const topFailure = failedStep(status);

	if (!isZip) {
		if (topFailure) {
			return { state: 'failed', isZip, processed: [], failed: [], errorReason: reasonOf(topFailure), lastStep };
		}
		const states = topFiles.map(fileState);
		const failedFile = states.find((s): s is Extract<RecordState, { state: 'failed' }> => s.state === 'failed');
		if (failedFile) {
			return { state: 'failed', isZip, processed: [], failed: [], errorReason: failedFile.reason, lastStep };
		}
		if (topFiles.length && states.every((s) => s.state === 'done')) {
			return { state: 'completed', isZip, processed: topFiles.map((file) => ({ file })), failed: [], lastStep };
		}
		return { state: 'processing', isZip, processed: [], failed: [], lastStep };
	}

	if (topFailure && !topFiles.length) {
		return { state: 'failed', isZip, processed: [], failed: [], errorReason: reasonOf(topFailure), lastStep };
	}
	// Unpacked but no member listed yet (the step is recorded before the members): still processing.
	// (An archive without members fails its zip_extraction step instead.)
	if ((!hasCompletedStep(status, 'zip_extraction') && !topFailure) || topFiles.length === 0) {
		return { state: 'processing', isZip, processed: [], failed: [], lastStep };
	}

	const processed: ProcessedFile[] = [];
	const failed: FailedFile[] = [];
	let pending = false;
	for (const member of topFiles) {
		if (isFileRecord(member)) {
			const state = fileState(member);
			if (state.state === 'done') processed.push({ file: member });
			else if (state.state === 'failed') failed.push({ fileName: member.fileName as string, errorReason: state.reason, statuses: [] });
			else pending = true;
			continue;
		}
		const memberName = typeof member.fileName === 'string' ? member.fileName : undefined;
		const failure = failedStep(member);
		if (failure) {
			failed.push({
				fileName: memberName,
				fileType: member.fileType as string | undefined,
				uploadId: member.uploadId as string | undefined,
				errorReason: reasonOf(failure),
				step: failure.step as string | undefined,
				statuses: steps(member),
			});
			continue;
		}
		const memberFiles = filesOf(member);
		const states = memberFiles.map(fileState);
		if (!memberFiles.length || states.some((s) => s.state === 'processing')) {
			pending = true;
			continue;
		}
		memberFiles.forEach((file, index) => {
			const state = states[index];
			if (state.state === 'failed') {
				failed.push({ fileName: memberName, errorReason: state.reason, statuses: steps(member) });
			} else {
				processed.push({ file, memberName });
			}
		});
	}

	if (pending) return { state: 'processing', isZip, processed: [], failed: [], lastStep };
	const state: UploadState = failed.length === 0 ? 'completed' : processed.length ? 'partial' : 'failed';
	return {
		state,
		isZip,
		processed,
		failed,
		errorReason: state === 'failed' ? (topFailure ? reasonOf(topFailure) : 'Every file in the archive failed') : undefined,
		lastStep,
	};
}
