import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, unexpectedResponse } from '../DocumentExtraction/transport';

export { fileIdsQueryValue } from '../DocumentExtraction/actions/file/records';
import type { TriggerEvent } from './settings';

/** Files per list request: the API's maximum page size. */
export const PAGE_SIZE = 100;

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

export interface FilePage {
	files: IDataObject[];
	/** Files matching the query across all pages, when the API says. */
	count?: number;
}

export async function listFiles(this: IPollFunctions, qs: IDataObject): Promise<FilePage> {
	const body = await apiRequest.call(this, { method: 'GET', path: '/files', qs });
	if (!Array.isArray(body.files)) throw unexpectedResponse(this, 'the file list', body);
	const files = body.files as IDataObject[];
	for (const file of files) {
		if (!file || typeof file !== 'object' || typeof file.fileId !== 'string') {
			throw unexpectedResponse(this, 'a file without a fileId in the file list', body);
		}
	}
	return { files, count: typeof body.count === 'number' ? body.count : undefined };
}

/** The file's timestamp in the stream's order, as the API wrote it, with its value in ms. */
export function stampOf(
	context: IPollFunctions,
	file: IDataObject,
	stream: FileStream,
): { text: string; ms: number } {
	const text = file[stream.sortBy];
	const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
	if (Number.isNaN(ms)) {
		throw unexpectedResponse(context, `file ${String(file.fileId)} without a valid ${stream.sortBy}`, file);
	}
	return { text: text as string, ms };
}

export function isProcessed(file: IDataObject): boolean {
	return String(file.status ?? '').toLowerCase() === 'processed';
}

/** Statuses after which a file will not become processed (the API lists only `processed`). */
export function hasFailed(file: IDataObject): boolean {
	return /fail|error/i.test(String(file.status ?? ''));
}
