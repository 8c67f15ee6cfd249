import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { batchingOption } from '../../descriptions/batching';
import {
	binaryPropertyParameter,
	optionsCollection,
	simplifyParameter,
	transferSpeedOptions,
} from '../../descriptions/common';
import { ocrModelParameter } from '../../descriptions/ocrModels';
import { binarySource } from '../../helpers/binary';
import {
	invalidParameter,
	optionalText,
	requireBoolean,
	requireHttpsUrl,
	requireNumber,
	requireObjectId,
	requireOneOf,
	requirePositiveInteger,
	requireText,
} from '../../helpers/validation';
import type { BinarySource } from '../../helpers/binary';
import { apiRequestWithResponse, idempotencyKey, putToStorage, unexpectedResponse, waitClock } from '../../transport';
import type { MultipartSettings } from './multipart';
import { BYTES_PER_MB, multipartUpload } from './multipart';
import { withLeadingKeys } from '../../helpers/keyOrder';
import { valuesField } from '../../helpers/values';
import { bytesAlreadyArrived, isReplayed, waitForUpload } from './shared';
import { withoutField } from '../../helpers/response';

/** A presigned upload URL is valid for 300 seconds from the upload request (api-spec, Limits). */
const UPLOAD_URL_LIFETIME_MS = 300 * 1000;

/** Part sizes the API accepts (as S3 multipart uploads: 5 MB to 5 GB, except a smaller last part). */
const MIN_PART_SIZE_MB = 5;
const MAX_PART_SIZE_MB = 5120;
const MAX_PART_CONCURRENCY = 32;
const MULTIPART_MODES = ['auto', 'always', 'never'] as const;

const properties: INodeProperties[] = [
	binaryPropertyParameter,
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the service has processed the file and output the processed file(s). When off, the node outputs the upload ID at once; continue later with Get Upload Status.',
	},
	{
		displayName: 'Include Extracted Values',
		name: 'includeExtractedValues',
		type: 'boolean',
		default: true,
		description: 'Whether to add the values extracted from each processed file to its output item',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		...simplifyParameter,
		displayOptions: { show: { waitForCompletion: [true], includeExtractedValues: [true] } },
	},
	optionsCollection([
		...transferSpeedOptions,
		{
			displayName: 'API Request ID',
			name: 'apiRequestId',
			type: 'string',
			default: '',
			description:
				'Groups files uploaded together (sent back on callbacks as api_request_id). For a ZIP without it, the ZIP file ID is used.',
		},
		batchingOption,
		{
			displayName: 'Callback URL',
			name: 'callbackURL',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/webhook',
			description:
				"HTTPS URL the service calls when processing ends. Overrides the API key's default callback URL.",
		},
		{
			displayName: 'Delete After 24 Hours',
			name: 'isEphemeral',
			type: 'boolean',
			default: false,
			description: 'Whether the file and all its data are deleted 24 hours after upload (ephemeral)',
		},
		{
			displayName: 'Destination Path',
			name: 'destinationPath',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoices/2024/march',
			description: 'Slash-separated folder path; missing folders are created. May be combined with Directory ID.',
		},
		{
			displayName: 'Directory ID',
			name: 'directoryId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 6650a00000000000000d0001',
			description: 'The directory (folder) to put the file in: 24 hexadecimal characters',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-0042.pdf',
			description: "Name to give the file, with its extension. Default: the binary's file name.",
		},
		{
			displayName: 'Keep ZIP File Name',
			name: 'retainOriginalZipFileName',
			type: 'boolean',
			default: false,
			description:
				'Whether files extracted from a ZIP keep the archive name (sanitised, up to 255 characters) as zipArchiveName. Ignored for other files.',
		},
		{
			displayName: 'Lock Schema',
			name: 'schemaLocking',
			type: 'boolean',
			default: false,
			description: 'Whether to lock the schema after upload',
		},
		{
			displayName: 'MIME Type',
			name: 'mimeType',
			type: 'string',
			default: '',
			placeholder: 'e.g. application/pdf',
			description: "MIME type of the file. Default: the binary's MIME type.",
		},
		{
			displayName: 'Multipart Threshold (MB)',
			name: 'multipartThreshold',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 100,
			description:
				'With Multipart Upload "Auto", files larger than this are sent in parts. 1 MB = 1,048,576 bytes.',
		},
		{
			displayName: 'Multipart Upload',
			name: 'multipart',
			type: 'options',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description: 'In parts when the file is larger than the Multipart Threshold',
				},
				{ name: 'Always', value: 'always', description: 'Always in parts' },
				{ name: 'Never', value: 'never', description: 'Always in one request' },
			],
			default: 'auto',
			description:
				'How the file is sent. Parts are read one at a time from n8n\'s binary storage, so large files need little memory.',
		},
		ocrModelParameter,
		{
			displayName: 'Page Count',
			name: 'pageCount',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'Number of pages, used by the service to check page limits early',
		},
		{
			displayName: 'Part Concurrency',
			name: 'partConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PART_CONCURRENCY, numberPrecision: 0 },
			default: 4,
			description: 'How many parts of a multipart upload are sent at the same time',
		},
		{
			displayName: 'Part Size (MB)',
			name: 'partSize',
			type: 'number',
			typeOptions: { minValue: MIN_PART_SIZE_MB, maxValue: MAX_PART_SIZE_MB },
			default: 10,
			description:
				'Size of each part of a multipart upload. Memory used while sending is about Part Size x Part Concurrency.',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 0.5, numberPrecision: 1 },
			default: 5,
			description:
				'How often to ask for the processing status while waiting for completion. The first checks come sooner (after 1 second, then doubling up to this interval).',
		},
		{
			displayName: 'Split Document',
			name: 'isSplit',
			type: 'boolean',
			default: false,
			description: 'Whether to split a document that holds several documents into separate files',
		},
		{
			displayName: 'Split Excel by Worksheet',
			name: 'isSplitExcel',
			type: 'boolean',
			default: false,
			description: 'Whether to split an Excel file into one file per worksheet',
		},
		{
			displayName: 'Wait Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				'How long Wait for Completion waits for processing, status checks and their retries included, before failing with the upload ID (continue with Get Upload Status)',
		},
	]),
];

const displayOptions = { show: { resource: ['file'], operation: ['upload'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The Options collection as n8n hands it over: an expression may have put any value in any field. */
type UploadOptions = Record<string, unknown>;

const MIME_TYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;

function isZipUpload(fileName: string, fileType: string): boolean {
	return /^application\/(x-)?zip(-compressed)?$/i.test(fileType) || /\.zip$/i.test(fileName);
}

/** Whether an optional parameter was given (an expression may give '' for "not set"). */
function given(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** Boolean fields of the upload request, as the API names them, with their parameter names. */
const UPLOAD_FLAGS: Array<[field: string, parameter: string]> = [
	['isSplit', 'Split Document'],
	['isSplitExcel', 'Split Excel by Worksheet'],
	['isEphemeral', 'Delete After 24 Hours'],
	['retainOriginalZipFileName', 'Keep ZIP File Name'],
	['schemaLocking', 'Lock Schema'],
];

/** Folder names the service creates are directory names: 1 to 255 characters. */
const MAX_FOLDER_NAME_LENGTH = 255;

/**
 * The Destination Path: folder names separated by "/", none empty, none "." or ".." (also when
 * percent-encoded), no backslash, no control characters.
 */
/** The path without leading and trailing slashes, in one pass (no regular expression). */
function withoutOuterSlashes(path: string): string {
	let start = 0;
	let end = path.length;
	while (start < end && path[start] === '/') start += 1;
	while (end > start && path[end - 1] === '/') end -= 1;
	return path.slice(start, end);
}

function destinationPath(context: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const path = optionalText(context, itemIndex, 'Destination Path', value);
	const decoded = (segment: string) => {
		try {
			return decodeURIComponent(segment);
		} catch {
			return segment;
		}
	};
	const segments = withoutOuterSlashes(path).split('/');
	const bad =
		path.includes('\\') ||
		segments.some((segment) => {
			const name = decoded(segment).trim();
			return name === '' || name === '.' || name === '..' || segment.length > MAX_FOLDER_NAME_LENGTH;
		});
	if (bad) {
		throw invalidParameter(
			context,
			itemIndex,
			'Destination Path',
			value,
			`folder names of 1 to ${MAX_FOLDER_NAME_LENGTH} characters separated by "/" (no "\\", no empty, "." or ".." names)`,
		);
	}
	return path;
}

/** The upload request body, checked before anything is sent. */
function uploadBody(
	context: IExecuteFunctions,
	itemIndex: number,
	fileName: string,
	fileType: string,
	options: UploadOptions,
): IDataObject {
	const body: IDataObject = {
		fileName: requireText(context, itemIndex, 'File Name', fileName),
		fileType: requireText(context, itemIndex, 'MIME Type', fileType),
		// Listed as required in one place of the specification and optional in another: always sent.
		isSplit: false,
		schemaLocking: false,
	};
	if (!MIME_TYPE_PATTERN.test(fileType)) {
		throw invalidParameter(context, itemIndex, 'MIME Type', fileType, 'a MIME type such as application/pdf');
	}
	for (const [field, parameter] of UPLOAD_FLAGS) {
		if (options[field] !== undefined) body[field] = requireBoolean(context, itemIndex, parameter, options[field]);
	}
	if (given(options.callbackURL)) {
		body.callbackURL = requireHttpsUrl(context, itemIndex, 'Callback URL', options.callbackURL);
	}
	if (given(options.directoryId)) {
		body.directoryId = requireObjectId(context, itemIndex, 'Directory ID', options.directoryId);
	}
	if (given(options.destinationPath)) {
		body.destinationPath = destinationPath(context, itemIndex, options.destinationPath);
	}
	if (options.pageCount !== undefined) {
		body.pageCount = requirePositiveInteger(context, itemIndex, 'Page Count', options.pageCount);
	}
	if (given(options.apiRequestId)) {
		body.apiRequestId = requireText(context, itemIndex, 'API Request ID', options.apiRequestId);
	}
	const ocrModel =
		options.ocrModel !== null && typeof options.ocrModel === 'object' && !Array.isArray(options.ocrModel)
			? (options.ocrModel as IDataObject).value
			: options.ocrModel;
	if (given(ocrModel)) {
		body.ocrModel = requireText(context, itemIndex, 'OCR Model', ocrModel);
	}
	return body;
}

/**
 * The multipart settings when this file goes in parts, else undefined. Every setting is checked,
 * whether this file needs it or not: a bad value should not wait for the first large file.
 */
function multipartSettings(
	context: IExecuteFunctions,
	itemIndex: number,
	options: UploadOptions,
	fileSize: number,
): MultipartSettings | undefined {
	const mode = requireOneOf(context, itemIndex, 'Multipart Upload', options.multipart ?? 'auto', MULTIPART_MODES);
	const thresholdMB = requireNumber(
		context,
		itemIndex,
		'Multipart Threshold (MB)',
		options.multipartThreshold ?? 100,
		{ min: 0 },
		'a number of MB, 0 or more',
	);
	const partSizeMB = requireNumber(
		context,
		itemIndex,
		'Part Size (MB)',
		options.partSize ?? 10,
		{ min: MIN_PART_SIZE_MB, max: MAX_PART_SIZE_MB },
		`a number of MB from ${MIN_PART_SIZE_MB} to ${MAX_PART_SIZE_MB}`,
	);
	const concurrency = requireNumber(
		context,
		itemIndex,
		'Part Concurrency',
		options.partConcurrency ?? 4,
		{ min: 1, max: MAX_PART_CONCURRENCY, integer: true },
		`a whole number from 1 to ${MAX_PART_CONCURRENCY}`,
	);
	if (mode === 'never' || (mode === 'auto' && fileSize <= thresholdMB * BYTES_PER_MB)) {
		return undefined;
	}
	return { partSizeMB, concurrency };
}

/** Single upload: POST /files/upload, then one PUT of the whole file to the presigned URL. */
async function singleUpload(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	source: BinarySource,
	fileName: string,
	fileType: string,
): Promise<IDataObject> {
	const requestedAt = waitClock.now();
	const answer = await apiRequestWithResponse.call(context, {
		method: 'POST',
		path: '/files/upload',
		body,
		idempotencyKey: idempotencyKey(context, itemIndex, 'file.upload', body),
		itemIndex,
	});
	const upload = answer.body;
	const uploadId = upload.uploadId;
	const presignedUploadURL = upload.presignedUploadURL;
	if (typeof uploadId !== 'string' || typeof presignedUploadURL !== 'string') {
		throw unexpectedResponse(context, 'the upload request', { ...upload, presignedUploadURL: undefined }, itemIndex);
	}

	// The presigned URL is a short-lived bearer secret: it is not part of the output.
	const uploadInfo = withoutField(upload, 'presignedUploadURL');
	if (isReplayed(answer.headers) && (await bytesAlreadyArrived.call(context, uploadId, itemIndex))) {
		return uploadInfo;
	}
	await putToStorage.call(context, presignedUploadURL, source.open, {
		contentType: fileType,
		label: `file "${fileName}" (upload ID ${uploadId})`,
		role: 'presigned upload URL',
		itemIndex,
		validUntil: requestedAt + UPLOAD_URL_LIFETIME_MS,
	});
	return uploadInfo;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = requireText(
		this,
		itemIndex,
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex),
	);
	const waitForCompletion = requireBoolean(
		this,
		itemIndex,
		'Wait for Completion',
		this.getNodeParameter('waitForCompletion', itemIndex, true),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as UploadOptions;

	const source = await binarySource(this, itemIndex, binaryPropertyName);
	if (source.fileSize === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The file${source.fileName ? ` "${source.fileName}"` : ''} in the binary field "${binaryPropertyName}" of item ${itemIndex} is empty (0 bytes): nothing was uploaded`,
			{
				itemIndex,
				description:
					'The service cannot extract anything from an empty file. Check the node that produced the binary (a failed download or an empty attachment often gives 0 bytes).',
			},
		);
	}
	// An override given as an option is checked as given; without one, the binary's name is used.
	const fileName = given(options.fileName) ? requireText(this, itemIndex, 'File Name', options.fileName) : source.fileName.trim();
	if (!fileName) {
		throw invalidParameter(
			this,
			itemIndex,
			'File Name',
			fileName,
			'a file name: the binary has none, so set "File Name" in the options',
		);
	}
	const fileType = given(options.mimeType) ? requireText(this, itemIndex, 'MIME Type', options.mimeType) : source.mimeType.trim();
	const body = uploadBody(this, itemIndex, fileName, fileType, options);
	const pollIntervalMs =
		requireNumber(this, itemIndex, 'Poll Interval (Seconds)', options.pollInterval ?? 5, { min: 0.5 }, 'a number of seconds, 0.5 or more') *
		1000;
	const timeoutMs =
		requireNumber(this, itemIndex, 'Wait Timeout (Seconds)', options.waitTimeout ?? 300, { min: 1 }, 'a number of seconds, 1 or more') *
		1000;

	const multipart = multipartSettings(this, itemIndex, options, source.fileSize);

	const uploadInfo = multipart
		? await multipartUpload.call(this, {
				body,
				source,
				settings: multipart,
				fileLabel: `"${fileName}"`,
				itemIndex,
			})
		: await singleUpload(this, itemIndex, body, source, fileName, fileType);
	const uploadId = uploadInfo.uploadId as string;
	if (!waitForCompletion) {
		return [{ json: withLeadingKeys({ ...uploadInfo, fileName, fileType, fileSize: source.fileSize, status: 'uploaded' }) }];
	}

	const progress = await waitForUpload.call(this, {
		uploadId,
		fileName,
		expectZip: isZipUpload(fileName, fileType),
		pollIntervalMs,
		timeoutMs,
		itemIndex,
	});

	const includeValues = requireBoolean(
		this,
		itemIndex,
		'Include Extracted Values',
		this.getNodeParameter('includeExtractedValues', itemIndex, true),
	);
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));

	const items: INodeExecutionData[] = [];
	for (const { file, memberName } of progress.processed) {
		const json: IDataObject = { ...file, uploadId: file.uploadId ?? uploadId };
		if (memberName !== undefined) json.zipMemberName = memberName;
		if (progress.isZip) json.zipUploadId = uploadId;
		if (includeValues && typeof file.fileId === 'string') {
			Object.assign(json, await valuesField.call(this, file.fileId, itemIndex, simplify));
		}
		items.push({ json: withLeadingKeys(json) });
	}
	for (const failure of progress.failed) {
		items.push({
			json: withLeadingKeys({
				uploadId: failure.uploadId ?? uploadId,
				...(progress.isZip ? { zipUploadId: uploadId, zipMemberName: failure.fileName } : {}),
				fileName: failure.fileName ?? fileName,
				fileType: failure.fileType ?? null,
				status: 'failed',
				errorReason: failure.errorReason,
				failedStep: failure.step ?? null,
				statuses: failure.statuses,
			}),
		});
	}
	return items;
}
