/** Records the emulator keeps. Public JSON is produced by the serialisers in serialize.ts. */

import type { ExtractedField } from './fill-fields';

export type KeyMode = 'read-write' | 'read-only';

/** `detailed`: DELETE /files lists deletedFileIds; `spec`: exactly the specification's shape (docs/dev/api-contract.md#reading-a-partial-delete). */
export type DeleteAnswerShape = 'detailed' | 'spec';

export interface ApiKeyRecord {
	key: string;
	workspaceId: string;
	userId: string;
	userEmail: string;
	mode: KeyMode;
	active: boolean;
	/** The key's default callback URL, used by uploads that send none. */
	defaultCallbackUrl?: string;
}

export interface Subscription {
	id: string;
	workspaceId: string;
	subscriptionPlan: string;
	isTrial: boolean;
	creditInCents: number;
	lowCreditThresholdInCents: number;
	expiringCreditInCents: number;
	expiryDate: string;
	storageInGB: number;
	maxStorageInGB: number;
	importCount: number;
	maxImportCount: number;
	exportCount: number;
	maxExportCount: number;
	aiSchemaCount: number;
	maxAiSchemaCount: number;
	isAutoRenewal: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface ProjectSetting {
	projectId: string;
	ocrModel: string;
	formTargetLanguage: string;
	isSplit: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface WorkspaceRecord {
	id: string;
	organizationId: string;
	name: string;
	subscription: Subscription;
	/** importCount and storageInGB of the subscription are computed on top of these. */
	baseImportCount: number;
	baseStorageBytes: number;
	projectSetting: ProjectSetting;
	defaultFileTypeId?: string;
}

/** Schema field definition (request side: type upper case). */
export interface SchemaField {
	id: string;
	title: string;
	description: string;
	type: string;
	format: string | null;
	hidden: boolean;
	internet_context: boolean;
	fieldSuggestion: { id: string; name: string } | null;
	items: SchemaField[] | null;
	value: unknown;
	enumValues: string[];
	inlineListType: string | null;
	/** Not in the specification: our documented choice for a field the service fills and a client may not write (README: Choices). */
	readOnly?: boolean;
}

/** A field as filled for one file (response side: type lower case). */
export type ExtractedFieldRecord = ExtractedField;

export interface SchemaVersion {
	id: string;
	fields: SchemaField[];
	blueprintId: string;
	originalSchemaId: string;
	blueprintMode: string;
	schemaType: string;
	state: string;
	usageApprovalState: string;
	createdAt: string;
	updatedAt: string;
	isCurrentVersion: boolean;
	versionNumber: number;
	versionMinorNumber: number;
	versionName: string;
	versionDescription: string;
	versionDisplayName: string;
	metadata: { lastModifiedBy: string; userId: string; organizationId: string; workspaceId: string };
}

export interface FileTypeRecord {
	id: string;
	workspaceId: string;
	name: string;
	description: string;
	classId: string;
	className: string;
	isDeleted: boolean;
	isPublished: boolean;
	isHero: boolean;
	mode: string;
	usageApprovalState: string;
	createdAt: string;
	updatedAt: string;
	versions: SchemaVersion[];
	/** When each field (by id) was last changed by PATCH /schemas; drives partialRerun. */
	fieldChangedAtMs: Map<string, number>;
}

export interface WorkflowRecord {
	id: string;
	workspaceId: string;
	name: string;
	description: string;
	status: string;
	createdAt: string;
	updatedAt: string;
	workflowSteps: Array<{
		id: string;
		stepType: string;
		stepExecutionOrder: number;
		stepExecutionLevel: string;
		status: string;
		/** Internal configuration: never exposed by the API. */
		config: Record<string, unknown>;
	}>;
}

export interface DirectoryRecord {
	id: string;
	workspaceId: string;
	name: string;
	description: string;
	status: string;
	parentId?: string;
	depth: number;
	isActive: boolean;
	metadata: { userId: string; organizationId: string; workspaceId: string; createdBy: string; lastModifiedBy: string };
	createdAt: string;
	updatedAt: string;
}

export interface StepRecord {
	step: string;
	status: 'completed' | 'error';
	timestamp: string;
	errorReason?: string;
}

export interface FormValueRecord {
	id: string;
	fileId: string;
	fileName: string;
	fileType: string;
	createdAt: string;
	updatedAt: string;
	schemaRelationshipId: string;
	languageCode: string | null;
	originalBlueprintFormValuesId: string | null;
	fields: ExtractedFieldRecord[];
	metadata: { createdBy: string; userId: string; organizationId: string; workspaceId: string };
	filledAtMs: number;
}

export type ExportStatus = 'error' | 'completed' | 'exporting' | 'empty';

export interface FileRecord {
	fileId: string;
	workspaceId: string;
	uploadId: string;
	fileName: string;
	fileType: string;
	fileSize: number;
	fileStoragePath: string;
	fileHash: string;
	status: string;
	currency: string;
	summary: string;
	duplicateToFileId: string | null;
	referenceId: string;
	isDuplicate: boolean;
	isEmbedded: boolean;
	schemaId: string;
	fileClass: string;
	fileContactId: string;
	fileContactName: string;
	createdAtMs: number;
	updatedAtMs: number;
	zipArchiveName?: string;
	exportInfo: { integrationExportStatus: ExportStatus; integrationExportMessages: string[] | null; integrationExportUpdatedAtMs: number } | null;
	directoryId: string | null;
	fileTypeId: string | null;
	callbackURL: string | null;
	apiRequestId: string;
	extractedText?: string;
	formValues: FormValueRecord | null;
	expiresAtMs?: number;
	sequence: number;
}

/** Parameters given when an upload was requested; processing uses them. */
export interface UploadParams {
	fileName: string;
	fileType: string;
	isSplit: boolean;
	isSplitExcel: boolean;
	callbackURL: string | null;
	callbackURLSource: 'user' | 'api_key' | null;
	ocrModel: string;
	schemaLocking: boolean;
	directoryId: string | null;
	destinationPath: string | null;
	isEphemeral: boolean;
	pageCount: number | null;
	apiRequestId: string | null;
	retainOriginalZipFileName: boolean;
}

export interface ZipMemberRecord {
	fileName: string;
	fileType: string;
	uploadId: string;
	statuses: StepRecord[];
	fileIds: string[];
}

export interface UploadRecord {
	uploadId: string;
	workspaceId: string;
	apiKey: string;
	userId: string;
	s3Path: string;
	params: UploadParams;
	isZip: boolean;
	/** Set for a ZIP member: the upload it came from. */
	parentUploadId?: string;
	createdAtMs: number;
	statuses: StepRecord[];
	fileIds: string[];
	members: ZipMemberRecord[];
	/** File id of the ZIP itself (used as apiRequestId when none was given). */
	zipFileId?: string;
	multipartId?: string;
	expiresAtMs?: number;
}

export interface StoredObject {
	key: string;
	workspaceId: string;
	diskPath: string;
	size: number;
	contentType: string;
	hash: string;
	/** Storage sink mode: the bytes were counted and hashed (MD5), not kept; diskPath is ''. */
	sink?: boolean;
}

export interface MultipartRecord {
	id: string;
	key: string;
	uploadId: string;
	workspaceId: string;
	totalSize: number;
	partSize: number;
	totalParts: number;
	/** diskPath is undefined for a part received in storage sink mode (its bytes were not kept). */
	parts: Map<number, { etag: string; size: number; diskPath?: string }>;
	completed: boolean;
	createdAtMs: number;
}

export type GrantKind = 'upload' | 'part' | 'preview';

export interface PresignedGrant {
	token: string;
	kind: GrantKind;
	method: 'PUT' | 'GET';
	key: string;
	expiresAtMs: number;
	issuedAtMs: number;
	uploadId?: string;
	multipartId?: string;
	partNumber?: number;
}

export interface IdempotencyRecord {
	fingerprint: string;
	createdAtMs: number;
	inFlight: boolean;
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export interface CallbackDelivery {
	url: string;
	payload: Record<string, unknown>;
	attempts: number;
	delivered: boolean;
	lastStatus?: number;
	lastError?: string;
	reason?: string;
	/** The status of each attempt (0: no answer), oldest first. */
	statuses: number[];
	/** The callback fault that made or shaped this delivery (callback-faults.ts), e.g. 'duplicate', 'forge'. */
	fault?: string;
	/** When the first attempt started and the last one ended (the clock's ms). */
	firstAttemptAt?: number;
	lastAttemptAt?: number;
}
