/**
 * A file type with many fields, generated (the API has no call that creates one): the editor's
 * case of a schema with thousands of fields (the field mapper's bound, its REST endpoint in the
 * real n8n, bench/schema-fields.bench.ts). Fields cycle through every kind: text, number, boolean,
 * date, a choice, an object, a table; every seventh field from the eleventh on is hidden.
 */
import type { SchemaFieldDefinition } from './fill-fields';
import { SEED_IDS, field, fromDefinition } from './seed';
import type { EmulatorState } from './state';
import type { SchemaField } from './types';

const KINDS = ['STRING', 'NUMBER', 'BOOLEAN', 'DATE', 'CHOICE', 'OBJECT', 'TABLE'] as const;

function generatedField(index: number): SchemaField {
	const kind = KINDS[index % KINDS.length];
	const title = `Field ${String(index + 1).padStart(4, '0')}`;
	const column = (columnTitle: string, type: string): SchemaField => field(`${title}-${columnTitle}`, columnTitle, type, '');
	return {
		...field(`gen-${index + 1}`, title, kind === 'CHOICE' ? 'STRING' : kind === 'TABLE' ? 'OBJECT' : kind, ''),
		hidden: index >= 10 && index % 7 === 3,
		enumValues: kind === 'CHOICE' ? ['Alpha', 'Beta', 'Gamma'] : [],
		items: kind === 'TABLE' ? [column('Name', 'STRING'), column('Count', 'NUMBER')] : null,
		inlineListType: kind === 'TABLE' ? 'TABLE' : null,
	};
}

/**
 * Adds a file type named `name` with `fieldCount` generated fields (or, given `definitions`,
 * those fields) to workspace A (by default), its schema version approved and current; returns its
 * id and its schema version's id.
 */
export function addGeneratedFileType(
	emulator: { state: EmulatorState },
	fieldCount: number,
	options: { name?: string; workspaceId?: string; id?: string; definitions?: SchemaFieldDefinition[] } = {},
): { fileTypeId: string; schemaId: string } {
	const { state } = emulator;
	const workspaceId = options.workspaceId ?? SEED_IDS.workspaceA;
	const workspace = state.workspace(workspaceId);
	const fileTypeId = options.id ?? `7771a${String(state.fileTypes.size).padStart(19, '0')}`;
	const schemaId = `7772a${fileTypeId.slice(5)}`;
	const name = options.name ?? `Generated (${fieldCount} fields)`;
	const now = state.nowIso();
	state.fileTypes.set(fileTypeId, {
		id: fileTypeId,
		workspaceId,
		name,
		description: `${fieldCount} generated fields`,
		classId: `${fileTypeId.slice(0, 20)}c1a5`,
		className: name,
		isDeleted: false,
		isPublished: true,
		isHero: false,
		mode: 'STANDARD',
		usageApprovalState: 'approved',
		createdAt: now,
		updatedAt: now,
		fieldChangedAtMs: new Map(),
		versions: [
			{
				id: schemaId,
				fields: options.definitions ? options.definitions.map(fromDefinition) : Array.from({ length: fieldCount }, (_, index) => generatedField(index)),
				blueprintId: fileTypeId,
				originalSchemaId: schemaId,
				blueprintMode: 'STANDARD',
				schemaType: 'FORM',
				state: 'active',
				usageApprovalState: 'approved',
				createdAt: now,
				updatedAt: now,
				isCurrentVersion: true,
				versionNumber: 1,
				versionMinorNumber: 0,
				versionName: 'v1.0',
				versionDescription: `${name} schema version 1`,
				versionDisplayName: `${name} v1.0`,
				metadata: { lastModifiedBy: 'system', userId: 'system', organizationId: workspace.organizationId, workspaceId },
			},
		],
	});
	state.touchData();
	return { fileTypeId, schemaId };
}
