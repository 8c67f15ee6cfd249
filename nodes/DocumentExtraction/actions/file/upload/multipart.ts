import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { MultipartUploadRequest, UploadRequest } from '../../../../shared/api';
import {
	approvePartUrls,
	completeMultipartUpload,
	initiateMultipartUpload,
	putPart,
	withoutField,
} from '../../../../shared/api';
import { forEachConcurrently } from '../../../../shared/concurrency';
import type { BinarySource, RangeReader } from '../../../helpers/binary';
import { STORAGE_LIMITS } from '../../../../shared/limits';
import type { ItemPolicy } from '../../../../shared/run';
import { waitClock } from '../../../../shared/run';
import { trimTrailingStops } from '../../../../shared/text';
import type { PlannedPart } from './partPlan';
import { BYTES_PER_MB, planParts } from './partPlan';
import { sentBefore } from './replay';

/**
 * Multipart upload: POST /files/upload/multipart, a PUT per part to its presigned URL, then
 * POST /files/upload/multipart/complete with the ETags in part order. Sizes in MB: BYTES_PER_MB
 * (partPlan.ts).
 */

export interface MultipartSettings {
	/** Requested part size in MB (the API's partSizeLimit). */
	partSizeMB: number;
	/** Parts sent at the same time. */
	concurrency: number;
}

interface MultipartRequest {
	/** The upload body (fileName, fileType and the upload options) without the size fields. */
	body: UploadRequest;
	source: BinarySource;
	settings: MultipartSettings;
	/** Names the file in messages, e.g. `"scan.pdf"`. */
	fileLabel: string;
	/** The item's request policy (its item is named in errors). */
	policy: ItemPolicy;
}

interface FedPart {
	bytes: Buffer;
	/** Gives the part's buffer back for a later part; call it once the part is sent (or failed). */
	release: () => void;
}

/**
 * Reads the parts in order, one part ahead of the lanes that send them, into a pool of
 * `lanes + 1` reused buffers (none when the reader slices a buffer held in memory). The read-ahead
 * keeps a lane from waiting for its next part to be read; memory stays (lanes + 1) x part size.
 */
function partFeed(
	reader: RangeReader,
	parts: PlannedPart[],
	lanes: number,
	ownBuffers: boolean,
): { take: (index: number) => Promise<FedPart> } {
	// Each part is at most the Part Size asked (planParts checked it): so is every buffer.
	let bufferSize = 0;
	for (const part of parts) bufferSize = Math.max(bufferSize, part.size);
	const free: Buffer[] = [];
	const waiting: Array<(buffer: Buffer) => void> = [];
	let allocated = 0;
	const acquire = async (): Promise<Buffer | undefined> => {
		if (!ownBuffers) return undefined;
		const buffer = free.pop();
		if (buffer) return buffer;
		if (allocated <= lanes) {
			allocated++;
			return Buffer.allocUnsafeSlow(bufferSize);
		}
		return await new Promise<Buffer>((resolve) => waiting.push(resolve));
	};
	const release = (buffer: Buffer | undefined) => {
		if (!buffer) return;
		const next = waiting.shift();
		if (next) next(buffer);
		else free.push(buffer);
	};

	const reads: Array<Promise<{ bytes: Buffer; buffer?: Buffer }>> = [];
	let previous: Promise<unknown> = Promise.resolve();
	const startRead = (index: number) => {
		const part = parts[index];
		reads[index] = previous.then(async () => {
			const buffer = await acquire();
			let bytes: Buffer | undefined;
			try {
				bytes = await reader.read(part.start, part.size, buffer);
				return { bytes, buffer };
			} finally {
				if (!bytes) release(buffer);
			}
		});
		previous = reads[index].catch(() => undefined);
	};

	return {
		async take(index) {
			for (let next = reads.length; next <= Math.min(index + 1, parts.length - 1); next++) startRead(next);
			const { bytes, buffer } = await reads[index];
			let released = false;
			return {
				bytes,
				release: () => {
					if (released) return;
					released = true;
					release(buffer);
				},
			};
		},
	};
}

/** What the part's error said, plus which upload it belongs to and what to do. */
function partFailure(
	context: IExecuteFunctions,
	error: unknown,
	facts: { part: PlannedPart; total: number; sent: number; uploadId: string; startedAt: number; itemIndex: number },
): NodeApiError | NodeOperationError {
	const { part, total, sent, uploadId } = facts;
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex: facts.itemIndex });
	const seconds = Math.round((waitClock.now() - facts.startedAt) / 1000);
	if (nodeError.context.urlExpired) {
		nodeError.message = `The presigned part URLs of upload ${uploadId} expired before part ${part.partNumber} of ${total} was sent: part URLs are valid for ${STORAGE_LIMITS.partUrlLifetimeMs / 1000} seconds, and ${sent} of ${total} parts were sent in ${seconds} s. Nothing was stored as a document. Run the node again to start a new upload; to send faster, raise "Part Concurrency" or "Part Size".`;
	} else {
		nodeError.message = `${trimTrailingStops(nodeError.message)}. The multipart upload ${uploadId} was not completed (${sent} of ${total} parts sent), so no document was created: run the node again.`;
	}
	nodeError.context.uploadId = uploadId;
	nodeError.context.partNumber = part.partNumber;
	return nodeError;
}

/**
 * Sends a binary in parts with bounded concurrency. Parts are read in order from n8n's binary
 * storage into reused buffers, one part ahead of the sending (memory: part size x (concurrency
 * + 1)), or sliced from the item's buffer in memory mode. Each part is retried on a network error or 5xx while its URL
 * is valid. Initiation and completion carry Idempotency-Keys, so retries (by the transport or by
 * n8n's Retry On Fail) never create a second document.
 *
 * Returns the initiation answer without its presigned URLs (bearer secrets).
 */
export async function multipartUpload(
	this: IExecuteFunctions,
	request: MultipartRequest,
): Promise<IDataObject> {
	const { source, settings, policy } = request;
	const { itemIndex } = policy;
	const body: MultipartUploadRequest = {
		...request.body,
		fileSize: source.fileSize / BYTES_PER_MB,
		partSizeLimit: settings.partSizeMB,
	};
	const startedAt = waitClock.now();
	const { initiation, replayed, partsValidUntil } = await initiateMultipartUpload(this, body, { policy });
	const info = withoutField(initiation, 'presignedUrls');
	const multipartId = initiation.id;
	const storageKey = initiation.key;
	const uploadId = typeof initiation.uploadId === 'string' ? initiation.uploadId : multipartId;
	const totalParts = Array.isArray(initiation.presignedUrls) ? initiation.presignedUrls.length : undefined;
	if (await sentBefore.call(this, replayed, uploadId, policy)) {
		return { ...info, uploadId, totalParts };
	}
	const parts = planParts(this, initiation, source.fileSize, Math.ceil(settings.partSizeMB * BYTES_PER_MB), itemIndex);
	// Every part URL is judged before the first byte is sent, so a bad one never leaves a half-sent upload.
	const partUrls = await approvePartUrls(this, parts.map((part) => part.url), partsValidUntil, { policy });

	const reader = source.openRanges();
	const feed = partFeed(reader, parts, settings.concurrency, source.binaryDataId !== undefined);
	const eTags: string[] = new Array<string>(parts.length);
	let sent = 0;
	const cancelSignal = this.getExecutionCancelSignal();
	try {
		await forEachConcurrently(
			parts.length,
			settings.concurrency,
			async (index) => {
				const part = parts[index];
				const label = `part ${part.partNumber} of ${parts.length} of ${request.fileLabel} (upload ID ${uploadId})`;
				let fed: FedPart | undefined;
				try {
					fed = await feed.take(index);
					const result = await putPart(this, partUrls[index], { bytes: fed.bytes, size: part.size }, { label, policy });
					if (!result.etag) {
						throw new NodeOperationError(
							this.getNode(),
							`Storage accepted ${label} but sent no ETag header, which completing the upload needs`,
							{ itemIndex },
						);
					}
					eTags[index] = result.etag;
					sent++;
				} catch (error) {
					throw partFailure(this, error, {
						part,
						total: parts.length,
						sent,
						uploadId,
						startedAt,
						itemIndex,
					});
				} finally {
					fed?.release();
				}
			},
			() => cancelSignal?.aborted === true,
		);
	} finally {
		reader.close();
	}
	if (sent !== parts.length) {
		throw new NodeOperationError(this.getNode(), `The upload of ${request.fileLabel} was cancelled`, {
			itemIndex,
		});
	}

	await completeMultipartUpload(
		this,
		{
			id: multipartId,
			key: storageKey,
			parts: parts.map((part, index) => ({ partNumber: part.partNumber, eTag: eTags[index] })),
		},
		{ policy },
	);
	return { ...info, uploadId, totalParts: parts.length };
}
