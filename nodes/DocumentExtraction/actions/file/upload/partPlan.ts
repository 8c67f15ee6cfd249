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

function asNumber(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** S3's limit, and so the most parts a multipart upload can have. */
const MAX_PARTS = UPLOAD_LIMITS.maxParts;

/** The service's part plan does not fit what was asked: nothing is sent, the upload is not started. */
function refusedPlan(context: IExecuteFunctions, itemIndex: number, why: string): NodeApiError {
	const message = `The API's plan for the multipart upload was refused before any part was sent: ${why}. Part buffers are sized by the Part Size you chose, never by the service's answer. Run the node again; if it keeps happening, lower "Part Size (MB)" or report it to the service.`;
	const error = new NodeApiError(context.getNode(), { reason: 'multipart plan refused' }, { message, description: message, itemIndex });
	error.message = message;
	return error;
}

/**
 * The parts of an initiation answer as byte ranges: from startByte/endByte/size when the API
 * gives them (its documentation does), else from partSize. They must tile the file exactly, in
 * order, none larger than the Part Size asked (`maxPartBytes`) and at most MAX_PARTS of them
 * (docs/dev/api-contract.md#the-multipart-initiation-answer).
 */
export function planParts(
	context: IExecuteFunctions,
	initiation: IDataObject,
	fileSize: number,
	maxPartBytes: number,
	itemIndex: number,
): PlannedPart[] {
	const shown = { ...initiation, presignedUrls: undefined };
	const urls = Array.isArray(initiation.presignedUrls) ? (initiation.presignedUrls as IDataObject[]) : [];
	if (urls.length > MAX_PARTS) {
		throw refusedPlan(context, itemIndex, `it has ${urls.length} parts, more than the ${MAX_PARTS} a multipart upload can have`);
	}
	const partSize = asNumber(initiation.partSize);
	const ordered = [...urls].sort((left, right) => Number(left.partNumber) - Number(right.partNumber));
	const parts: PlannedPart[] = [];
	let offset = 0;
	for (const [index, entry] of ordered.entries()) {
		const partNumber = asNumber(entry.partNumber);
		const url = entry.presignedUrl;
		const start = asNumber(entry.startByte) ?? (partSize !== undefined ? index * partSize : undefined);
		const end = asNumber(entry.endByte);
		const size =
			end !== undefined && start !== undefined
				? end - start + 1
				: (asNumber(entry.size) ??
					(partSize !== undefined ? Math.min(partSize, fileSize - offset) : undefined));
		if (partNumber !== index + 1 || typeof url !== 'string' || start !== offset || !size || size < 1) {
			throw unexpectedResponse(context, 'the multipart upload request (part URLs)', shown, itemIndex);
		}
		if (size > maxPartBytes) {
			throw refusedPlan(
				context,
				itemIndex,
				`part ${partNumber} is ${size} bytes, larger than the Part Size asked (${maxPartBytes} bytes)`,
			);
		}
		parts.push({ partNumber, url, start, size });
		offset += size;
		if (offset > fileSize) {
			throw refusedPlan(context, itemIndex, `its parts go past the end of the file (${fileSize} bytes) at part ${partNumber}`);
		}
	}
	if (parts.length === 0 || offset !== fileSize) {
		throw unexpectedResponse(
			context,
			`the multipart upload request (its parts cover ${offset} bytes of ${fileSize})`,
			shown,
			itemIndex,
		);
	}
	return parts;
}
