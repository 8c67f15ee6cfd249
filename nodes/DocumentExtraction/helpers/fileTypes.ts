import type { IDataObject } from 'n8n-workflow';

/** File types as the node shows them: labels in pickers, summaries, the IDs Approve needs. */

function currentVersion(fileType: IDataObject): IDataObject {
	const version = fileType.currentSchemaVersion;
	return version && typeof version === 'object' && !Array.isArray(version) ? (version as IDataObject) : {};
}

/** What the approve call needs for a file type's current schema version. */
export function currentSchemaIds(fileType: IDataObject): { blueprintId?: string; schemaId?: string } {
	const version = currentVersion(fileType);
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	return {
		blueprintId: text(version.blueprintId) ?? text(fileType.id),
		schemaId: text(version.id),
	};
}

/** The name shown in pickers: "Invoice (v2.0, approved)". */
export function fileTypeLabel(fileType: IDataObject): string {
	const version = currentVersion(fileType);
	const details = [
		version.versionName ?? (version.versionNumber !== undefined ? `v${String(version.versionNumber)}` : undefined),
		fileType.usageApprovalState,
	].filter((part) => typeof part === 'string' || typeof part === 'number');
	const name = String(fileType.name ?? fileType.id);
	return details.length ? `${name} (${details.join(', ')})` : name;
}

/** Simplified file type: the fields a workflow usually needs, schema fields as titles. */
export function simplifyFileType(fileType: IDataObject): IDataObject {
	const version = currentVersion(fileType);
	const { blueprintId, schemaId } = currentSchemaIds(fileType);
	const fields = Array.isArray(version.fields) ? (version.fields as IDataObject[]) : [];
	return {
		id: fileType.id,
		name: fileType.name,
		description: fileType.description,
		className: fileType.className,
		mode: fileType.mode,
		isPublished: fileType.isPublished,
		usageApprovalState: fileType.usageApprovalState,
		blueprintId: blueprintId ?? null,
		schemaId: schemaId ?? null,
		schemaVersion: version.versionDisplayName ?? version.versionNumber ?? null,
		schemaApprovalState: version.usageApprovalState ?? null,
		fieldTitles: fields.map((field) => field.title),
		createdAt: fileType.createdAt,
		updatedAt: fileType.updatedAt,
	};
}
