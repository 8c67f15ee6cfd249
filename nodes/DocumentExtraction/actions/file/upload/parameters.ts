import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { UploadRequest } from '../../../../shared/api';
import { PROCESSING_WAIT_LIMITS, UPLOAD_LIMITS } from '../../../../shared/limits';
import type { BinarySource } from '../../../helpers/binary';
import { MIME_TYPE_PATTERN, binarySource } from '../../../helpers/binary';
import {
	given,
	invalidParameter,
	optionalText,
	requireBoolean,
	requireHttpsUrl,
	requireNumber,
	requireObjectId,
	requireOneOf,
	requirePositiveInteger,
	requireText,
} from '../../../../shared/parameters';
import type { MultipartSettings } from './multipart';
import { BYTES_PER_MB } from './partPlan';

/** Upload's parameters read and checked for one item, before anything is sent. */

/** The Options collection as n8n hands it over: an expression may have put any value in any field. */
export type UploadOptions = Record<string, unknown>;

const MULTIPART_MODES = ['auto', 'always', 'never'] as const;

/** Wait Mode's values (description.ts shows them). */
const WAIT_MODE_VALUES = ['poll', 'callback'] as const;

/** How an item waits for processing: not at all, by asking for the status, or for the service's callbacks. */
export type WaitMode = 'none' | (typeof WAIT_MODE_VALUES)[number];

/** Wait for Completion and Wait Mode of one item, checked. */
export function waitModeOf(context: IExecuteFunctions, itemIndex: number): WaitMode {
	const wait = requireBoolean(context, itemIndex, 'Wait for Completion', context.getNodeParameter('waitForCompletion', itemIndex, true));
	if (!wait) return 'none';
	return requireOneOf(context, itemIndex, 'Wait Mode', context.getNodeParameter('waitMode', itemIndex, 'poll'), WAIT_MODE_VALUES);
}

/**
 * The binary to upload, with the name and MIME type it is sent under (the options override the
 * binary's own). An empty file is refused: the service cannot extract anything from it.
 */
export async function uploadSource(
	context: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
	options: UploadOptions,
): Promise<{ source: BinarySource; fileName: string; fileType: string }> {
	const source = await binarySource(context, itemIndex, binaryPropertyName);
	if (source.fileSize === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`The file${source.fileName ? ` "${source.fileName}"` : ''} in the binary field "${binaryPropertyName}" of item ${itemIndex} is empty (0 bytes): nothing was uploaded`,
			{
				itemIndex,
				description:
					'The service cannot extract anything from an empty file. Check the node that produced the binary (a failed download or an empty attachment often gives 0 bytes).',
			},
		);
	}
	// An override given as an option is checked as given; without one, the binary's name is used.
	const fileName = given(options.fileName) ? requireText(context, itemIndex, 'File Name', options.fileName) : source.fileName.trim();
	if (!fileName) {
		throw invalidParameter(
			context,
			itemIndex,
			'File Name',
			fileName,
			'a file name: the binary has none, so set "File Name" in the options',
		);
	}
	const fileType = given(options.mimeType) ? requireText(context, itemIndex, 'MIME Type', options.mimeType) : source.mimeType.trim();
	return { source, fileName, fileType };
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
const MAX_FOLDER_NAME_LENGTH = UPLOAD_LIMITS.maxFolderNameLength;

/** The path without leading and trailing slashes, in one pass (no regular expression). */
function withoutOuterSlashes(path: string): string {
	let start = 0;
	let end = path.length;
	while (start < end && path[start] === '/') start += 1;
	while (end > start && path[end - 1] === '/') end -= 1;
	return path.slice(start, end);
}

/**
 * The Destination Path: folder names separated by "/", none empty, none "." or ".." (also when
 * percent-encoded), no backslash, no control characters.
 */
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
export function uploadBody(
	context: IExecuteFunctions,
	itemIndex: number,
	fileName: string,
	fileType: string,
	options: UploadOptions,
): UploadRequest {
	const body: UploadRequest = {
		fileName: requireText(context, itemIndex, 'File Name', fileName),
		fileType: requireText(context, itemIndex, 'MIME Type', fileType),
		// Required in one place of the specification, optional in another: docs/dev/api-contract.md#issplit-and-schemalocking
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

/** How Wait for Completion asks for the status: the poll interval and the Wait Timeout, in ms. */
export function waitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
	options: UploadOptions,
): { pollIntervalMs: number; timeoutMs: number } {
	const { defaultPollIntervalSeconds, minPollIntervalSeconds, defaultWaitTimeoutSeconds, minWaitTimeoutSeconds } = PROCESSING_WAIT_LIMITS;
	const pollIntervalMs =
		requireNumber(
			context,
			itemIndex,
			'Poll Interval (Seconds)',
			options.pollInterval ?? defaultPollIntervalSeconds,
			{ min: minPollIntervalSeconds },
			`a number of seconds, ${minPollIntervalSeconds} or more`,
		) * 1000;
	const timeoutMs =
		requireNumber(
			context,
			itemIndex,
			'Wait Timeout (Seconds)',
			options.waitTimeout ?? defaultWaitTimeoutSeconds,
			{ min: minWaitTimeoutSeconds },
			`a number of seconds, ${minWaitTimeoutSeconds} or more`,
		) * 1000;
	return { pollIntervalMs, timeoutMs };
}

/**
 * The multipart settings when this file goes in parts, else undefined. Every setting is checked,
 * whether this file needs it or not: a bad value should not wait for the first large file.
 */
export function multipartSettings(
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
		options.multipartThreshold ?? UPLOAD_LIMITS.defaultMultipartThresholdMb,
		{ min: 0 },
		'a number of MB, 0 or more',
	);
	const partSizeMB = requireNumber(
		context,
		itemIndex,
		'Part Size (MB)',
		options.partSize ?? UPLOAD_LIMITS.defaultPartSizeMb,
		{ min: UPLOAD_LIMITS.minPartSizeMb, max: UPLOAD_LIMITS.maxPartSizeMb },
		`a number of MB from ${UPLOAD_LIMITS.minPartSizeMb} to ${UPLOAD_LIMITS.maxPartSizeMb}`,
	);
	const concurrency = requireNumber(
		context,
		itemIndex,
		'Part Concurrency',
		options.partConcurrency ?? UPLOAD_LIMITS.defaultPartConcurrency,
		{ min: 1, max: UPLOAD_LIMITS.maxPartConcurrency, integer: true },
		`a whole number from 1 to ${UPLOAD_LIMITS.maxPartConcurrency}`,
	);
	if (mode === 'never' || (mode === 'auto' && fileSize <= thresholdMB * BYTES_PER_MB)) {
		return undefined;
	}
	return { partSizeMB, concurrency };
}
