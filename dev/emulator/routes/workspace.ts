/** Subscription, project settings, file types (+approve), workflows, directories, schemas,
 * and query execution. */
import { iso } from '../clock';
import { executePreparedQuery, prepareQueryDataset, type QueryableDocument, type QueryDataset } from '../query';
import { badRequest, notFound, validationError } from '../problem';
import { ok, type RequestContext, type Route } from '../router';
import { directoryJson, fileTypeJson, workflowJson } from '../serialize';
import type { EmulatorState } from '../state';
import type { FileTypeRecord, SchemaField } from '../types';
import { BodyValidator, isPlainObject, QueryValidator } from '../validate';
import { createDirectory } from './uploads';

function subscription(ctx: RequestContext) {
	return ok({ subscription: ctx.core.state.subscriptionOf(ctx.workspace.id) });
}

function projectSetting(ctx: RequestContext) {
	return ok({ ...ctx.workspace.projectSetting });
}

function listFileTypes(ctx: RequestContext) {
	const q = new QueryValidator(ctx.query);
	q.rejectUnknown(['page', 'limit', 'sortBy', 'sortOrder', 'cursor']);
	const page = q.integer('page', { defaultValue: 1, min: 1 });
	const limit = q.integer('limit', { defaultValue: 100, min: 1, max: 100 });
	const sortBy = q.enumValue('sortBy', ['createdAt', 'updatedAt', 'name', '_id'] as const, 'createdAt');
	const sortOrder = q.enumValue('sortOrder', ['ASC', 'DESC'] as const, 'ASC');
	q.raw('cursor'); // accepted and ignored: page/limit paging always applies
	q.throwIfInvalid();
	const keyOf = (type: FileTypeRecord): string => (sortBy === '_id' ? type.id : sortBy === 'name' ? type.name.toLowerCase() : type[sortBy]);
	const direction = sortOrder === 'ASC' ? 1 : -1;
	const all = ctx.core.state
		.fileTypesOf(ctx.workspace.id)
		.sort((left, right) => direction * (keyOf(left) < keyOf(right) ? -1 : keyOf(left) > keyOf(right) ? 1 : left.id < right.id ? -1 : 1));
	const fileTypes = all.slice((page - 1) * limit, page * limit).map((type) => fileTypeJson(type, ctx.core.state.currentVersion(type)));
	return ok({ fileTypes, count: all.length, currentPage: page });
}

function approveFileType(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const blueprintId = v.objectId('blueprintId', { required: true });
	const schemaId = v.objectId('schemaId', { required: true });
	v.rejectUnknown(['blueprintId', 'schemaId']);
	v.throwIfInvalid();
	const type = ctx.core.state.fileTypes.get(blueprintId as string);
	if (!type || type.workspaceId !== ctx.workspace.id || type.isDeleted) throw notFound(`File type (blueprint) ${blueprintId} was not found.`);
	const version = type.versions.find((candidate) => candidate.id === schemaId);
	if (!version) throw badRequest(`Schema ${schemaId} is not a version of file type ${blueprintId}.`);
	const now = ctx.core.state.nowIso();
	version.usageApprovalState = 'approved';
	version.updatedAt = now;
	type.usageApprovalState = 'approved';
	type.updatedAt = now;
	return ok({ success: true });
}

function getWorkflow(ctx: RequestContext) {
	const workflow = ctx.core.state.workflows.get(ctx.params.workflowId);
	if (!workflow || workflow.workspaceId !== ctx.workspace.id) throw notFound(`Workflow ${ctx.params.workflowId} was not found in this workspace.`);
	return ok({ workflow: workflowJson(workflow) });
}

function createDirectoryRoute(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const name = v.string('name', { required: true, maxLength: 255 });
	if (name !== undefined && /[/\\]/.test(name)) v.add('INVALID_VALUE', 'name', 'name must not contain "/" or "\\".');
	const description = v.string('description', { maxLength: 2000 });
	const parentId = v.objectId('parentId');
	const isActive = v.boolean('isActive');
	v.rejectUnknown(['name', 'description', 'parentId', 'isActive']);
	v.throwIfInvalid();
	let parent;
	if (parentId !== undefined) {
		parent = ctx.core.state.directories.get(parentId);
		if (!parent || parent.workspaceId !== ctx.workspace.id) throw notFound(`Parent directory ${parentId} was not found.`);
		const max = ctx.core.options.maxDirectoryDepth;
		if (parent.depth + 1 > max) {
			throw validationError([
				{ code: 'MAX_DEPTH_EXCEEDED', detail: `A directory under ${parentId} would have depth ${parent.depth + 1}; the maximum directory depth is ${max}.`, pointer: '/parentId' },
			]);
		}
	}
	const directory = createDirectory(ctx, (name as string).trim(), description ?? '', parent, isActive ?? true);
	return ok({ success: true, directory: directoryJson(directory) });
}

const FIELD_TYPES = ['STRING', 'NUMBER', 'BOOLEAN', 'DATE', 'OBJECT'] as const;
const FIELD_PROPERTIES = ['id', 'title', 'description', 'type', 'format', 'hidden', 'internet_context', 'fieldSuggestion', 'items', 'value', 'enumValues', 'inlineListType', 'readOnly'];

/** Validates one (possibly partial) schema field definition; returns the given properties. */
function readFieldPatch(v: BodyValidator): Partial<SchemaField> {
	const patch: Partial<SchemaField> = {};
	const id = v.string('id', { nonEmpty: true });
	if (id !== undefined) patch.id = id;
	const title = v.string('title', { nonEmpty: true });
	if (title !== undefined) patch.title = title;
	const description = v.string('description');
	if (description !== undefined) patch.description = description;
	const type = v.enumValue('type', FIELD_TYPES);
	if (type !== undefined) patch.type = type;
	if (v.body.format !== undefined) {
		const format = v.string('format', { nullable: true });
		patch.format = format ?? null;
	}
	const hidden = v.boolean('hidden');
	if (hidden !== undefined) patch.hidden = hidden;
	// readOnly: our documented choice (README: Choices), not in the specification.
	const readOnly = v.boolean('readOnly');
	if (readOnly !== undefined) patch.readOnly = readOnly;
	const internetContext = v.boolean('internet_context');
	if (internetContext !== undefined) patch.internet_context = internetContext;
	if (v.body.fieldSuggestion !== undefined) {
		const suggestion = v.object('fieldSuggestion');
		if (suggestion) {
			const s = v.nested('fieldSuggestion', suggestion);
			const suggestionId = s.string('id', { required: true });
			const suggestionName = s.string('name', { required: true });
			s.rejectUnknown(['id', 'name']);
			patch.fieldSuggestion = { id: suggestionId ?? '', name: suggestionName ?? '' };
		}
	}
	if (v.body.items !== undefined && v.body.items !== null) {
		const items = v.array('items');
		if (items) {
			patch.items = items.map((item, index) => {
				if (!isPlainObject(item)) {
					v.add('INVALID_TYPE', `items/${index}`, `items[${index}] must be a field definition object.`);
					return undefined as unknown as SchemaField;
				}
				return completeField(readFieldPatch(v.nested(`items/${index}`, item)), v, `items/${index}`);
			});
		}
	} else if (v.body.items === null) patch.items = null;
	if (v.body.value !== undefined) patch.value = v.body.value;
	if (v.body.enumValues !== undefined) {
		const values = v.array('enumValues');
		values?.forEach((value, index) => {
			if (typeof value !== 'string') v.add('INVALID_TYPE', `enumValues/${index}`, `enumValues[${index}] must be a string.`);
		});
		if (values) patch.enumValues = values as string[];
	}
	if (v.body.inlineListType !== undefined) {
		const inlineListType = v.string('inlineListType', { nullable: true });
		patch.inlineListType = inlineListType ?? null;
	}
	v.rejectUnknown(FIELD_PROPERTIES);
	return patch;
}

let generatedFieldIds = 0;

function completeField(patch: Partial<SchemaField>, v: BodyValidator, name: string): SchemaField {
	if (patch.title === undefined) v.add('REQUIRED', `${name}/title`, 'A new field needs a title.');
	if (patch.type === undefined) v.add('REQUIRED', `${name}/type`, 'A new field needs a type.');
	generatedFieldIds += 1;
	return {
		id: patch.id ?? `field-${Date.now().toString(36)}-${generatedFieldIds}`,
		title: patch.title ?? '',
		description: patch.description ?? '',
		type: patch.type ?? 'STRING',
		format: patch.format ?? null,
		hidden: patch.hidden ?? false,
		internet_context: patch.internet_context ?? false,
		fieldSuggestion: patch.fieldSuggestion ?? null,
		items: patch.items ?? null,
		value: patch.value ?? null,
		enumValues: patch.enumValues ?? [],
		inlineListType: patch.inlineListType ?? null,
		...(patch.readOnly === true ? { readOnly: true } : {}),
	};
}

function patchSchemas(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const schemaId = v.objectId('schemaId', { required: true });
	const fields = v.array('fields', { required: true });
	v.rejectUnknown(['schemaId', 'fields']);
	v.throwIfInvalid();
	const found = ctx.core.state.schemaVersion(ctx.workspace.id, schemaId as string);
	if (!found) throw notFound(`Schema ${schemaId} was not found.`);
	const { type, version } = found;
	const changes: Array<() => void> = [];
	const now = ctx.core.clock.now();
	(fields as unknown[]).forEach((item, index) => {
		if (!isPlainObject(item)) {
			v.add('INVALID_TYPE', `fields/${index}`, `fields[${index}] must be a field definition object.`);
			return;
		}
		const patch = readFieldPatch(v.nested(`fields/${index}`, item));
		const existing =
			(patch.id !== undefined ? version.fields.find((field) => field.id === patch.id) : undefined) ??
			(patch.title !== undefined ? version.fields.find((field) => field.title === patch.title) : undefined);
		if (existing) {
			changes.push(() => {
				Object.assign(existing, patch);
				type.fieldChangedAtMs.set(existing.id, now);
			});
		} else {
			const created = completeField(patch, v, `fields/${index}`);
			changes.push(() => {
				version.fields.push(created);
				type.fieldChangedAtMs.set(created.id, now);
			});
		}
	});
	v.throwIfInvalid();
	for (const change of changes) change();
	version.updatedAt = iso(now);
	ctx.core.state.touchData();
	return ok(
		{ success: true },
		{ deprecation: 'true', warning: '299 - "PATCH /schemas is deprecated and will be removed in a future version"' },
	);
}

/** Results cached per workspace, configuration and data version; skipCache bypasses. */
const queryCache = new WeakMap<object, Map<string, unknown>>();

/**
 * The queryable documents of a workspace, with their field directory, built once per data
 * version and catalog (schema fields and directory tree): every query, skipCache included, runs
 * over the current data; only the building is shared.
 */
const datasetCache = new WeakMap<EmulatorState, Map<string, { dataVersion: number; catalogKey: string; dataset: QueryDataset }>>();

function queryDatasetOf(state: EmulatorState, workspaceId: string): QueryDataset {
	state.purgeExpired(); // may delete files and so move the data version
	const fields = state.fileTypesOf(workspaceId).flatMap((type) => state.currentVersion(type).fields.map((field) => ({ title: field.title, type: field.type, items: field.items })));
	const directories = [...state.directories.values()].filter((directory) => directory.workspaceId === workspaceId).map((directory) => ({ id: directory.id, parentId: directory.parentId ?? null }));
	const catalogKey = JSON.stringify([fields, directories]);
	let perWorkspace = datasetCache.get(state);
	if (!perWorkspace) {
		perWorkspace = new Map();
		datasetCache.set(state, perWorkspace);
	}
	const cached = perWorkspace.get(workspaceId);
	if (cached && cached.dataVersion === state.dataVersion && cached.catalogKey === catalogKey) return cached.dataset;
	const documents: QueryableDocument[] = state
		.filesOf(workspaceId)
		.filter((file) => file.status === 'processed' && file.formValues)
		.map((file) => ({
			fileId: file.fileId,
			fileName: file.fileName,
			fileTypeId: file.fileTypeId ?? '',
			schemaId: file.schemaId,
			directoryId: file.directoryId,
			createdAt: iso(file.createdAtMs),
			updatedAt: iso(file.updatedAtMs),
			values: Object.fromEntries((file.formValues?.fields ?? []).map((field) => [field.title, field.value])),
		}));
	const dataset = prepareQueryDataset(documents, { fields, directories });
	perWorkspace.set(workspaceId, { dataVersion: state.dataVersion, catalogKey, dataset });
	return dataset;
}

function executeQueryRoute(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const queryConfig = v.object('queryConfig', { required: true });
	const options = v.object('options');
	v.rejectUnknown(['queryConfig', 'options']);
	v.throwIfInvalid();
	const started = process.hrtime.bigint();
	const state = ctx.core.state;
	const skipCache = options?.skipCache === true;
	const dataset = queryDatasetOf(state, ctx.workspace.id);
	const cacheKey = `${ctx.workspace.id}\n${state.dataVersion}\n${JSON.stringify(ctx.body)}`;
	let cache = queryCache.get(state);
	if (!cache) {
		cache = new Map();
		queryCache.set(state, cache);
	}
	let result = skipCache ? undefined : (cache.get(cacheKey) as ReturnType<typeof executePreparedQuery> | undefined);
	if (!result) {
		result = executePreparedQuery(queryConfig, options, dataset);
		if (cache.size > 200) cache.clear();
		cache.set(cacheKey, result);
	}
	const executionTimeMs = Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 1000) / 1000;
	return ok({ data: result.data, headers: result.headers, rowCount: result.rowCount, executionTimeMs, errors: result.errors });
}

export function workspaceRoutes(): Route[] {
	return [
		{ method: 'GET', pattern: '/subscription', write: false, idempotent: false, body: false, handler: subscription },
		{ method: 'GET', pattern: '/project/setting', write: false, idempotent: false, body: false, handler: projectSetting },
		{ method: 'GET', pattern: '/file-type', write: false, idempotent: false, body: false, handler: listFileTypes },
		{ method: 'PATCH', pattern: '/file-type/approve', write: true, idempotent: true, body: true, handler: approveFileType },
		{ method: 'GET', pattern: '/workflows/:workflowId', write: false, idempotent: false, body: false, params: { workflowId: 'objectId' }, handler: getWorkflow },
		{ method: 'POST', pattern: '/directories', write: true, idempotent: true, body: true, handler: createDirectoryRoute },
		{ method: 'PATCH', pattern: '/schemas', write: true, idempotent: true, body: true, handler: patchSchemas },
		{ method: 'POST', pattern: '/query/execute', write: false, idempotent: false, body: true, handler: executeQueryRoute },
	];
}
