import type { IPollFunctions } from 'n8n-workflow';

import type { FileRecord } from '../shared/api';
import { unexpectedResponse } from '../shared/api';
import type { TriggerEvent } from './settings';

/**
 * A stream of files in the order of one timestamp, walked with the matching "on or after"
 * filter of GET /files. File Processed follows createdAt (a file enters it once, whatever
 * happens to it later); File Updated follows updatedAt (a file enters it again on every change).
 */
export interface FileStream {
	sortBy: 'createdAt' | 'updatedAt';
	afterParameter: 'createdAfter' | 'updatedAfter';
}

export const STREAMS: Record<TriggerEvent, FileStream> = {
	fileProcessed: { sortBy: 'createdAt', afterParameter: 'createdAfter' },
	fileUpdated: { sortBy: 'updatedAt', afterParameter: 'updatedAfter' },
};

/** The file's timestamp in the stream's order, as the API wrote it, with its value in ms. */
export function stampOf(
	context: IPollFunctions,
	file: FileRecord,
	stream: FileStream,
): { text: string; ms: number } {
	const text = file[stream.sortBy];
	const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
	if (Number.isNaN(ms)) {
		throw unexpectedResponse(context, `file ${String(file.fileId)} without a valid ${stream.sortBy}`, file);
	}
	return { text: text as string, ms };
}

export function isProcessed(file: FileRecord): boolean {
	return String(file.status ?? '').toLowerCase() === 'processed';
}

/** Statuses after which a file will not become processed (the API lists only `processed`). */
export function hasFailed(file: FileRecord): boolean {
	return /fail|error/i.test(String(file.status ?? ''));
}
