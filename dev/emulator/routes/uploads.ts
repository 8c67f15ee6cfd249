/** POST /files/upload, POST /files/upload/multipart(/complete), GET /uploads/{uploadId}. */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { newObjectId, newUuid } from '../ids';
import { notFound, validationError, type FieldViolation } from '../problem';
import { sinkHash } from '../object-store';
import { isZipUpload } from '../zip-archive';
import { ok, type RequestContext, type Route } from '../router';
import { fileJson } from '../serialize';
import { BUCKET, encodeKey, PART_URL_TTL_SECONDS, UPLOAD_URL_TTL_SECONDS } from '../storage';
import type { DirectoryRecord, MultipartRecord, UploadParams, UploadRecord } from '../types';
import { BodyValidator, isPlainObject } from '../validate';

const MB = 1024 * 1024;
const MAX_PARTS = 10000;

const COMMON_OPTIONAL = [
	'isSplit',
	'isSplitExcel',
	'callbackURL',
	'ocrModel',
	'schemaLocking',
	'directoryId',
	'destinationPath',
	'isEphemeral',
	'pageCount',
	'apiRequestId',
	'retainOriginalZipFileName',
] as const;

const MIME_PATTERN = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*(\s*;.*)?$/;

/** Reads and validates the upload parameters shared by single and multipart uploads. */
function readUploadParams(ctx: RequestContext, v: BodyValidator): { params: Omit<UploadParams, 'directoryId'> & { directoryId: string | null }; plan: () => string | null } {
	const core = ctx.core;
	const fileName = v.string('fileName', { required: true, maxLength: 1024 });
	if (fileName !== undefined && !/\.[A-Za-z0-9]+$/.test(fileName.trim())) {
		v.add('INVALID_VALUE', 'fileName', 'fileName must be a file name with an extension, e.g. "invoice.pdf".');
	}
	const fileType = v.string('fileType', { required: true, maxLength: 255 });
	if (fileType !== undefined && !MIME_PATTERN.test(fileType)) {
		v.add('INVALID_FORMAT', 'fileType', `fileType must be a MIME type such as application/pdf; got "${fileType}".`);
	}
	const isSplit = v.boolean('isSplit');
	const isSplitExcel = v.boolean('isSplitExcel');
	const callbackURL = v.callbackUrl('callbackURL');
	const ocrModel = v.string('ocrModel', { nonEmpty: true, maxLength: 255 });
	const schemaLocking = v.boolean('schemaLocking');
	const directoryId = v.objectId('directoryId');
	const destinationPath = v.string('destinationPath', { nonEmpty: true, maxLength: 1024 });
	const isEphemeral = v.boolean('isEphemeral');
	const pageCount = v.number('pageCount', { integer: true, min: 1 });
	if (pageCount !== undefined && pageCount > core.options.maxPageCount) {
		v.add('PAGE_LIMIT_EXCEEDED', 'pageCount', `pageCount ${pageCount} exceeds the page limit of ${core.options.maxPageCount} pages per file.`);
	}
	const apiRequestId = v.string('apiRequestId', { nonEmpty: true, maxLength: 255 });
	const retainOriginalZipFileName = v.boolean('retainOriginalZipFileName');

	let baseDirectory: DirectoryRecord | undefined;
	if (directoryId !== undefined) {
		baseDirectory = core.state.directories.get(directoryId);
		if (!baseDirectory || baseDirectory.workspaceId !== ctx.workspace.id) {
			v.throwIfInvalid();
			throw notFound(`Directory ${directoryId} was not found in this workspace.`);
		}
	}
	const segments = destinationPath !== undefined ? parseDestinationPath(v, destinationPath) : [];
	if (segments.length > 0) {
		const finalDepth = (baseDirectory ? baseDirectory.depth + 1 : 0) + segments.length - 1;
		if (finalDepth > core.options.maxDirectoryDepth) {
			v.add(
				'MAX_DEPTH_EXCEEDED',
				'destinationPath',
				`destinationPath would create folders ${finalDepth} levels below the root; the maximum directory depth is ${core.options.maxDirectoryDepth}.`,
			);
		}
	}

	let resolvedCallback: string | null = null;
	let callbackURLSource: UploadParams['callbackURLSource'] = null;
	if (callbackURL !== undefined) {
		resolvedCallback = callbackURL;
		callbackURLSource = 'user';
	} else if (ctx.apiKey.defaultCallbackUrl) {
		resolvedCallback = ctx.apiKey.defaultCallbackUrl;
		callbackURLSource = 'api_key';
	}
	const params = {
		fileName: fileName ?? '',
		fileType: fileType ?? '',
		isSplit: isSplit ?? false,
		isSplitExcel: isSplitExcel ?? false,
		callbackURL: resolvedCallback,
		callbackURLSource,
		ocrModel: ocrModel ?? ctx.workspace.projectSetting.ocrModel,
		schemaLocking: schemaLocking ?? false,
		directoryId: directoryId ?? null,
		destinationPath: destinationPath ?? null,
		isEphemeral: isEphemeral ?? false,
		pageCount: pageCount ?? null,
		apiRequestId: apiRequestId ?? null,
		retainOriginalZipFileName: retainOriginalZipFileName ?? false,
	};
	/** Creates the missing folders (only after all validation passed); returns the target directory. */
	const plan = (): string | null => {
		let parent = baseDirectory;
		for (const name of segments) {
			const existing = [...core.state.directories.values()].find(
				(directory) => directory.workspaceId === ctx.workspace.id && directory.name === name && directory.parentId === parent?.id,
			);
			parent = existing ?? createDirectory(ctx, name, '', parent, true);
		}
		return parent?.id ?? null;
	};
	return { params, plan };
}

function parseDestinationPath(v: BodyValidator, path: string): string[] {
	const segments = path.replace(/^\/+|\/+$/g, '').split('/');
	for (const segment of segments) {
		if (segment.trim() === '' || segment === '.' || segment === '..') {
			v.add('INVALID_VALUE', 'destinationPath', `destinationPath must be folder names separated by "/" without empty, "." or ".." parts; got "${path}".`);
			return [];
		}
	}
	return segments;
}

export function createDirectory(ctx: RequestContext, name: string, description: string, parent: DirectoryRecord | undefined, isActive: boolean): DirectoryRecord {
	const now = ctx.core.state.nowIso();
	const directory: DirectoryRecord = {
		id: newObjectId(),
		workspaceId: ctx.workspace.id,
		name,
		description,
		status: 'active',
		depth: parent ? parent.depth + 1 : 0,
		isActive,
		metadata: {
			userId: ctx.apiKey.userId,
			organizationId: ctx.workspace.organizationId,
			workspaceId: ctx.workspace.id,
			createdBy: ctx.apiKey.userEmail,
			lastModifiedBy: ctx.apiKey.userEmail,
		},
		createdAt: now,
		updatedAt: now,
	};
	if (parent) directory.parentId = parent.id;
	ctx.core.state.directories.set(directory.id, directory);
	return directory;
}

function storageKey(ctx: RequestContext, uploadId: string, fileName: string): string {
	const safeName = fileName.replace(/[/\\]/g, '_');
	return `${ctx.workspace.organizationId}/${ctx.workspace.id}/uploads/${uploadId}/${safeName}`;
}

function newUpload(ctx: RequestContext, params: UploadParams): UploadRecord {
	const uploadId = newUuid();
	const upload: UploadRecord = {
		uploadId,
		workspaceId: ctx.workspace.id,
		apiKey: ctx.apiKey.key,
		userId: ctx.apiKey.userId,
		s3Path: storageKey(ctx, uploadId, params.fileName),
		params,
		isZip: isZipUpload(params.fileName, params.fileType),
		createdAtMs: ctx.core.clock.now(),
		statuses: [],
		fileIds: [],
		members: [],
	};
	ctx.core.state.uploads.set(uploadId, upload);
	return upload;
}

function upload(ctx: RequestContext) {
	const v = BodyValidator.forBody(ctx.body);
	const { params, plan } = readUploadParams(ctx, v);
	v.rejectUnknown(['fileName', 'fileType', ...COMMON_OPTIONAL]);
	v.throwIfInvalid();
	params.directoryId = plan();
	const record = newUpload(ctx, params);
	const presignedUploadURL = ctx.core.presigner.sign('upload', record.s3Path, UPLOAD_URL_TTL_SECONDS, { uploadId: record.uploadId });
	return ok({
		s3Path: record.s3Path,
		presignedUploadURL,
		uploadId: record.uploadId,
		callbackURL: params.callbackURL,
		callbackURLSource: params.callbackURLSource,
		ocrModel: params.ocrModel,
		schemaLocking: params.schemaLocking,
		isEphemeral: params.isEphemeral,
		destinationPath: params.destinationPath,
		isSplit: params.isSplit,
		isSplitExcel: params.isSplitExcel,
		directoryId: params.directoryId,
	});
}

function startMultipart(ctx: RequestContext) {
	const core = ctx.core;
	const v = BodyValidator.forBody(ctx.body);
	const { params, plan } = readUploadParams(ctx, v);
	const fileSize = v.number('fileSize', { required: true, exclusiveMin: 0 });
	const partSizeLimit = v.number('partSizeLimit', { min: core.options.minPartSizeMB });
	v.rejectUnknown(['fileName', 'fileType', 'fileSize', 'partSizeLimit', ...COMMON_OPTIONAL]);
	const totalSize = fileSize !== undefined ? Math.round(fileSize * MB) : 0;
	const partSize = Math.round((partSizeLimit ?? core.options.defaultPartSizeMB) * MB);
	const totalParts = Math.max(1, Math.ceil(totalSize / partSize));
	if (fileSize !== undefined && totalSize < 1) v.add('OUT_OF_RANGE', 'fileSize', 'fileSize (MB) must amount to at least one byte.');
	if (fileSize !== undefined && totalParts > MAX_PARTS) {
		v.add('TOO_MANY_PARTS', partSizeLimit !== undefined ? 'partSizeLimit' : 'fileSize', `The upload would need ${totalParts} parts; at most ${MAX_PARTS} are allowed. Use a larger partSizeLimit.`);
	}
	v.throwIfInvalid();
	params.apiRequestId ??= newUuid();
	params.directoryId = plan();
	const record = newUpload(ctx, params);
	const multipart: MultipartRecord = {
		id: `mpu-${createHash('sha256').update(newUuid()).digest('base64url').slice(0, 40)}`,
		key: record.s3Path,
		uploadId: record.uploadId,
		workspaceId: ctx.workspace.id,
		totalSize,
		partSize,
		totalParts,
		parts: new Map(),
		completed: false,
		createdAtMs: core.clock.now(),
	};
	record.multipartId = multipart.id;
	core.state.multiparts.set(multipart.id, multipart);
	const presignedUrls = [];
	for (let partNumber = 1; partNumber <= totalParts; partNumber++) {
		const startByte = (partNumber - 1) * partSize;
		const size = Math.min(partSize, totalSize - startByte);
		presignedUrls.push({
			partNumber,
			presignedUrl: core.presigner.sign('part', record.s3Path, PART_URL_TTL_SECONDS, { multipartId: multipart.id, partNumber }),
			startByte,
			endByte: startByte + size - 1,
			size,
		});
	}
	return ok({
		id: multipart.id,
		key: multipart.key,
		s3Path: record.s3Path,
		partSize,
		totalParts,
		totalSize,
		presignedUrls,
		uploadId: record.uploadId,
		apiRequestId: params.apiRequestId,
		callbackURL: params.callbackURL,
		callbackURLSource: params.callbackURLSource,
		ocrModel: params.ocrModel,
		schemaLocking: params.schemaLocking,
		isSplit: params.isSplit,
		isSplitExcel: params.isSplitExcel,
		directoryId: params.directoryId,
		destinationPath: params.destinationPath,
		isEphemeral: params.isEphemeral,
	});
}

const completing = new WeakSet<MultipartRecord>();

function stripQuotes(etag: string): string {
	return etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

async function completeMultipart(ctx: RequestContext) {
	const core = ctx.core;
	const v = BodyValidator.forBody(ctx.body);
	// `id` was formerly called `uploadId`; both are accepted.
	const usesLegacyName = v.body.id === undefined && v.body.uploadId !== undefined;
	const id = usesLegacyName ? v.string('uploadId', { required: true }) : v.string('id', { required: true });
	const key = v.string('key', { required: true });
	const parts = v.array('parts', { required: true, nonEmpty: true });
	v.rejectUnknown(['id', 'uploadId', 'key', 'parts']);
	v.throwIfInvalid();
	const multipart = core.state.multiparts.get(id as string);
	if (!multipart || multipart.workspaceId !== ctx.workspace.id) throw notFound(`Multipart upload ${id} was not found.`);
	const idPointer = usesLegacyName ? '/uploadId' : '/id';
	if (multipart.completed || completing.has(multipart)) {
		throw validationError([{ code: 'ALREADY_COMPLETED', detail: `Multipart upload ${id} has already been completed.`, pointer: idPointer }]);
	}
	if (key !== multipart.key) {
		throw validationError([{ code: 'INVALID_VALUE', detail: `key does not belong to multipart upload ${id}; expected "${multipart.key}".`, pointer: '/key' }]);
	}
	const violations: FieldViolation[] = [];
	const list = parts as unknown[];
	list.forEach((item, index) => {
		const pointer = `/parts/${index}`;
		if (!isPlainObject(item)) {
			violations.push({ code: 'INVALID_TYPE', detail: `parts[${index}] must be an object { partNumber, eTag }.`, pointer });
			return;
		}
		const unknown = Object.keys(item).filter((name) => name !== 'partNumber' && name !== 'eTag');
		for (const name of unknown) violations.push({ code: 'UNKNOWN_PROPERTY', detail: `parts[${index}].${name} is not a recognised property.`, pointer: `${pointer}/${name}` });
		const expected = index + 1;
		if (typeof item.partNumber !== 'number' || !Number.isInteger(item.partNumber)) {
			violations.push({ code: item.partNumber === undefined ? 'REQUIRED' : 'INVALID_TYPE', detail: `parts[${index}].partNumber must be an integer.`, pointer: `${pointer}/partNumber` });
			return;
		}
		if (item.partNumber !== expected) {
			violations.push({ code: 'INVALID_PART_ORDER', detail: `Part numbers must run from 1 without gaps: parts[${index}] has partNumber ${item.partNumber}, expected ${expected}.`, pointer: `${pointer}/partNumber` });
			return;
		}
		if (typeof item.eTag !== 'string' || item.eTag.trim() === '') {
			violations.push({ code: item.eTag === undefined ? 'REQUIRED' : 'INVALID_TYPE', detail: `Part ${expected}: eTag must be the ETag header of the part's upload.`, pointer: `${pointer}/eTag` });
			return;
		}
		const stored = multipart.parts.get(expected);
		if (!stored) {
			violations.push({ code: 'PART_MISSING', detail: `Part ${expected} was not uploaded.`, pointer });
			return;
		}
		if (stripQuotes(item.eTag) !== stripQuotes(stored.etag)) {
			violations.push({ code: 'ETAG_MISMATCH', detail: `Part ${expected}: eTag ${item.eTag} does not match the uploaded part (${stored.etag}).`, pointer: `${pointer}/eTag` });
			return;
		}
		const expectedSize = Math.min(multipart.partSize, multipart.totalSize - (expected - 1) * multipart.partSize);
		if (stored.size !== expectedSize) {
			violations.push({ code: 'PART_SIZE_MISMATCH', detail: `Part ${expected} has ${stored.size} bytes; expected ${expectedSize} (startByte..endByte of the initiation).`, pointer });
		}
	});
	if (violations.length === 0 && list.length !== multipart.totalParts) {
		violations.push({ code: 'PARTS_INCOMPLETE', detail: `Multipart upload ${id} has ${multipart.totalParts} parts; ${list.length} were listed (part ${list.length + 1} is missing).`, pointer: '/parts' });
	}
	if (violations.length > 0) throw validationError(violations);

	const upload = core.state.uploads.get(multipart.uploadId);
	if (!upload) throw notFound(`Multipart upload ${id} was not found.`);
	completing.add(multipart);
	try {
		const ordered = [...multipart.parts.entries()].sort(([left], [right]) => left - right).map(([, part]) => part);
		const etagDigest = createHash('md5');
		for (const part of ordered) etagDigest.update(Buffer.from(stripQuotes(part.etag), 'hex'));
		const etag = `"${etagDigest.digest('hex')}-${ordered.length}"`;
		const onDisk = ordered.flatMap((part) => (part.diskPath ? [part.diskPath] : []));
		let object;
		if (onDisk.length < ordered.length) {
			// Storage sink mode: the parts' bytes were never kept; the file record is made without them.
			const size = ordered.reduce((sum, part) => sum + part.size, 0);
			object = await core.store.commitSink(multipart.key, upload.workspaceId, upload.params.fileType, size, sinkHash(etag, size));
		} else {
			const assembled = await core.store.concatenate(onDisk);
			object = await core.store.commit(assembled.tmpPath, multipart.key, upload.workspaceId, upload.params.fileType, assembled.size, assembled.sha256);
		}
		multipart.completed = true;
		await Promise.all(onDisk.map((path) => rm(path, { force: true })));
		core.processor.ingest(upload, object);
		return ok({
			location: `${core.storageUrl}/${BUCKET}/${encodeKey(multipart.key)}`,
			key: multipart.key,
			etag,
			success: true,
		});
	} finally {
		completing.delete(multipart);
	}
}

function uploadStatus(ctx: RequestContext) {
	const core = ctx.core;
	const record = core.state.upload(ctx.workspace.id, ctx.params.uploadId);
	if (!record) throw notFound(`Upload ${ctx.params.uploadId} was not found.`);
	const filesOf = (fileIds: string[]) =>
		fileIds.map((fileId) => core.state.files.get(fileId)).filter((file) => file !== undefined).map((file) => fileJson(file));
	const statuses = record.statuses.map((step) => ({ ...step }));
	if (!record.isZip) return ok({ statuses, files: filesOf(record.fileIds) });
	let anyFailed = false;
	const files = record.members.map((member) => {
		if (member.statuses.some((step) => step.step === 'processing_failed')) anyFailed = true;
		return {
			fileName: member.fileName,
			fileType: member.fileType,
			uploadId: member.uploadId,
			statuses: member.statuses.map((step) => ({ ...step })),
			files: filesOf(member.fileIds),
		};
	});
	return { status: anyFailed ? 207 : 200, body: { statuses, files } };
}

export function uploadRoutes(): Route[] {
	return [
		{ method: 'POST', pattern: '/files/upload', write: true, idempotent: true, body: true, handler: upload },
		{ method: 'POST', pattern: '/files/upload/multipart', write: true, idempotent: true, body: true, handler: startMultipart },
		{ method: 'POST', pattern: '/files/upload/multipart/complete', write: true, idempotent: true, body: true, handler: completeMultipart },
		{ method: 'GET', pattern: '/uploads/:uploadId', write: false, idempotent: false, body: false, params: { uploadId: 'uuid' }, handler: uploadStatus },
	];
}
