import type { FileRecord } from '../shared/api';
import { isId } from '../shared/api';
import type { TriggerEvent } from './settings';
import type { Stamp } from './stamps';
import { parseStamp } from './stamps';

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

/**
 * The file's timestamp in the stream's order, as the API wrote it, with its value in ms; undefined
 * when it is not short RFC 3339 text (stamps.ts): such a file cannot be placed in the stream.
 */
export function stampOf(file: FileRecord, stream: FileStream): Stamp | undefined {
	return parseStamp(file[stream.sortBy]);
}

/** The file's id when it is a file id of the API (a UUID); undefined for anything else. */
export function fileIdOf(file: FileRecord): string | undefined {
	return isId(file.fileId, 'uuid') ? file.fileId : undefined;
}

/**
 * A file of a listing that the trigger can name: a UUID id, and its timestamp in the stream's
 * order when it has a readable one (`stamp` undefined: it cannot be placed in the stream).
 */
export interface Listed {
	file: FileRecord;
	id: string;
	stamp: Stamp | undefined;
}

export function isProcessed(file: FileRecord): boolean {
	return String(file.status ?? '').toLowerCase() === 'processed';
}

/** Statuses after which a file will not become processed (the API lists only `processed`). */
export function hasFailed(file: FileRecord): boolean {
	return /fail|error/i.test(String(file.status ?? ''));
}
