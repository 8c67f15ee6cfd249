/** Files: list, delete, values (read/update), export status, preview (single/batch), rerun. */
import { deriveSummary } from '../classify';
import { iso } from '../clock';
import { isUuid } from '../ids';
import { ApiError, badRequest, notFound, validationError, type FieldViolation } from '../problem';
import { ok, type RequestContext, type Route } from '../router';
import { fileJson, formValueJson } from '../serialize';
import { PREVIEW_URL_TTL_SECONDS } from '../storage';
import type { ExportStatus, ExtractedFieldRecord, FileRecord } from '../types';
import { BodyValidator, isPlainObject, QueryValidator } from '../validate';

export const MAX_PAGE_SIZE = 100;
const EXPORT_STATUSES: readonly ExportStatus[] = ['error', 'completed', 'exporting', 'empty'];

function requireFile(ctx: RequestContext, fileId: string): FileRecord {
	const file = ctx.core.state.file(ctx.workspace.id, fileId);
	if (!file) throw notFound(`File ${fileId} was not found.`);
	return file;
}

/** fileIds as a comma-separated string or a JSON array string. */
function parseFileIdsParameter(q: QueryValidator): string[] | undefined {
	const raw = q.raw('fileIds');
	if (raw === undefined) return undefined;
	let ids: unknown;
	if (raw.trim().startsWith('[')) {
		try {
			ids = JSON.parse(raw);
		} catch {
			q.add('INVALID_FORMAT', 'fileIds', 'fileIds looks like a JSON array but is not valid JSON.');
			return undefined;
		}
		if (!Array.isArray(ids)) {
			q.add('INVALID_FORMAT', 'fileIds', 'fileIds must be a JSON array of UUID strings or a comma-separated list.');
			return undefined;
		}
	} else {
		ids = raw === '' ? [] : raw.split(',');
	}
	const list = ids as unknown[];
	if (list.length === 0) {
		q.add('INVALID_VALUE', 'fileIds', 'fileIds must not be empty.');
		return undefined;
	}
	const invalid = list.findIndex((id) => !isUuid(id));
	if (invalid >= 0) {
		q.add('INVALID_FORMAT', 'fileIds', `fileIds[${invalid}] is not a UUID: "${String(list[invalid])}" (comma-separated, no spaces, or a JSON array).`);
		return undefined;
	}
	return list as string[];
}

function listFiles(ctx: RequestContext) {
	const q = new QueryValidator(ctx.query);
	q.rejectUnknown(['fileIds', 'updatedAfter', 'createdAfter', 'page', 'limit', 'sortBy', 'sortOrder']);
	const fileIds = parseFileIdsParameter(q);
	const updatedAfter = q.timestamp('updatedAfter');
	const createdAfter = q.timestamp('createdAfter');
	const page = q.integer('page', { defaultValue: 1, min: 1 });
	const limit = q.integer('limit', { defaultValue: 100, min: 1, max: MAX_PAGE_SIZE });
	const sortBy = q.enumValue('sortBy', ['createdAt', 'updatedAt'] as const, 'createdAt');
	const sortOrder = q.enumValue('sortOrder', ['ASC', 'DESC'] as const, 'ASC');
	q.throwIfInvalid();
	const wanted = fileIds ? new Set(fileIds) : undefined;
	const sortKey = sortBy === 'createdAt' ? (file: FileRecord) => file.createdAtMs : (file: FileRecord) => file.updatedAtMs;
	const direction = sortOrder === 'ASC' ? 1 : -1;
	const matching = ctx.core.state
		.filesOf(ctx.workspace.id)
		.filter((file) => !wanted || wanted.has(file.fileId))
		.filter((file) => updatedAfter === undefined || file.updatedAtMs >= updatedAfter)
		.filter((file) => createdAfter === undefined || file.createdAtMs >= createdAfter)
		.sort((left, right) => direction * (sortKey(left) - sortKey(right) || left.sequence - right.sequence));
	const files = matching.slice((page - 1) * limit, page * limit).map(fileJson);
	return ok({ files, count: matching.length, currentPage: page });
}

function deleteFiles(ctx: RequestContext) {
	const body = ctx.body;
	if (!isPlainObject(body) || body.fileIds === undefined || body.fileIds === null) {
		throw badRequest('fileIds is required: an array of file UUIDs or a comma-separated string of them.');
	}
	const v = new BodyValidator(body);
	v.rejectUnknown(['fileIds']);
	const raw = body.fileIds;
	let ids: unknown[];
	if (typeof raw === 'string') ids = raw === '' ? [] : raw.split(',');
	else if (Array.isArray(raw)) ids = raw;
	else {
		v.add('INVALID_TYPE', 'fileIds', 'fileIds must be an array of UUID strings or a comma-separated string.');
		v.throwIfInvalid();
		return ok({});
	}
	if (ids.length === 0) throw badRequest('fileIds must not be empty.');
	ids.forEach((id, index) => {
		if (!isUuid(id)) {
			const shown = typeof id === 'string' ? `"${id}"` : JSON.stringify(id);
			v.violations.push({
				code: 'INVALID_FORMAT',
				detail: `fileIds[${index}] is not a file UUID: ${shown}${typeof raw === 'string' ? ' (comma-separated, no spaces)' : ''}.`,
				pointer: Array.isArray(raw) ? `/fileIds/${index}` : '/fileIds',
			});
		}
	});
	v.throwIfInvalid();
	const unique = [...new Set(ids as string[])];
	const deletedFileIds: string[] = [];
	const errors: Array<{ fileId: string; code: string; detail: string }> = [];
	for (const fileId of unique) {
		const file = ctx.core.state.file(ctx.workspace.id, fileId);
		const refusal = ctx.core.state.protectedFiles.get(fileId);
		if (!file) {
			errors.push({ fileId, code: 'NOT_FOUND', detail: `File ${fileId} was not found.` });
		} else if (refusal !== undefined) {
			errors.push({ fileId, code: 'FORBIDDEN', detail: refusal });
		} else {
			ctx.core.state.deleteFile(file);
			deletedFileIds.push(fileId);
		}
	}
	if (ctx.core.deleteAnswer === 'spec') return ok(errors.length === 0 ? { success: true } : { success: false, errors });
	return ok(errors.length === 0 ? { success: true, deletedFileIds } : { success: false, deletedFileIds, errors });
}

function getValues(ctx: RequestContext) {
	const q = new QueryValidator(ctx.query);
	q.rejectUnknown(['page', 'limit', 'includeFullTableData']);
	const page = q.integer('page', { defaultValue: 1, min: 1 });
	const limit = q.integer('limit', { defaultValue: 100, min: 1, max: MAX_PAGE_SIZE });
	const includeFullTableData = q.boolean('includeFullTableData') ?? false;
	q.throwIfInvalid();
	const file = requireFile(ctx, ctx.params.fileId);
	const all = file.formValues ? [file.formValues] : [];
	const formValues = all.slice((page - 1) * limit, page * limit).map((record) => formValueJson(record, includeFullTableData));
	return ok({ values: { formValues, count: all.length, currentPage: page } });
}

function valueViolation(field: ExtractedFieldRecord, value: unknown): string | undefined {
	if (value === null) return undefined;
	switch (field.type.toLowerCase()) {
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'a boolean';
		case 'date':
			return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'a date YYYY-MM-DD';
		case 'object':
			if (field.items && field.items.length > 0) {
				return Array.isArray(value) && value.every(isPlainObject) ? undefined : 'an array of row objects';
			}
			return isPlainObject(value) ? undefined : 'an object';
		default:
			return typeof value === 'string' ? undefined : 'a string';
	}
}

function updateValues(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const fields = v.array('fields', { required: true, nonEmpty: true });
	v.rejectUnknown(['fields']);
	v.throwIfInvalid();
	const file = requireFile(ctx, ctx.params.fileId);
	if (!file.formValues) throw badRequest(`File ${file.fileId} has no extracted values yet (status ${file.status}); wait until it is processed.`);
	const byTitle = new Map(file.formValues.fields.map((field) => [field.title, field]));
	const violations: FieldViolation[] = [];
	const updates: Array<{ field: ExtractedFieldRecord; value: unknown }> = [];
	(fields as unknown[]).forEach((item, index) => {
		const pointer = `/fields/${index}`;
		if (!isPlainObject(item)) {
			violations.push({ code: 'INVALID_TYPE', detail: `fields[${index}] must be an object { title, value }.`, pointer });
			return;
		}
		for (const name of Object.keys(item)) {
			if (name !== 'title' && name !== 'value') violations.push({ code: 'UNKNOWN_PROPERTY', detail: `fields[${index}].${name} is not a recognised property.`, pointer: `${pointer}/${name}` });
		}
		if (typeof item.title !== 'string' || item.title === '') {
			violations.push({ code: 'REQUIRED', detail: `fields[${index}].title is required.`, pointer: `${pointer}/title` });
			return;
		}
		const field = byTitle.get(item.title);
		if (!field) {
			violations.push({ code: 'UNKNOWN_FIELD', detail: `The file has no field titled "${item.title}".`, pointer: `${pointer}/title` });
			return;
		}
		if (field.readOnly === true) {
			violations.push({ code: 'READ_ONLY_FIELD', detail: `"${item.title}" is read-only: the service fills it.`, pointer: `${pointer}/title` });
			return;
		}
		if (!('value' in item)) {
			violations.push({ code: 'REQUIRED', detail: `fields[${index}].value is required (null clears the value).`, pointer: `${pointer}/value` });
			return;
		}
		const expected = valueViolation(field, item.value);
		if (expected) {
			violations.push({ code: 'INVALID_TYPE', detail: `"${item.title}" is a ${field.type} field: value must be ${expected} or null.`, pointer: `${pointer}/value` });
			return;
		}
		updates.push({ field, value: item.value });
	});
	if (violations.length > 0) throw validationError(violations);
	for (const { field, value } of updates) field.value = value;
	const now = ctx.core.clock.now();
	file.formValues.updatedAt = iso(now);
	file.updatedAtMs = now;
	deriveSummary(file);
	ctx.core.state.touchData();
	return ok({ success: true, values: { formValues: [formValueJson(file.formValues, true)], count: 1, currentPage: 1 } });
}

function reportExport(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const status = v.enumValue('integrationExportStatus', EXPORT_STATUSES, { required: true });
	let messages: string[] | null = null;
	if (v.body.integrationExportMessages !== undefined && v.body.integrationExportMessages !== null) {
		const list = v.array('integrationExportMessages');
		list?.forEach((message, index) => {
			if (typeof message !== 'string') v.add('INVALID_TYPE', `integrationExportMessages/${index}`, `integrationExportMessages[${index}] must be a string.`);
		});
		if (list) messages = list as string[];
	}
	v.rejectUnknown(['integrationExportStatus', 'integrationExportMessages']);
	v.throwIfInvalid();
	const file = requireFile(ctx, ctx.params.fileId);
	const now = ctx.core.clock.now();
	file.exportInfo = { integrationExportStatus: status as ExportStatus, integrationExportMessages: messages, integrationExportUpdatedAtMs: now };
	// A change of the file record moves its updatedAt, so pull integrations listing with
	// updatedAfter see export reports (the trigger's File Updated event relies on it).
	file.updatedAtMs = now;
	ctx.core.state.touchData();
	return ok({
		fileId: file.fileId,
		exportInfo: { integrationExportStatus: status, integrationExportMessages: messages, integrationExportUpdatedAt: iso(now) },
	});
}

function signPreview(ctx: RequestContext, s3Path: string): string {
	return ctx.core.presigner.sign('preview', s3Path, PREVIEW_URL_TTL_SECONDS);
}

function isKnownPath(ctx: RequestContext, s3Path: string): boolean {
	return ctx.core.state.filesOf(ctx.workspace.id).some((file) => file.fileStoragePath === s3Path);
}

function preview(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const s3Path = v.string('s3Path', { required: true });
	v.rejectUnknown(['s3Path']);
	v.throwIfInvalid();
	if (!isKnownPath(ctx, s3Path as string)) {
		throw validationError([{ code: 'INVALID_PATH', detail: `s3Path "${s3Path}" is not the storage path of a file in this workspace (use fileStoragePath from the file list).`, pointer: '/s3Path' }]);
	}
	return ok({ signedUrl: signPreview(ctx, s3Path as string) });
}

export const MAX_PREVIEW_BATCH = 100;

function previewBatch(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const s3Paths = v.array('s3Paths', { required: true, nonEmpty: true, maxItems: MAX_PREVIEW_BATCH });
	v.rejectUnknown(['s3Paths']);
	v.throwIfInvalid();
	(s3Paths as unknown[]).forEach((path, index) => {
		if (typeof path !== 'string') v.add('INVALID_TYPE', `s3Paths/${index}`, `s3Paths[${index}] must be a string.`);
		else if (!isKnownPath(ctx, path)) v.add('INVALID_PATH', `s3Paths/${index}`, `s3Paths[${index}] "${path}" is not the storage path of a file in this workspace.`);
	});
	v.throwIfInvalid();
	return ok({ signedUrls: (s3Paths as string[]).map((s3Path) => ({ s3Path, signedUrl: signPreview(ctx, s3Path) })) });
}

function decodePointer(path: string): string {
	return path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
}

async function rerun(ctx: RequestContext) {
	const core = ctx.core;
	const v = BodyValidator.forBody(ctx.body);
	const fileId = v.uuid('fileId', { required: true });
	const backgroundRerun = v.boolean('backgroundRerun') ?? false;
	const options = v.object('rerunOptions');
	let paths: string[] | undefined;
	let partialRerun: boolean | undefined;
	let notification: { shouldSendOnCompletion?: boolean; referenceEntityName?: string; referenceEntityId?: string; referenceEntityAction?: string } | undefined;
	if (options) {
		const o = v.nested('rerunOptions', options);
		const rawPaths = o.array('paths');
		rawPaths?.forEach((path, index) => {
			if (typeof path !== 'string' || !path.startsWith('/') || path.length < 2) {
				o.add('INVALID_FORMAT', `paths/${index}`, `rerunOptions.paths[${index}] must be a field pointer such as "/Total Amount".`);
			}
		});
		if (rawPaths) paths = (rawPaths as string[]).map((path) => (typeof path === 'string' ? decodePointer(path) : ''));
		partialRerun = o.boolean('partialRerun');
		const rawNotification = o.object('notification');
		if (rawNotification) {
			const n = o.nested('notification', rawNotification);
			notification = {
				shouldSendOnCompletion: n.boolean('shouldSendOnCompletion'),
				referenceEntityName: n.enumValue('referenceEntityName', ['FILE', 'SCHEMA'] as const),
				referenceEntityId: n.string('referenceEntityId'),
				referenceEntityAction: n.enumValue('referenceEntityAction', ['CREATE', 'UPDATE', 'DELETE'] as const),
			};
			n.rejectUnknown(['shouldSendOnCompletion', 'referenceEntityName', 'referenceEntityId', 'referenceEntityAction']);
		}
		o.rejectUnknown(['paths', 'partialRerun', 'notification']);
	}
	v.rejectUnknown(['fileId', 'backgroundRerun', 'rerunOptions']);
	v.throwIfInvalid();
	const file = requireFile(ctx, fileId as string);
	if (file.status !== 'processed' || !file.formValues) {
		throw badRequest(`File ${file.fileId} cannot be rerun: its status is ${file.status}, not processed.`);
	}
	const upload = core.state.uploads.get(file.uploadId);
	const schemaLocking = upload?.params.schemaLocking ?? false;
	if (paths) {
		const type = file.fileTypeId ? core.state.fileTypes.get(file.fileTypeId) : undefined;
		const locked = schemaLocking && type ? type.versions.find((version) => version.id === file.schemaId) : undefined;
		const version = locked ?? (type ? core.state.currentVersion(type) : undefined);
		const titles = new Set((version?.fields ?? []).map((field) => field.title));
		const violations: FieldViolation[] = [];
		paths.forEach((title, index) => {
			if (!titles.has(title)) violations.push({ code: 'UNKNOWN_FIELD', detail: `rerunOptions.paths[${index}]: the schema has no field titled "${title}".`, pointer: `/rerunOptions/paths/${index}` });
		});
		if (violations.length > 0) throw validationError(violations);
	}
	const work = async () => {
		await core.processor.rerun(file, { paths, partialRerun }, schemaLocking);
		if (notification?.shouldSendOnCompletion) {
			const url = file.callbackURL ?? ctx.apiKey.defaultCallbackUrl ?? null;
			const payload = {
				status: 'completed',
				step: 'rerun_finished',
				uploadId: file.uploadId,
				fileIds: file.fileId,
				timestamp: core.state.nowIso(),
				referenceEntityName: notification.referenceEntityName ?? 'FILE',
				referenceEntityId: notification.referenceEntityId ?? file.fileId,
				referenceEntityAction: notification.referenceEntityAction ?? 'UPDATE',
			};
			if (url) core.callbacks.send(url, payload);
			else core.state.callbacks.push({ url: '', payload, attempts: 0, delivered: false, statuses: [], reason: 'no callback URL: the upload had none and the key has no default' });
		}
	};
	if (backgroundRerun) core.processor.background(work);
	else {
		try {
			await work();
		} catch (error) {
			throw new ApiError(500, `The rerun failed: ${(error as Error).message}`);
		}
	}
	return ok({ success: true });
}

/** PATCH /files/schema is referenced by the specification without a shape (docs/dev/api-contract.md#endpoints-the-node-does-not-call); not emulated. */
function singleFileSchema(): never {
	throw new ApiError(501, 'PATCH /files/schema (single-file schema) is not emulated: the specification does not show its request or response.');
}

export function fileRoutes(): Route[] {
	return [
		{ method: 'GET', pattern: '/files', write: false, idempotent: false, body: false, handler: listFiles },
		{ method: 'DELETE', pattern: '/files', write: true, idempotent: true, body: true, handler: deleteFiles },
		{ method: 'POST', pattern: '/files/preview', write: false, idempotent: false, body: true, handler: preview },
		{ method: 'POST', pattern: '/files/preview/batch', write: false, idempotent: false, body: true, handler: previewBatch },
		{ method: 'PATCH', pattern: '/files/schema/rerun', write: true, idempotent: true, body: true, handler: rerun },
		{ method: 'PATCH', pattern: '/files/schema', write: true, idempotent: false, body: true, handler: singleFileSchema },
		{ method: 'GET', pattern: '/files/:fileId/values', write: false, idempotent: false, body: false, params: { fileId: 'uuid' }, handler: getValues },
		{ method: 'PATCH', pattern: '/files/:fileId/values', write: true, idempotent: true, body: true, params: { fileId: 'uuid' }, handler: updateValues },
		{ method: 'PATCH', pattern: '/files/:fileId', write: true, idempotent: true, body: true, params: { fileId: 'uuid' }, handler: reportExport },
	];
}
