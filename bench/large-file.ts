/**
 * The large source file of the upload benchmarks and its integrity check against the emulator in
 * storage sink mode (bench/upload.bench.ts, bench/n8n-contention.bench.ts): the sink keeps no
 * bytes, so the proof is every part's ETag (the MD5 the emulator computed of what it received)
 * against the MD5 of that byte range of the source.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';

const MIB = 1024 * 1024;

/** Writes `size` random bytes to `path`; returns the MD5 (hex) of every `partBytes` range, in order. */
export async function writeRandomFile(path: string, size: number, partBytes: number): Promise<string[]> {
	const md5s: string[] = [];
	let part = createHash('md5');
	let inPart = 0;
	const out = createWriteStream(path);
	for (let written = 0; written < size; ) {
		const chunk = randomBytes(Math.min(MIB, size - written, partBytes - inPart));
		part.update(chunk);
		inPart += chunk.length;
		written += chunk.length;
		if (inPart === partBytes || written === size) {
			md5s.push(part.digest('hex'));
			part = createHash('md5');
			inPart = 0;
		}
		if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
	}
	await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
	return md5s;
}

interface MultipartRecord {
	completed?: boolean;
	partSize?: number;
	parts?: Array<{ partNumber: number; eTag: string; size: number }>;
}

/**
 * Reads the emulator's record of a multipart upload (GET /__emulator/multipart?uploadId=) and
 * throws unless it was completed with exactly the source's parts: same part size, count, sizes and
 * MD5 ETags.
 */
export async function verifyParts(apiUrl: string, uploadId: string, size: number, partBytes: number, md5s: string[]): Promise<void> {
	const response = await fetch(`${apiUrl}/__emulator/multipart?uploadId=${encodeURIComponent(uploadId)}`);
	const record = (await response.json()) as MultipartRecord;
	const parts = record.parts ?? [];
	const problems: string[] = [];
	if (!response.ok) problems.push(`the emulator has no multipart upload ${uploadId} (HTTP ${response.status})`);
	if (!record.completed) problems.push('the upload was not completed');
	if (record.partSize !== partBytes) problems.push(`part size ${record.partSize}, expected ${partBytes}`);
	if (parts.length !== md5s.length) problems.push(`${parts.length} parts, expected ${md5s.length}`);
	md5s.forEach((md5, index) => {
		const part = parts[index];
		const bytes = Math.min(partBytes, size - index * partBytes);
		if (!part || part.partNumber !== index + 1 || part.eTag !== `"${md5}"` || part.size !== bytes) {
			problems.push(`part ${index + 1}: ${JSON.stringify(part)}, expected eTag "${md5}" and ${bytes} bytes`);
		}
	});
	if (problems.length > 0) throw new Error(`upload ${uploadId} does not match the source: ${problems.slice(0, 5).join('; ')}`);
}
