/**
 * Bulk file records for tests and benchmarks that need thousands of files (a trigger's backlog)
 * or exact timestamps (several files sharing one updatedAt), which uploading one by one cannot
 * give quickly. The records are what processing would have left: same fields, same state maps,
 * listed and served by the ordinary routes. Values are not filled (GET values answers no forms);
 * upload a fixture document where a test needs real values.
 */
import { createHash } from 'node:crypto';
import { newUuid } from './ids';
import { SEED_IDS } from './seed';
import type { EmulatorState } from './state';
import type { FileRecord } from './types';

export interface BulkFileOptions {
	/** Workspace of the files (default workspace A). */
	workspaceId?: string;
	/** createdAt of file i in ms (default: the clock's now for all). */
	createdAtMs?: (index: number) => number;
	/** updatedAt of file i in ms (default: its createdAt). */
	updatedAtMs?: (index: number) => number;
	/** Status of file i (default `processed`). */
	status?: (index: number) => string;
	/** File class and schema id written on processed files (default the seeded Invoice type, schema v2). */
	fileClass?: string;
	schemaId?: string;
	fileTypeId?: string;
	/** Name of file i (default `bulk-<i>.pdf`). */
	fileName?: (index: number) => string;
}

/** Adds `count` file records to the state; returns them in creation order. */
export function addFiles(state: EmulatorState, count: number, options: BulkFileOptions = {}): FileRecord[] {
	const workspaceId = options.workspaceId ?? SEED_IDS.workspaceA;
	const created: FileRecord[] = [];
	for (let index = 0; index < count; index++) {
		const createdAtMs = options.createdAtMs ? options.createdAtMs(index) : state.clock.now();
		const updatedAtMs = options.updatedAtMs ? options.updatedAtMs(index) : createdAtMs;
		const status = options.status ? options.status(index) : 'processed';
		const processed = status === 'processed';
		const fileName = options.fileName ? options.fileName(index) : `bulk-${index}.pdf`;
		const uploadId = newUuid();
		const file: FileRecord = {
			fileId: newUuid(),
			workspaceId,
			uploadId,
			fileName,
			fileType: 'application/pdf',
			fileSize: 1024 + index,
			fileStoragePath: `${workspaceId}/uploads/${uploadId}/${fileName}`,
			fileHash: createHash('sha256').update(`${uploadId}:${index}`).digest('hex'),
			status,
			currency: processed ? 'USD' : '',
			summary: '',
			duplicateToFileId: null,
			referenceId: '',
			isDuplicate: false,
			isEmbedded: false,
			schemaId: processed ? (options.schemaId ?? SEED_IDS.invoiceSchemaV2A) : '',
			fileClass: processed ? (options.fileClass ?? 'Invoice') : '',
			fileContactId: '',
			fileContactName: '',
			createdAtMs,
			updatedAtMs,
			exportInfo: null,
			directoryId: null,
			fileTypeId: processed ? (options.fileTypeId ?? SEED_IDS.invoiceFileTypeA) : null,
			callbackURL: null,
			apiRequestId: '',
			formValues: null,
			sequence: state.nextFileSequence(),
		};
		state.files.set(file.fileId, file);
		created.push(file);
	}
	state.touchData();
	return created;
}

/** What processing does when a file finishes: status processed, class and schema set, updatedAt now. */
export function finishProcessing(state: EmulatorState, files: FileRecord[], options: { fileClass?: string; schemaId?: string; atMs?: number } = {}): void {
	for (const file of files) {
		file.status = 'processed';
		file.fileClass = options.fileClass ?? 'Invoice';
		file.schemaId = options.schemaId ?? SEED_IDS.invoiceSchemaV2A;
		file.fileTypeId = SEED_IDS.invoiceFileTypeA;
		file.updatedAtMs = options.atMs ?? state.clock.now();
	}
	state.touchData();
}
