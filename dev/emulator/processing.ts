/** What happens after bytes land in storage: upload steps, ZIP extraction, duplicate
 * detection, text extraction and form filling, callbacks. Reruns reuse the same filling. */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import * as yauzl from 'yauzl';
import type { CallbackSender } from './callbacks';
import { iso } from './clock';
import { EXTRACTION_ERRORS, ExtractionError, extractText, fillFields, type SchemaFieldDefinition } from './extraction';
import { newObjectId, newUuid } from './ids';
import type { ObjectStore } from './object-store';
import { EPHEMERAL_RETENTION_MS, type EmulatorState } from './state';
import type {
	ExtractedFieldRecord,
	FileRecord,
	FileTypeRecord,
	SchemaField,
	SchemaVersion,
	StepRecord,
	StoredObject,
	UploadRecord,
	ZipMemberRecord,
} from './types';

/** Extracted text up to this size is kept for reruns; larger text is read again. */
const TEXT_CACHE_LIMIT = 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
	'.text': 'text/plain',
	'.md': 'text/markdown',
	'.csv': 'text/csv',
	'.tsv': 'text/tab-separated-values',
	'.json': 'application/json',
	'.xml': 'application/xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.tif': 'image/tiff',
	'.tiff': 'image/tiff',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.xls': 'application/vnd.ms-excel',
	'.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	'.doc': 'application/msword',
	'.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	'.zip': 'application/zip',
};

export function mimeTypeOf(fileName: string): string {
	return MIME_BY_EXTENSION[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

export function isZipUpload(fileName: string, fileType: string): boolean {
	const mime = fileType.split(';')[0].trim().toLowerCase();
	return mime === 'application/zip' || mime === 'application/x-zip-compressed' || fileName.toLowerCase().endsWith('.zip');
}

/**
 * The ZIP name kept as zipArchiveName (retainOriginalZipFileName): control characters, path
 * separators and `..` removed, leading/trailing dots and whitespace trimmed, 255 characters.
 */
export function sanitizeZipArchiveName(name: string): string {
	let result = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(/[/\\]/g, '');
	while (result.includes('..')) result = result.replace(/\.\./g, '');
	result = result.replace(/^[\s.]+|[\s.]+$/g, '');
	const characters = Array.from(result);
	return characters.length > 255 ? characters.slice(0, 255).join('') : result;
}

function toDefinition(field: SchemaField): SchemaFieldDefinition {
	return {
		id: field.id,
		title: field.title,
		description: field.description,
		type: field.type,
		format: field.format,
		hidden: field.hidden,
		internet_context: field.internet_context,
		items: field.items ? field.items.map(toDefinition) : null,
		enumValues: field.enumValues,
		...(field.fieldSuggestion ? { fieldSuggestion: field.fieldSuggestion } : {}),
		...(field.inlineListType ? { inlineListType: field.inlineListType } : {}),
	};
}

/** The label of a `Label: value` line (1 to 100 characters before the first colon), in linear time. */
function labelOf(line: string): string | undefined {
	const colon = line.indexOf(':');
	if (colon < 0) return undefined;
	const label = line.slice(0, colon).trim();
	return label.length >= 1 && label.length <= 100 ? label : undefined;
}

function normaliseTitle(title: string): string {
	return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

interface UnzippedMember {
	name: string;
	object?: StoredObject;
	error?: string;
}

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
	) {}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	/** One third of the processing delay between steps (real time). */
	private pause(): Promise<void> {
		const ms = this.options.processingDelayMs / 3;
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
		await this.pause();
		this.addStep(upload, upload.statuses, 'processing_started', 'completed');
		this.setStatus(file, 'processing');
		await this.pause();
		this.addStep(upload, upload.statuses, 'fraud_detection', 'completed');
		await this.pause();
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
		await this.pause();
		this.addStep(upload, upload.statuses, 'processing_started', 'completed');
		await this.pause();
		let members: UnzippedMember[];
		try {
			if (object.sink) throw new Error('The emulator runs in storage sink mode: the ZIP archive was not kept, so it cannot be extracted');
			members = await this.unzip(upload, object);
		} catch (error) {
			const reason = (error as Error).message;
			this.addStep(upload, upload.statuses, 'zip_extraction', 'error', reason);
			this.addStep(upload, upload.statuses, 'processing_failed', 'error', reason);
			this.notify(upload, { status: 'failed', step: 'processing_failed', errorReason: reason });
			return;
		}
		this.addStep(upload, upload.statuses, 'zip_extraction', 'completed');
		await this.pause();
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

	/** Extracts every file entry of the archive to its own stored object. */
	private unzip(upload: UploadRecord, object: StoredObject): Promise<UnzippedMember[]> {
		const prefix = upload.s3Path.slice(0, upload.s3Path.lastIndexOf('/'));
		return new Promise((resolve, reject) => {
			yauzl.open(object.diskPath, { lazyEntries: true, autoClose: true }, (openError, zip) => {
				if (openError || !zip) {
					reject(new Error('The ZIP archive could not be read'));
					return;
				}
				const members: UnzippedMember[] = [];
				zip.on('error', () => reject(new Error('The ZIP archive could not be read')));
				zip.on('end', () => {
					if (members.length === 0) reject(new Error('The ZIP archive contains no files'));
					else resolve(members);
				});
				zip.on('entry', (entry: yauzl.Entry) => {
					const entryName = entry.fileName.replace(/\\/g, '/');
					if (entryName.endsWith('/') || entryName.startsWith('__MACOSX/') || basename(entryName).startsWith('._')) {
						zip.readEntry();
						return;
					}
					const index = members.length + 1;
					const name = basename(entryName) || `member-${index}`;
					const key = `${prefix}/members/${index}/${name}`;
					const unreadable = (): void => {
						members.push({ name, error: 'The ZIP member could not be read' });
						zip.readEntry();
					};
					zip.openReadStream(entry, (streamError, stream) => {
						if (streamError || !stream) {
							unreadable();
							return;
						}
						this.store
							.writeStream(stream)
							.then(async (written) => {
								members.push({ name, object: await this.store.commit(written.tmpPath, key, upload.workspaceId, mimeTypeOf(name), written.size, written.sha256) });
								zip.readEntry();
							})
							.catch(unreadable);
					});
				});
				zip.readEntry();
			});
		});
	}

	/** Picks the file type: a `Document Type: <name>` line wins; otherwise the type whose
	 * field titles appear most often as `Label:` lines; ties and no match give the default. */
	pickFileType(workspaceId: string, text: string): FileTypeRecord | undefined {
		const types = this.state.fileTypesOf(workspaceId);
		if (types.length === 0) return undefined;
		const labels = new Set<string>();
		for (const line of text.split(/\r?\n/)) {
			const raw = labelOf(line);
			if (raw === undefined) continue;
			const label = normaliseTitle(raw);
			if (label === 'document type') {
				const wanted = normaliseTitle(line.slice(line.indexOf(':') + 1));
				const named = types.find((type) => normaliseTitle(type.name) === wanted);
				if (named) return named;
			}
			labels.add(label);
		}
		const workspace = this.state.workspace(workspaceId);
		const fallback = types.find((type) => type.id === workspace.defaultFileTypeId) ?? types[0];
		let best = fallback;
		let bestScore = this.score(fallback, labels);
		for (const type of types) {
			const score = this.score(type, labels);
			if (score > bestScore) {
				best = type;
				bestScore = score;
			}
		}
		return best;
	}

	private score(type: FileTypeRecord, labels: Set<string>): number {
		return this.state.currentVersion(type).fields.filter((field) => labels.has(normaliseTitle(field.title))).length;
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
			const type = this.pickFileType(file.workspaceId, text);
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
			this.deriveSummary(file);
			this.setStatus(file, 'processed');
			return undefined;
		} catch (error) {
			this.setStatus(file, 'failed');
			return error instanceof ExtractionError ? error.message : `Processing failed: ${(error as Error).message}`;
		}
	}

	/** currency, referenceId, fileContactName/Id and summary from the filled values. */
	deriveSummary(file: FileRecord): void {
		const fields = file.formValues?.fields ?? [];
		const valueOf = (predicate: (title: string) => boolean): unknown => fields.find((field) => predicate(field.title.toLowerCase()) && field.value !== null)?.value;
		const currency = valueOf((title) => title === 'currency');
		const reference = valueOf((title) => title.endsWith('number'));
		const contact = valueOf((title) => title === 'vendor name' || title === 'merchant name' || title.endsWith(' name'));
		const total = valueOf((title) => title === 'total amount' || title === 'total');
		file.currency = typeof currency === 'string' ? currency : '';
		file.referenceId = typeof reference === 'string' ? reference : '';
		file.fileContactName = typeof contact === 'string' ? contact : '';
		file.fileContactId = file.fileContactName ? createHash('sha1').update(`${file.workspaceId}:${file.fileContactName}`).digest('hex').slice(0, 24) : '';
		const parts = [file.fileClass];
		if (file.referenceId) parts.push(file.referenceId);
		if (file.fileContactName) parts.push(`from ${file.fileContactName}`);
		if (typeof total === 'number') parts.push(`total ${total}${file.currency ? ` ${file.currency}` : ''}`);
		file.summary = parts.join(' ');
	}

	/** Re-fills a processed file against its schema version (current, or the locked one). */
	async rerun(file: FileRecord, selection: { paths?: string[]; partialRerun?: boolean }, schemaLocking: boolean): Promise<void> {
		const object = this.state.objects.get(file.fileStoragePath);
		if (!object) throw new ExtractionError('The stored file could not be read');
		const text = await this.textOf(file, object.diskPath);
		const type = (file.fileTypeId ? this.state.fileTypes.get(file.fileTypeId) : undefined) ?? this.pickFileType(file.workspaceId, text);
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
		this.deriveSummary(file);
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
