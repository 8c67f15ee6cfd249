/** Seeded workspaces, keys, file types (with schema versions), workflows, subscriptions and
 * project settings. Ids are fixed so tests and demos can name them. */
import { INVOICE_SCHEMA_FIELDS, RECEIPT_SCHEMA_FIELDS } from '../documents';
import { PURCHASE_ORDER_SCHEMA_FIELDS } from '../purchase-order';
import type { SchemaFieldDefinition } from './fill-fields';
import type {
	ApiKeyRecord,
	FileTypeRecord,
	SchemaField,
	SchemaVersion,
	WorkflowRecord,
	WorkspaceRecord,
} from './types';

export const SEEDED_KEYS = {
	/** Workspace A, read-write. */
	readWrite: 'dex_test_wsA_readwrite_6f1c2a9e4b7d4c03',
	/** Workspace A, read-only: reads work, writes answer 403 (read-only mode). */
	readOnly: 'dex_test_wsA_readonly_2b8e5d1a9c3f4e07',
	/** Workspace A, inactive: every call answers 403. */
	inactive: 'dex_test_wsA_inactive_9d4a7c2e1f6b4a05',
	/** Workspace B, read-write: never sees workspace A's data. */
	workspaceB: 'dex_test_wsB_readwrite_4e7b1d9a3c5f4b02',
} as const;

export const SEED_IDS = {
	organizationA: '6650a0000000000000000001',
	workspaceA: '6650a0000000000000000a01',
	userA: '6650a0000000000000000b01',
	organizationB: '6650b0000000000000000001',
	workspaceB: '6650b0000000000000000a01',
	userB: '6650b0000000000000000b01',
	invoiceFileTypeA: '6650a00000000000000f0001',
	invoiceSchemaV1A: '6650a00000000000000c0001',
	invoiceSchemaV2A: '6650a00000000000000c0002',
	receiptFileTypeA: '6650a00000000000000f0002',
	receiptSchemaV1A: '6650a00000000000000c0003',
	/** Purchase Order: a field of every kind, an enum, a table, a hidden and a read-only field. */
	purchaseOrderFileTypeA: '6650a00000000000000f0003',
	purchaseOrderSchemaV1A: '6650a00000000000000c0004',
	invoiceFileTypeB: '6650b00000000000000f0001',
	invoiceSchemaV1B: '6650b00000000000000c0001',
	workflowA: '6650a00000000000000e0001',
	workflowB: '6650b00000000000000e0001',
} as const;

const SEED_TIME = '2026-01-05T09:00:00.000Z';

/** A schema field definition with every property the API lists (`extra` overrides). */
export function field(
	id: string,
	title: string,
	type: string,
	description: string,
	extra: Partial<SchemaField> = {},
): SchemaField {
	return {
		id,
		title,
		description,
		type,
		format: type === 'DATE' ? 'YYYY-MM-DD' : null,
		hidden: false,
		internet_context: false,
		fieldSuggestion: null,
		items: null,
		value: null,
		enumValues: [],
		inlineListType: null,
		...extra,
	};
}

/** The seeded schemas are the fixtures' (dev/documents.ts), so the fixture documents
 * extract to the fixtures' expected values. */
export function fromDefinition(definition: SchemaFieldDefinition): SchemaField {
	return field(definition.id ?? definition.title, definition.title, definition.type, definition.description ?? '', {
		format: definition.format ?? (definition.type === 'DATE' ? 'YYYY-MM-DD' : null),
		hidden: definition.hidden ?? false,
		internet_context: definition.internet_context ?? false,
		fieldSuggestion: definition.fieldSuggestion ?? null,
		items: definition.items ? definition.items.map(fromDefinition) : null,
		enumValues: definition.enumValues ?? [],
		inlineListType: definition.inlineListType ?? (definition.items ? 'TABLE' : null),
		...(definition.readOnly === true ? { readOnly: true } : {}),
	});
}

function invoiceFields(withLineItems: boolean): SchemaField[] {
	return INVOICE_SCHEMA_FIELDS.filter((definition) => withLineItems || definition.type !== 'OBJECT').map(fromDefinition);
}

function receiptFields(): SchemaField[] {
	return RECEIPT_SCHEMA_FIELDS.map(fromDefinition);
}

function purchaseOrderFields(): SchemaField[] {
	return PURCHASE_ORDER_SCHEMA_FIELDS.map(fromDefinition);
}

function schemaVersion(
	id: string,
	fileTypeId: string,
	workspace: { id: string; organizationId: string; userId: string },
	fields: SchemaField[],
	versionNumber: number,
	isCurrentVersion: boolean,
	usageApprovalState: string,
	name: string,
): SchemaVersion {
	return {
		id,
		fields,
		blueprintId: fileTypeId,
		originalSchemaId: id,
		blueprintMode: 'STANDARD',
		schemaType: 'FORM',
		state: 'active',
		usageApprovalState,
		createdAt: SEED_TIME,
		updatedAt: SEED_TIME,
		isCurrentVersion,
		versionNumber,
		versionMinorNumber: 0,
		versionName: `v${versionNumber}.0`,
		versionDescription: `${name} schema version ${versionNumber}`,
		versionDisplayName: `${name} v${versionNumber}.0`,
		metadata: {
			lastModifiedBy: workspace.userId,
			userId: workspace.userId,
			organizationId: workspace.organizationId,
			workspaceId: workspace.id,
		},
	};
}

function fileType(
	id: string,
	workspaceId: string,
	name: string,
	description: string,
	versions: SchemaVersion[],
	usageApprovalState: string,
	createdAt: string,
): FileTypeRecord {
	return {
		id,
		workspaceId,
		name,
		description,
		classId: `${id.slice(0, 20)}c1a5`,
		className: name,
		isDeleted: false,
		isPublished: true,
		isHero: name === 'Invoice',
		mode: 'STANDARD',
		usageApprovalState,
		createdAt,
		updatedAt: createdAt,
		versions,
		fieldChangedAtMs: new Map(),
	};
}

export interface SeedData {
	workspaces: WorkspaceRecord[];
	keys: ApiKeyRecord[];
	fileTypes: FileTypeRecord[];
	workflows: WorkflowRecord[];
}

function workspace(id: string, organizationId: string, name: string, plan: string): WorkspaceRecord {
	return {
		id,
		organizationId,
		name,
		baseImportCount: 0,
		baseStorageBytes: 0,
		subscription: {
			id: `${id.slice(0, 20)}5b01`,
			workspaceId: id,
			subscriptionPlan: plan,
			isTrial: false,
			creditInCents: 250000,
			lowCreditThresholdInCents: 5000,
			expiringCreditInCents: 0,
			expiryDate: '2027-01-05T00:00:00.000Z',
			storageInGB: 0,
			maxStorageInGB: 100,
			importCount: 0,
			maxImportCount: 10000,
			exportCount: 0,
			maxExportCount: 10000,
			aiSchemaCount: 2,
			maxAiSchemaCount: 20,
			isAutoRenewal: true,
			createdAt: SEED_TIME,
			updatedAt: SEED_TIME,
		},
		projectSetting: {
			projectId: id,
			ocrModel: 'Beethoven_ENG_GP25',
			formTargetLanguage: 'en',
			isSplit: false,
			createdAt: SEED_TIME,
			updatedAt: SEED_TIME,
		},
	};
}

/** Workspaces and keys exist always; `withData` adds file types and workflows. */
export function buildSeed(withData: boolean): SeedData {
	const workspaceA = workspace(SEED_IDS.workspaceA, SEED_IDS.organizationA, 'Workspace A', 'BUSINESS');
	const workspaceB = workspace(SEED_IDS.workspaceB, SEED_IDS.organizationB, 'Workspace B', 'STARTER');
	const keys: ApiKeyRecord[] = [
		{ key: SEEDED_KEYS.readWrite, workspaceId: workspaceA.id, userId: SEED_IDS.userA, userEmail: 'owner@workspace-a.example', mode: 'read-write', active: true },
		{ key: SEEDED_KEYS.readOnly, workspaceId: workspaceA.id, userId: SEED_IDS.userA, userEmail: 'owner@workspace-a.example', mode: 'read-only', active: true },
		{ key: SEEDED_KEYS.inactive, workspaceId: workspaceA.id, userId: SEED_IDS.userA, userEmail: 'owner@workspace-a.example', mode: 'read-write', active: false },
		{ key: SEEDED_KEYS.workspaceB, workspaceId: workspaceB.id, userId: SEED_IDS.userB, userEmail: 'owner@workspace-b.example', mode: 'read-write', active: true },
	];
	if (!withData) return { workspaces: [workspaceA, workspaceB], keys, fileTypes: [], workflows: [] };

	const a = { id: workspaceA.id, organizationId: workspaceA.organizationId, userId: SEED_IDS.userA };
	const b = { id: workspaceB.id, organizationId: workspaceB.organizationId, userId: SEED_IDS.userB };
	const fileTypes = [
		fileType(SEED_IDS.invoiceFileTypeA, a.id, 'Invoice', 'Supplier invoices', [
			schemaVersion(SEED_IDS.invoiceSchemaV1A, SEED_IDS.invoiceFileTypeA, a, invoiceFields(false), 1, false, 'approved', 'Invoice'),
			schemaVersion(SEED_IDS.invoiceSchemaV2A, SEED_IDS.invoiceFileTypeA, a, invoiceFields(true), 2, true, 'approved', 'Invoice'),
		], 'approved', '2026-01-05T09:00:00.000Z'),
		fileType(SEED_IDS.receiptFileTypeA, a.id, 'Receipt', 'Till and card receipts', [
			schemaVersion(SEED_IDS.receiptSchemaV1A, SEED_IDS.receiptFileTypeA, a, receiptFields(), 1, true, 'pending', 'Receipt'),
		], 'pending', '2026-01-06T09:00:00.000Z'),
		fileType(SEED_IDS.purchaseOrderFileTypeA, a.id, 'Purchase Order', 'Orders placed with suppliers', [
			schemaVersion(SEED_IDS.purchaseOrderSchemaV1A, SEED_IDS.purchaseOrderFileTypeA, a, purchaseOrderFields(), 1, true, 'approved', 'Purchase Order'),
		], 'approved', '2026-01-07T09:00:00.000Z'),
		fileType(SEED_IDS.invoiceFileTypeB, b.id, 'Invoice', 'Invoices of workspace B', [
			schemaVersion(SEED_IDS.invoiceSchemaV1B, SEED_IDS.invoiceFileTypeB, b, invoiceFields(true), 1, true, 'approved', 'Invoice'),
		], 'approved', '2026-01-05T09:00:00.000Z'),
	];
	workspaceA.defaultFileTypeId = SEED_IDS.invoiceFileTypeA;
	workspaceB.defaultFileTypeId = SEED_IDS.invoiceFileTypeB;

	const workflows: WorkflowRecord[] = [
		{
			id: SEED_IDS.workflowA,
			workspaceId: a.id,
			name: 'Invoice three-way match',
			description: 'Matches invoices against purchase orders and receipts',
			status: 'active',
			createdAt: SEED_TIME,
			updatedAt: SEED_TIME,
			workflowSteps: [
				{ id: '6650a00000000000000e1001', stepType: 'EXTRACTION', stepExecutionOrder: 0, stepExecutionLevel: 'DOCUMENT', status: 'active', config: { model: 'Beethoven_ENG_GP25' } },
				{ id: '6650a00000000000000e1002', stepType: 'MATCH_COMPARE', stepExecutionOrder: 1, stepExecutionLevel: 'DOCUMENT', status: 'active', config: { tolerance: 0.01 } },
				{ id: '6650a00000000000000e1003', stepType: 'EXPORT', stepExecutionOrder: 2, stepExecutionLevel: 'BATCH', status: 'active', config: { target: 'erp' } },
			],
		},
		{
			id: SEED_IDS.workflowB,
			workspaceId: b.id,
			name: 'Workspace B intake',
			description: 'Extraction only',
			status: 'active',
			createdAt: SEED_TIME,
			updatedAt: SEED_TIME,
			workflowSteps: [
				{ id: '6650b00000000000000e1001', stepType: 'EXTRACTION', stepExecutionOrder: 0, stepExecutionLevel: 'DOCUMENT', status: 'active', config: {} },
			],
		},
	];
	return { workspaces: [workspaceA, workspaceB], keys, fileTypes, workflows };
}
