import type { IExecuteFunctions } from 'n8n-workflow';

import { ANSWER_LIMITS, STORAGE_LIMITS } from '../limits';
import type { ItemPolicy } from '../run';
import type { ApprovedUrl, PayloadSource, StorageDownload } from '../transport';
import { approveStorageUrl, downloadFromStorage, putToStorage } from '../transport';

/**
 * The presigned storage transfers, as the operations use them: the single upload's PUT, a part's
 * PUT and a download. Each URL the API hands back is approved exactly once (the URL policy, its
 * secrets registered with the run) and carried as an ApprovedUrl from then on; each transfer has
 * its URL's lifetime and its retries here, written once. The request path below bounds and
 * retries every attempt; no request carries the API key.
 */

/** A URL to PUT the bytes of an upload to, as the upload request answered it (not yet approved). */
export interface UploadUrl {
	readonly url: string;
	/** When it stops working (wait clock, epoch ms): STORAGE_LIMITS.uploadUrlLifetimeMs after the request. */
	readonly validUntil: number;
}

/** A part's presigned URL, approved, and when the part URLs of its upload stop working. */
export interface PartUrl {
	readonly url: ApprovedUrl;
	readonly validUntil: number;
}

/**
 * The single upload's PUT: judges the URL, then sends the whole file (each attempt opens `source`
 * again), repeated under the retry policy while the URL works.
 */
export async function putUploadFile(
	context: IExecuteFunctions,
	target: UploadUrl,
	source: PayloadSource,
	call: { contentType: string; label: string; policy: ItemPolicy },
): Promise<void> {
	const url = await approveStorageUrl(context, target.url, 'presigned upload URL', call.policy);
	await putToStorage(context, url, source, {
		contentType: call.contentType,
		label: call.label,
		policy: call.policy,
		validUntil: target.validUntil,
	});
}

/**
 * Judges every part URL of a multipart upload, before the first byte is sent: a bad one never
 * leaves a half-sent upload.
 */
export async function approvePartUrls(
	context: IExecuteFunctions,
	urls: readonly string[],
	validUntil: number,
	{ policy }: { policy: ItemPolicy },
): Promise<PartUrl[]> {
	const approved: PartUrl[] = [];
	for (const url of urls) approved.push({ url: await approveStorageUrl(context, url, 'presigned part URL', policy), validUntil });
	return approved;
}

/**
 * One part's PUT (`size` bytes, its Content-Length), with the part retries
 * (STORAGE_LIMITS.partRetries) while its URL works; returns its ETag.
 */
export async function putPart(
	context: IExecuteFunctions,
	target: PartUrl,
	part: { bytes: Buffer; size: number },
	call: { label: string; policy: ItemPolicy },
): Promise<{ etag?: string }> {
	const { etag } = await putToStorage(context, target.url, async () => ({ body: part.bytes, contentLength: part.size }), {
		label: call.label,
		policy: call.policy,
		validUntil: target.validUntil,
		maxFailureRetries: STORAGE_LIMITS.partRetries,
	});
	return { etag };
}

/** What a download announced as `announcedBytes` may bring: a little more, never the service's whim. */
function allowedDownloadBytes(announcedBytes: unknown): number | undefined {
	if (typeof announcedBytes !== 'number' || !Number.isFinite(announcedBytes) || announcedBytes < 0) return undefined;
	const tolerance = Math.max(ANSWER_LIMITS.downloadToleranceMinBytes, (announcedBytes * ANSWER_LIMITS.downloadTolerancePercent) / 100);
	return Math.ceil(announcedBytes + tolerance);
}

/**
 * Downloads from an approved URL (a preview link) and hands the stream to `consume` inside the
 * attempt, so the transfer's bounds hold until the last byte is stored. The size the file record
 * announced bounds it (a little over it); without one, the Max Answer Size.
 */
export async function downloadFile<T>(
	context: IExecuteFunctions,
	url: ApprovedUrl,
	call: { label: string; announcedBytes: unknown; policy: ItemPolicy },
	consume: (download: StorageDownload) => Promise<T>,
): Promise<T> {
	return await downloadFromStorage(
		context,
		url,
		{ label: call.label, policy: call.policy, maxBytes: allowedDownloadBytes(call.announcedBytes) },
		consume,
	) as T;
}
