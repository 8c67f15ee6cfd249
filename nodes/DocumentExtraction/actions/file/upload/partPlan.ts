import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { unexpectedResponse } from '../../../../shared/api';
import { UPLOAD_LIMITS } from '../../../../shared/limits';

/**
 * The part plan of a multipart upload, as the service's initiation answer gives it, judged before
 * any part is sent: byte ranges that tile the file in order, none larger than the Part Size asked.
 */

export interface PlannedPart {
	partNumber: number;
	url: string;
	start: number;
	size: number;
}

/** S3's limit, and so the most parts a multipart upload can have. */
const MAX_PARTS = UPLOAD_LIMITS.maxParts;

/** A value of the answer as a message shows it: numbers as written, text quoted and cut short. */
function shownValue(value: unknown): string {
	if (typeof value === 'number') return String(value);
	if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	if (value === null) return 'null';
	return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/**
 * The answer's top level as the error shows it: text and numbers as sent, the parts counted (their
 * URLs are bearer secrets), other lists and objects named only, so that an answer of any depth
 * is shown in bounded work.
 */
function answerSummary(answer: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(answer).map(([key, value]) => {
			if (key === 'presignedUrls') return [key, Array.isArray(value) ? `${value.length} parts` : shownValue(value)];
			return [key, value !== null && typeof value === 'object' ? shownValue(value) : value];
		}),
	) as IDataObject;
}

/**
 * The service's part plan is not one the node can send: nothing is sent, the upload is not started.
 * The answer's top level (redacted, without its URLs) is in the error's description.
 */
function refusedPlan(context: IExecuteFunctions, itemIndex: number, why: string, answer: IDataObject): NodeApiError {
	const message = `The API answered the multipart upload request with an unexpected part plan: ${why}. It was refused before any part was sent, so no document was created. Part buffers are sized by the Part Size you chose, never by the service's answer. Run the node again; if it keeps happening, lower "Part Size (MB)" or report it to the service.`;
	const error = unexpectedResponse(context, 'the multipart upload request', answerSummary(answer), itemIndex);
	error.message = message;
	return error;
}

/**
 * A byte count or count of the answer: absent (undefined or null), or a safe integer of at least
 * `min`. Anything else (a fraction, text, 2^53 or more, a negative number) is not a count,
 * whatever it adds up to, so the whole plan is refused.
 */
function wholeNumber(value: unknown, min: number, refuse: (why: string) => never, what: string, unit = ' of bytes'): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
		refuse(`${what} is ${value}, too large to be counted exactly (more than 2^53 - 1)`);
	}
	if (typeof value !== 'number' || !Number.isSafeInteger(value)) refuse(`${what} is ${shownValue(value)}, not a whole number${unit}`);
	if (value < min) refuse(`${what} is ${value}, less than ${min}`);
	return value;
}

/**
 * The API takes `fileSize` and `partSizeLimit` in MB, floats allowed; we read MB as 2^20 bytes
 * (MiB), so `bytes / 2^20` is exact and the service's byte count equals ours
 * (docs/dev/api-contract.md#multipart-sizes-in-mb).
 */
export const BYTES_PER_MB = 1024 * 1024;

/**
 * The answer's totalSize, when given, must be the file's size: in bytes, or in MB as the request
 * sends fileSize (its unit is not documented; docs/dev/api-contract.md#the-multipart-initiation-answer),
 * rounded to at most two decimals either way. It is only compared: the part ranges decide what is
 * sent, so a totalSize of another file refuses the plan, and any other value is not a size.
 */
function checkTotalSize(value: unknown, fileSize: number, refuse: (why: string) => never): void {
	if (value === undefined || value === null) return;
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
		refuse(`its totalSize is ${shownValue(value)}, not a size`);
	}
	if (value === fileSize) return;
	const megabytes = fileSize / BYTES_PER_MB;
	if (Math.abs(value - megabytes) <= 0.005) return;
	refuse(`its totalSize is ${value}, but the file has ${fileSize} bytes (${megabytes.toFixed(2)} MB)`);
}

/**
 * The parts of an initiation answer as byte ranges: from startByte/endByte/size when the API
 * gives them (its documentation does), else from partSize. Every size, offset, part number and
 * count of the answer must be a safe integer; the parts must be numbered 1 to N, agree with
 * `totalParts` and `totalSize` when given, and tile the file exactly, in order (no gap, no
 * overlap), none larger than the Part Size asked (`maxPartBytes`), at most MAX_PARTS of them
 * (docs/dev/api-contract.md#the-multipart-initiation-answer). Linear in the parts, after a sort.
 */
export function planParts(
	context: IExecuteFunctions,
	initiation: IDataObject,
	fileSize: number,
	maxPartBytes: number,
	itemIndex: number,
): PlannedPart[] {
	const refuse = (why: string): never => {
		throw refusedPlan(context, itemIndex, why, initiation);
	};
	if (!Array.isArray(initiation.presignedUrls) || initiation.presignedUrls.length === 0) refuse('it lists no part URLs');
	const urls = initiation.presignedUrls as unknown[];
	if (urls.length > MAX_PARTS) refuse(`it has ${urls.length} parts, more than the ${MAX_PARTS} a multipart upload can have`);
	const totalParts = wholeNumber(initiation.totalParts, 1, refuse, 'its totalParts', '');
	if (totalParts !== undefined && totalParts !== urls.length) refuse(`its totalParts is ${totalParts}, but it lists ${urls.length} parts`);
	checkTotalSize(initiation.totalSize, fileSize, refuse);
	// partSize is needed only where a part gives no byte range; the ranges decide what is sent.
	const partSizeOf = () => wholeNumber(initiation.partSize, 1, refuse, 'its partSize');

	const entries = urls.map((entry) => {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return refuse(`a part is ${shownValue(entry)}, not a part record`);
		const record = entry as IDataObject;
		const partNumber = record.partNumber;
		if (typeof partNumber !== 'number' || !Number.isSafeInteger(partNumber)) {
			return refuse(`part number ${shownValue(partNumber)} is not a whole number`);
		}
		return { record, partNumber };
	});
	entries.sort((left, right) => left.partNumber - right.partNumber);

	const parts: PlannedPart[] = [];
	let offset = 0;
	for (const [index, { record, partNumber }] of entries.entries()) {
		if (partNumber !== index + 1) refuse(`its part numbers are not 1 to ${entries.length}: part number ${partNumber} stands where ${index + 1} should`);
		const url = record.presignedUrl;
		if (typeof url !== 'string') refuse(`part ${partNumber} has no presignedUrl`);
		const named = (field: string) => `part ${partNumber}'s ${field}`;
		const startByte = wholeNumber(record.startByte, 0, refuse, named('startByte'));
		const endByte = wholeNumber(record.endByte, 0, refuse, named('endByte'));
		const givenSize = wholeNumber(record.size, 1, refuse, named('size'));
		const start = startByte ?? index * (partSizeOf() ?? refuse(`part ${partNumber} gives no startByte, and the plan no partSize`));
		if (start !== offset) {
			refuse(
				offset === 0
					? `part 1 starts at byte ${start}, not at the file's first byte (0)`
					: `part ${partNumber} starts at byte ${start}, but part ${partNumber - 1} ended at byte ${offset - 1} (a gap or an overlap)`,
			);
		}
		if (start >= fileSize) refuse(`its parts go past the end of the file (${fileSize} bytes) at part ${partNumber}`);
		const rangeSize = endByte !== undefined ? endByte - start + 1 : undefined;
		if (rangeSize !== undefined && givenSize !== undefined && rangeSize !== givenSize) {
			refuse(`${named('size')} (${givenSize}) is not endByte - startByte + 1 (${rangeSize})`);
		}
		const size = rangeSize ?? givenSize ?? Math.min(partSizeOf() ?? refuse(`part ${partNumber} gives no size, and the plan no partSize`), fileSize - offset);
		if (size < 1) refuse(`part ${partNumber} ends at byte ${start + size - 1}, before it starts (${start})`);
		if (size > maxPartBytes) {
			refuse(`part ${partNumber} is ${size} bytes, larger than the Part Size asked (${maxPartBytes} bytes)`);
		}
		parts.push({ partNumber, url: url as string, start, size });
		offset += size;
		if (offset > fileSize) refuse(`its parts go past the end of the file (${fileSize} bytes) at part ${partNumber}`);
	}
	if (offset !== fileSize) refuse(`its parts cover ${offset} bytes of ${fileSize}`);
	return parts;
}
