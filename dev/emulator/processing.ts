/** What happens after bytes land in storage: upload steps, ZIP extraction (zip-archive.ts),
 * duplicate detection, text extraction and form filling (classify.ts picks the file type),
 * callbacks. Reruns reuse the same filling. */
import type { CallbackFaults } from './callback-faults';
import type { CallbackSender } from './callbacks';
import { deriveSummary, pickFileType, toDefinition } from './classify';
import { iso } from './clock';
import { EXTRACTION_ERRORS, ExtractionError, extractText } from './extraction';
import { fillFields } from './fill-fields';
import { newObjectId, newUuid } from './ids';
import type { ObjectStore } from './object-store';
import { EPHEMERAL_RETENTION_MS, type EmulatorState } from './state';
import type { ExtractedFieldRecord, FileRecord, SchemaField, SchemaVersion, StepRecord, StoredObject, UploadRecord, ZipMemberRecord } from './types';
import { mimeTypeOf, sanitizeZipArchiveName, unzipToStore, type UnzippedMember } from './zip-archive';

/** Extracted text up to this size is kept for reruns; larger text is read again. */
const TEXT_CACHE_LIMIT = 1024 * 1024;

export interface ProcessorOptions {
	processingDelayMs: number;
}

export class Processor {
	private timers = new Set<NodeJS.Timeout>();
	private closed = false;

	constructor(
		private readonly state: EmulatorState,
		private readonly store: ObjectStore,
		private readonly callbacks: CallbackSender,
		private readonly options: ProcessorOptions,
		private readonly callbackFaults: CallbackFaults,
	) {}

	/** Real time processing takes from now on (split in three between its steps). */
	setProcessingDelay(ms: number): void {
		this.options.processingDelayMs = ms;
	}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	/** One third of the processing delay between steps (real time); none for an upload a before-parked callback fault took. */
	private pause(upload?: UploadRecord): Promise<void> {
		const fast = upload !== undefined && this.callbackFaults.has('before-parked', upload.parentUploadId ?? upload.uploadId);
		const ms = fast ? 0 : this.options.processingDelayMs / 3;
		return new Promise((resolve) => {
			if (ms <= 0) {
				setImmediate(resolve);
				return;
			}
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	/** Called when bytes for an upload have been stored (single PUT or multipart complete). */
	ingest(upload: UploadRecord, object: StoredObject): void {
		const now = this.state.clock.now();
		if (upload.params.isEphemeral) {
			upload.expiresAtMs = now + EPHEMERAL_RETENTION_MS;
			this.state.scheduleExpiry(upload.expiresAtMs);
		}
		this.state.beginWork();
		this.callbackFaults.bind(upload.uploadId);
		const forged = this.callbackFaults.forgedBody(upload.uploadId);
		if (forged && upload.params.callbackURL && !upload.parentUploadId) {
			// A callback that lies: it says processing has finished although it has only begun.
			this.callbacks.send(upload.params.callbackURL, { uploadId: upload.uploadId, timestamp: this.state.nowIso(), ...forged }, 'forge');
		}
		const run = upload.isZip ? this.runZip(upload, object) : this.runSingle(upload, object);
		run
			.catch((error: Error) => {
				this.addStep(upload, upload.statuses, 'processing_failed', 'error', `Internal emulator error: ${error.message}`);
			})
			.finally(() => this.state.endWork());
	}

	private callbackUrl(upload: UploadRecord): string | null {
		return upload.params.callbackURL;
	}

	private notify(upload: UploadRecord, payload: Record<string, unknown>): void {
		const url = this.callbackUrl(upload);
		// Members of a ZIP report through the ZIP upload's own notifications.
		if (!url || this.closed || upload.parentUploadId) return;
		const apiRequestId = upload.params.apiRequestId ?? upload.zipFileId;
		this.callbacks.send(url, {
			...payload,
			uploadId: upload.uploadId,
			timestamp: this.state.nowIso(),
			...(apiRequestId ? { api_request_id: apiRequestId } : {}),
		});
	}

	private addStep(upload: UploadRecord, statuses: StepRecord[], step: string, status: 'completed' | 'error', errorReason?: string): void {
		const record: StepRecord = { step, status, timestamp: this.state.nowIso() };
		if (errorReason !== undefined) record.errorReason = errorReason;
		statuses.push(record);
		if (statuses === upload.statuses && status === 'completed') this.notify(upload, { status: 'waiting', step });
	}

	private createFile(upload: UploadRecord, object: StoredObject, fileName: string, fileType: string): FileRecord {
		const now = this.state.clock.now();
		const original = [...this.state.files.values()]
			.filter((other) => other.workspaceId === upload.workspaceId && other.fileHash === object.hash)
			.sort((left, right) => left.sequence - right.sequence)[0];
		const file: FileRecord = {
			fileId: newUuid(),
			workspaceId: upload.workspaceId,
			uploadId: upload.uploadId,
			fileName,
			fileType,
			fileSize: object.size,
			fileStoragePath: object.key,
			fileHash: object.hash,
			status: 'uploaded',
			currency: '',
			summary: '',
			duplicateToFileId: original ? original.fileId : null,
			referenceId: '',
			isDuplicate: Boolean(original),
			isEmbedded: false,
			schemaId: '',
			fileClass: '',
			fileContactId: '',
			fileContactName: '',
			createdAtMs: now,
			updatedAtMs: now,
			exportInfo: null,
			directoryId: upload.params.directoryId,
			fileTypeId: null,
			callbackURL: upload.params.callbackURL,
			apiRequestId: upload.params.apiRequestId ?? upload.zipFileId ?? '',
			formValues: null,
			sequence: this.state.nextFileSequence(),
		};
		if (upload.params.isEphemeral) {
			file.expiresAtMs = now + EPHEMERAL_RETENTION_MS;
			this.state.scheduleExpiry(file.expiresAtMs);
		}
		this.state.files.set(file.fileId, file);
		this.state.countImport(upload.workspaceId);
		this.state.touchData();
		upload.fileIds.push(file.fileId);
		return file;
	}

	private setStatus(file: FileRecord, status: string): void {
		file.status = status;
		file.updatedAtMs = this.state.clock.now();
		this.state.touchData();
	}

	private async runSingle(upload: UploadRecord, object: StoredObject): Promise<void> {
		const file = this.createFile(upload, object, upload.params.fileName, upload.params.fileType);
		this.addStep(upload, upload.statuses, 'file_uploaded', 'completed');
		await this.pause(upload);
		this.addStep(upload, upload.statuses, 'processing_started', 'completed');
		this.setStatus(file, 'processing');
		await this.pause(upload);
		this.addStep(upload, upload.statuses, 'fraud_detection', 'completed');
		await this.pause(upload);
		const failure = await this.fill(file, object.diskPath, upload);
		if (failure) {
			this.addStep(upload, upload.statuses, 'processing_failed', 'error', failure);
			this.notify(upload, { status: 'failed', step: 'processing_failed', fileIds: file.fileId, errorReason: failure });
		} else {
			this.notify(upload, { status: 'completed', step: 'processing_finished', fileIds: file.fileId });
		}
	}

	private async runZip(upload: UploadRecord, object: StoredObject): Promise<void> {
		upload.zipFileId ??= newUuid();
		this.addStep(upload, upload.statuses, 'file_uploaded', 'completed');
		await this.pause(upload);
		this.addStep(upload, upload.statuses, 'processing_started', 'completed');
		await this.pause(upload);
		let members: UnzippedMember[];
		try {
			if (object.sink) throw new Error('The emulator runs in storage sink mode: the ZIP archive was not kept, so it cannot be extracted');
			members = await unzipToStore(this.store, upload, object);
		} catch (error) {
			const reason = (error as Error).message;
			this.addStep(upload, upload.statuses, 'zip_extraction', 'error', reason);
			this.addStep(upload, upload.statuses, 'processing_failed', 'error', reason);
			this.notify(upload, { status: 'failed', step: 'processing_failed', errorReason: reason });
			return;
		}
		this.addStep(upload, upload.statuses, 'zip_extraction', 'completed');
		await this.pause(upload);
		const processed: string[] = [];
		const zipArchiveName = upload.params.retainOriginalZipFileName ? sanitizeZipArchiveName(upload.params.fileName) : undefined;
		for (const member of members) {
			const fileType = mimeTypeOf(member.name);
			const memberUpload: UploadRecord = {
				uploadId: newUuid(),
				workspaceId: upload.workspaceId,
				apiKey: upload.apiKey,
				userId: upload.userId,
				s3Path: member.object?.key ?? `${upload.s3Path}#${member.name}`,
				params: { ...upload.params, fileName: member.name, fileType, apiRequestId: upload.params.apiRequestId ?? upload.zipFileId ?? null },
				isZip: false,
				parentUploadId: upload.uploadId,
				createdAtMs: this.state.clock.now(),
				statuses: [],
				fileIds: [],
				members: [],
				expiresAtMs: upload.expiresAtMs,
			};
			this.state.uploads.set(memberUpload.uploadId, memberUpload);
			const record: ZipMemberRecord = { fileName: member.name, fileType, uploadId: memberUpload.uploadId, statuses: memberUpload.statuses, fileIds: memberUpload.fileIds };
			upload.members.push(record);
			if (!member.object) {
				this.addStep(memberUpload, memberUpload.statuses, 'processing_failed', 'error', member.error);
				continue;
			}
			const file = this.createFile(memberUpload, member.object, member.name, fileType);
			if (zipArchiveName !== undefined) file.zipArchiveName = zipArchiveName;
			this.addStep(memberUpload, memberUpload.statuses, 'file_uploaded', 'completed');
			this.addStep(memberUpload, memberUpload.statuses, 'processing_started', 'completed');
			this.setStatus(file, 'processing');
			this.addStep(memberUpload, memberUpload.statuses, 'fraud_detection', 'completed');
			const failure = await this.fill(file, member.object.diskPath, memberUpload);
			if (failure) this.addStep(memberUpload, memberUpload.statuses, 'processing_failed', 'error', failure);
			else processed.push(file.fileId);
		}
		if (processed.length === 0) {
			this.notify(upload, { status: 'failed', step: 'processing_failed', errorReason: 'No member of the ZIP archive could be processed' });
		} else {
			this.notify(upload, { status: 'completed', step: 'processing_finished', fileIds: processed.join(',') });
		}
	}

	async textOf(file: FileRecord, diskPath: string): Promise<string> {
		if (file.extractedText !== undefined) return file.extractedText;
		if (this.state.objects.get(file.fileStoragePath)?.sink) {
			// Storage sink mode kept no bytes: nothing to extract, so every field stays empty.
			if (file.fileSize === 0) throw new ExtractionError(EXTRACTION_ERRORS.empty);
			return '';
		}
		const text = await extractText(diskPath, file.fileType, file.fileName);
		if (text.length <= TEXT_CACHE_LIMIT) file.extractedText = text;
		return text;
	}

	/** Extracts and fills a file; returns the errorReason on failure. */
	private async fill(file: FileRecord, diskPath: string, upload: UploadRecord): Promise<string | undefined> {
		try {
			const text = await this.textOf(file, diskPath);
			const type = pickFileType(this.state, file.workspaceId, text);
			if (!type) throw new ExtractionError('No file type is configured in the workspace');
			const version = this.state.currentVersion(type);
			const fields = fillFields(text, version.fields.map(toDefinition)) as ExtractedFieldRecord[];
			const now = this.state.clock.now();
			file.fileTypeId = type.id;
			file.schemaId = version.id;
			file.fileClass = type.name;
			file.formValues = {
				id: newObjectId(),
				fileId: file.fileId,
				fileName: file.fileName,
				fileType: file.fileType,
				createdAt: iso(now),
				updatedAt: iso(now),
				schemaRelationshipId: version.id,
				languageCode: null,
				originalBlueprintFormValuesId: null,
				fields,
				metadata: { createdBy: 'system', userId: upload.userId, organizationId: this.state.workspace(file.workspaceId).organizationId, workspaceId: file.workspaceId },
				filledAtMs: now,
			};
			deriveSummary(file);
			this.setStatus(file, 'processed');
			return undefined;
		} catch (error) {
			this.setStatus(file, 'failed');
			return error instanceof ExtractionError ? error.message : `Processing failed: ${(error as Error).message}`;
		}
	}

	/** Re-fills a processed file against its schema version (current, or the locked one). */
	async rerun(file: FileRecord, selection: { paths?: string[]; partialRerun?: boolean }, schemaLocking: boolean): Promise<void> {
		const object = this.state.objects.get(file.fileStoragePath);
		if (!object) throw new ExtractionError('The stored file could not be read');
		const text = await this.textOf(file, object.diskPath);
		const type = (file.fileTypeId ? this.state.fileTypes.get(file.fileTypeId) : undefined) ?? pickFileType(this.state, file.workspaceId, text);
		if (!type) throw new ExtractionError('No file type is configured in the workspace');
		const locked = schemaLocking ? type.versions.find((version) => version.id === file.schemaId) : undefined;
		const version: SchemaVersion = locked ?? this.state.currentVersion(type);
		const filled = fillFields(text, version.fields.map(toDefinition)) as ExtractedFieldRecord[];
		const previous = new Map((file.formValues?.fields ?? []).map((field) => [field.title, field]));
		const filledAtMs = file.formValues?.filledAtMs ?? 0;
		const selected = (field: SchemaField): boolean => {
			if (selection.paths) return selection.paths.includes(field.title);
			if (selection.partialRerun) return !previous.has(field.title) || (type.fieldChangedAtMs.get(field.id) ?? 0) > filledAtMs;
			return true;
		};
		const fields = version.fields.map((field, index) => {
			const fresh = filled[index];
			const old = previous.get(field.title);
			return selected(field) || !old ? fresh : { ...fresh, value: old.value };
		});
		const now = this.state.clock.now();
		if (file.formValues) {
			file.formValues.fields = fields;
			file.formValues.updatedAt = iso(now);
			file.formValues.filledAtMs = now;
			file.formValues.schemaRelationshipId = version.id;
		}
		file.schemaId = version.id;
		file.fileTypeId = type.id;
		file.fileClass = type.name;
		deriveSummary(file);
		file.updatedAtMs = now;
		this.state.touchData();
	}

	/** Runs `work` as background work that tests can await with idle(). */
	background(work: () => Promise<void>): void {
		this.state.beginWork();
		void this.pause()
			.then(work)
			.catch(() => undefined)
			.finally(() => this.state.endWork());
	}
}
