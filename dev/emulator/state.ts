/** The emulator's whole state, scoped by workspace. Tests may read it directly. */
import { rm } from 'node:fs/promises';
import type { Clock } from './clock';
import { iso } from './clock';
import { buildSeed } from './seed';
import type {
	ApiKeyRecord,
	CallbackDelivery,
	DirectoryRecord,
	FileRecord,
	FileTypeRecord,
	IdempotencyRecord,
	MultipartRecord,
	PresignedGrant,
	SchemaVersion,
	StoredObject,
	UploadRecord,
	WorkflowRecord,
	WorkspaceRecord,
} from './types';

export const EPHEMERAL_RETENTION_MS = 24 * 60 * 60 * 1000;

export class EmulatorState {
	readonly workspaces = new Map<string, WorkspaceRecord>();
	readonly keys = new Map<string, ApiKeyRecord>();
	readonly fileTypes = new Map<string, FileTypeRecord>();
	readonly workflows = new Map<string, WorkflowRecord>();
	readonly directories = new Map<string, DirectoryRecord>();
	readonly files = new Map<string, FileRecord>();
	readonly uploads = new Map<string, UploadRecord>();
	readonly objects = new Map<string, StoredObject>();
	readonly multiparts = new Map<string, MultipartRecord>();
	readonly grants = new Map<string, PresignedGrant>();
	/** Keyed by `${workspaceId}\n${Idempotency-Key}`. */
	readonly idempotency = new Map<string, IdempotencyRecord>();
	readonly callbacks: CallbackDelivery[] = [];
	/** Files DELETE /files refuses (FORBIDDEN), with the detail it reports; clear() to lift. */
	readonly protectedFiles = new Map<string, string>();
	/** Count of files created per workspace (drives subscription.importCount). */
	readonly importCounts = new Map<string, number>();
	/** Bumped on every change of files or values; keys the query cache. */
	dataVersion = 0;
	private fileSequence = 0;
	private earliestExpiryMs = Number.POSITIVE_INFINITY;
	private pendingWork = 0;
	private idleWaiters: Array<() => void> = [];

	constructor(
		readonly clock: Clock,
		seed: boolean,
	) {
		const data = buildSeed(seed);
		for (const workspace of data.workspaces) this.workspaces.set(workspace.id, workspace);
		for (const key of data.keys) this.keys.set(key.key, key);
		for (const type of data.fileTypes) this.fileTypes.set(type.id, type);
		for (const workflow of data.workflows) this.workflows.set(workflow.id, workflow);
	}

	nowIso(): string {
		return iso(this.clock.now());
	}

	nextFileSequence(): number {
		this.fileSequence += 1;
		return this.fileSequence;
	}

	/** Sets (or clears with undefined) the default callback URL of an API key. */
	setDefaultCallbackUrl(apiKey: string, url: string | undefined): void {
		const record = this.keys.get(apiKey);
		if (!record) throw new Error(`Unknown API key`);
		record.defaultCallbackUrl = url;
	}

	workspace(id: string): WorkspaceRecord {
		const workspace = this.workspaces.get(id);
		if (!workspace) throw new Error(`Unknown workspace ${id}`);
		return workspace;
	}

	filesOf(workspaceId: string): FileRecord[] {
		this.purgeExpired();
		return [...this.files.values()].filter((file) => file.workspaceId === workspaceId);
	}

	file(workspaceId: string, fileId: string): FileRecord | undefined {
		this.purgeExpired();
		const file = this.files.get(fileId);
		return file && file.workspaceId === workspaceId ? file : undefined;
	}

	upload(workspaceId: string, uploadId: string): UploadRecord | undefined {
		this.purgeExpired();
		const upload = this.uploads.get(uploadId);
		return upload && upload.workspaceId === workspaceId ? upload : undefined;
	}

	fileTypesOf(workspaceId: string): FileTypeRecord[] {
		return [...this.fileTypes.values()].filter((type) => type.workspaceId === workspaceId && !type.isDeleted);
	}

	currentVersion(type: FileTypeRecord): SchemaVersion {
		return type.versions.find((version) => version.isCurrentVersion) ?? type.versions[type.versions.length - 1];
	}

	/** Finds a schema version (by id) of the workspace, with its file type. */
	schemaVersion(workspaceId: string, schemaId: string): { type: FileTypeRecord; version: SchemaVersion } | undefined {
		for (const type of this.fileTypesOf(workspaceId)) {
			const version = type.versions.find((candidate) => candidate.id === schemaId);
			if (version) return { type, version };
		}
		return undefined;
	}

	subscriptionOf(workspaceId: string): WorkspaceRecord['subscription'] {
		this.purgeExpired();
		const workspace = this.workspace(workspaceId);
		let bytes = workspace.baseStorageBytes;
		for (const object of this.objects.values()) {
			if (object.workspaceId === workspaceId) bytes += object.size;
		}
		return {
			...workspace.subscription,
			importCount: workspace.baseImportCount + (this.importCounts.get(workspaceId) ?? 0),
			storageInGB: Math.round((bytes / 1024 ** 3) * 1e6) / 1e6,
		};
	}

	countImport(workspaceId: string): void {
		this.importCounts.set(workspaceId, (this.importCounts.get(workspaceId) ?? 0) + 1);
		const workspace = this.workspace(workspaceId);
		workspace.subscription.updatedAt = this.nowIso();
	}

	touchData(): void {
		this.dataVersion += 1;
	}

	/** DELETE /files reports these files as failed (FORBIDDEN, with `detail`) and deletes the others. */
	protectFiles(fileIds: string[], detail?: string): void {
		for (const fileId of fileIds) this.protectedFiles.set(fileId, detail ?? `Access denied: file ${fileId} cannot be deleted.`);
	}

	/** Deletes a file, its values and its stored bytes. */
	deleteFile(file: FileRecord): void {
		this.files.delete(file.fileId);
		const object = this.objects.get(file.fileStoragePath);
		if (object) {
			const stillUsed = [...this.files.values()].some((other) => other.fileStoragePath === object.key);
			if (!stillUsed) {
				this.objects.delete(object.key);
				void rm(object.diskPath, { force: true });
			}
		}
		this.touchData();
	}

	/** Registers an expiry time so purgeExpired knows when it has work. */
	scheduleExpiry(atMs: number): void {
		if (atMs < this.earliestExpiryMs) this.earliestExpiryMs = atMs;
	}

	/** Removes ephemeral files (and their uploads) 24 hours after upload, by the clock. */
	purgeExpired(): void {
		const now = this.clock.now();
		if (now < this.earliestExpiryMs) return;
		this.earliestExpiryMs = Number.POSITIVE_INFINITY;
		for (const file of this.files.values()) {
			if (file.expiresAtMs !== undefined && file.expiresAtMs > now) this.scheduleExpiry(file.expiresAtMs);
		}
		for (const upload of this.uploads.values()) {
			if (upload.expiresAtMs !== undefined && upload.expiresAtMs > now) this.scheduleExpiry(upload.expiresAtMs);
		}
		for (const file of this.files.values()) {
			if (file.expiresAtMs !== undefined && file.expiresAtMs <= now) this.deleteFile(file);
		}
		for (const upload of this.uploads.values()) {
			if (upload.expiresAtMs !== undefined && upload.expiresAtMs <= now) {
				this.uploads.delete(upload.uploadId);
				const object = this.objects.get(upload.s3Path);
				if (object) {
					this.objects.delete(object.key);
					void rm(object.diskPath, { force: true });
				}
			}
		}
	}

	/** Background work (processing, reruns) registers here so tests can await idleness. */
	beginWork(): void {
		this.pendingWork += 1;
	}

	endWork(): void {
		this.pendingWork -= 1;
		if (this.pendingWork === 0) {
			const waiters = this.idleWaiters;
			this.idleWaiters = [];
			for (const resolve of waiters) resolve();
		}
	}

	/** Resolves when no processing or background rerun is running. */
	idle(): Promise<void> {
		if (this.pendingWork === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}
}
