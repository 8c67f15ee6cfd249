/** Public JSON shapes of the records (internal bookkeeping stripped). */
import { iso } from './clock';
import type {
	DirectoryRecord,
	FileRecord,
	FileTypeRecord,
	FormValueRecord,
	SchemaVersion,
	WorkflowRecord,
} from './types';

export function fileJson(file: FileRecord): Record<string, unknown> {
	const json: Record<string, unknown> = {
		fileId: file.fileId,
		fileName: file.fileName,
		fileType: file.fileType,
		fileSize: file.fileSize,
		fileStoragePath: file.fileStoragePath,
		fileHash: file.fileHash,
		uploadId: file.uploadId,
		status: file.status,
		currency: file.currency,
		summary: file.summary,
		duplicateToFileId: file.duplicateToFileId,
		referenceId: file.referenceId,
		isDuplicate: file.isDuplicate,
		isEmbedded: file.isEmbedded,
		schemaId: file.schemaId,
		fileClass: file.fileClass,
		fileContactId: file.fileContactId,
		fileContactName: file.fileContactName,
		createdAt: iso(file.createdAtMs),
		updatedAt: iso(file.updatedAtMs),
		integrationExportStatus: file.exportInfo?.integrationExportStatus ?? null,
		integrationExportMessages: file.exportInfo?.integrationExportMessages ?? null,
		integrationExportUpdatedAt: file.exportInfo ? iso(file.exportInfo.integrationExportUpdatedAtMs) : null,
	};
	if (file.zipArchiveName !== undefined) json.zipArchiveName = file.zipArchiveName;
	return json;
}

export function schemaVersionJson(version: SchemaVersion): Record<string, unknown> {
	return { ...version, fields: version.fields.map((field) => ({ ...field })) };
}

export function fileTypeJson(type: FileTypeRecord, current: SchemaVersion): Record<string, unknown> {
	return {
		id: type.id,
		name: type.name,
		description: type.description,
		classId: type.classId,
		className: type.className,
		isDeleted: type.isDeleted,
		isPublished: type.isPublished,
		isHero: type.isHero,
		mode: type.mode,
		usageApprovalState: type.usageApprovalState,
		createdAt: type.createdAt,
		updatedAt: type.updatedAt,
		currentSchemaVersion: schemaVersionJson(current),
	};
}

export function workflowJson(workflow: WorkflowRecord): Record<string, unknown> {
	return {
		id: workflow.id,
		name: workflow.name,
		description: workflow.description,
		status: workflow.status,
		createdAt: workflow.createdAt,
		updatedAt: workflow.updatedAt,
		workflowSteps: workflow.workflowSteps.map((step) => ({
			id: step.id,
			stepType: step.stepType,
			stepExecutionOrder: step.stepExecutionOrder,
			stepExecutionLevel: step.stepExecutionLevel,
			status: step.status,
		})),
	};
}

export function directoryJson(directory: DirectoryRecord): Record<string, unknown> {
	const json: Record<string, unknown> = {
		id: directory.id,
		name: directory.name,
		description: directory.description,
		status: directory.status,
	};
	if (directory.parentId !== undefined) json.parentId = directory.parentId;
	json.depth = directory.depth;
	json.metadata = { ...directory.metadata };
	json.createdAt = directory.createdAt;
	json.updatedAt = directory.updatedAt;
	return json;
}

/** Table values longer than this are cut unless includeFullTableData=true. */
export const TABLE_ROW_LIMIT = 100;

export function formValueJson(record: FormValueRecord, includeFullTableData: boolean): Record<string, unknown> {
	return {
		id: record.id,
		fileId: record.fileId,
		fileName: record.fileName,
		fileType: record.fileType,
		createdAt: record.createdAt,
		updatedAt: record.updatedAt,
		schemaRelationshipId: record.schemaRelationshipId,
		languageCode: record.languageCode,
		originalBlueprintFormValuesId: record.originalBlueprintFormValuesId,
		fields: record.fields.map((field) => ({
			title: field.title,
			type: field.type,
			description: field.description,
			format: field.format,
			hidden: field.hidden,
			value:
				Array.isArray(field.value) && !includeFullTableData && field.value.length > TABLE_ROW_LIMIT
					? field.value.slice(0, TABLE_ROW_LIMIT)
					: field.value,
			items: field.items,
			...(field.readOnly === true ? { readOnly: true } : {}),
		})),
		metadata: { ...record.metadata },
	};
}
