/** Uploaded bytes live on disk under dataDir; nothing is held in memory whole. In storage sink
 * mode they are counted and MD5-hashed as they arrive, then dropped (nothing is written). */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { newUuid } from './ids';
import { Md5Worker } from './md5-worker';
import type { EmulatorState } from './state';
import type { StoredObject } from './types';

/**
 * The fileHash of a file stored in sink mode: not the content's SHA-256 (the bytes were never
 * kept), but the SHA-256 of its S3 ETag and size, so that the same bytes sent the same way get the
 * same hash (duplicate detection still works) and the value has the usual 64-hex form.
 */
export function sinkHash(etag: string, size: number): string {
	return createHash('sha256').update(`sink:${etag.replace(/"/g, '')}:${size}`).digest('hex');
}

/** Passes bytes through while computing SHA-256 (fileHash), MD5 (ETag) and the byte count. */
export class DigestStream extends Transform {
	private readonly sha256 = createHash('sha256');
	private readonly md5 = createHash('md5');
	bytes = 0;

	constructor(private readonly onBytes?: (bytes: number) => void) {
		super();
	}

	_transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
		this.sha256.update(chunk);
		this.md5.update(chunk);
		this.bytes += chunk.length;
		this.onBytes?.(chunk.length);
		callback(null, chunk);
	}

	digests(): { sha256: string; md5: string } {
		return { sha256: this.sha256.digest('hex'), md5: this.md5.digest('hex') };
	}
}

export class ObjectStore {
	private readonly md5 = new Md5Worker();

	constructor(
		private readonly state: EmulatorState,
		readonly dataDir: string,
	) {}

	async init(): Promise<void> {
		await mkdir(join(this.dataDir, 'objects'), { recursive: true });
		await mkdir(join(this.dataDir, 'parts'), { recursive: true });
		await mkdir(join(this.dataDir, 'tmp'), { recursive: true });
	}

	tmpPath(): string {
		return join(this.dataDir, 'tmp', newUuid());
	}

	partPath(multipartId: string, partNumber: number): string {
		return join(this.dataDir, 'parts', `${multipartId}-${partNumber}`);
	}

	/** Moves a finished temp file into place as the object `key` (replacing an older one). */
	async commit(tmpPath: string, key: string, workspaceId: string, contentType: string, size: number, hash: string): Promise<StoredObject> {
		const diskPath = join(this.dataDir, 'objects', newUuid());
		await rename(tmpPath, diskPath);
		const previous = this.state.objects.get(key);
		const object: StoredObject = { key, workspaceId, diskPath, size, contentType, hash };
		this.state.objects.set(key, object);
		if (previous) await rm(previous.diskPath, { force: true });
		return object;
	}

	/**
	 * Storage sink mode: records an object without bytes (`sink: true`, no file on disk). `hash`
	 * stands in for the content's SHA-256 (see sinkHash).
	 */
	async commitSink(key: string, workspaceId: string, contentType: string, size: number, hash: string): Promise<StoredObject> {
		const previous = this.state.objects.get(key);
		const object: StoredObject = { key, workspaceId, diskPath: '', size, contentType, hash, sink: true };
		this.state.objects.set(key, object);
		if (previous?.diskPath) await rm(previous.diskPath, { force: true });
		return object;
	}

	/**
	 * Storage sink mode: reads `source` to its end, counting the bytes and computing their MD5 (the
	 * ETag, on a worker thread) and nothing else: no SHA-256, no disk. The chunks are handed to the
	 * worker, so this must be the stream's last 'data' listener. Rejects when the stream errors or
	 * closes before its end (a client that went away mid-body).
	 */
	async sink(source: NodeJS.ReadableStream, onBytes?: (bytes: number) => void): Promise<{ md5: string; size: number }> {
		const id = this.md5.open();
		let size = 0;
		source.on('data', (chunk: Buffer) => {
			size += chunk.length;
			onBytes?.(chunk.length);
			this.md5.update(id, chunk);
		});
		try {
			await finished(source);
		} catch (error) {
			this.md5.drop(id);
			throw error;
		}
		return { md5: await this.md5.digest(id), size };
	}

	/** Ends the MD5 worker of sink mode, if one was started. */
	async close(): Promise<void> {
		await this.md5.close();
	}

	/** Streams `source` into a temp file, returning its digests. */
	async writeStream(source: NodeJS.ReadableStream, onBytes?: (bytes: number) => void): Promise<{ tmpPath: string; sha256: string; md5: string; size: number }> {
		const tmpPath = this.tmpPath();
		const digest = new DigestStream(onBytes);
		try {
			await pipeline(source, digest, createWriteStream(tmpPath));
		} catch (error) {
			await rm(tmpPath, { force: true });
			throw error;
		}
		return { tmpPath, ...digest.digests(), size: digest.bytes };
	}

	/** Concatenates files (multipart parts) into one temp file by streaming. */
	async concatenate(paths: string[]): Promise<{ tmpPath: string; sha256: string; md5: string; size: number }> {
		const tmpPath = this.tmpPath();
		const digest = new DigestStream();
		const output = createWriteStream(tmpPath);
		try {
			digest.pipe(output);
			for (const path of paths) {
				for await (const chunk of createReadStream(path)) {
					if (!digest.write(chunk)) await once(digest, 'drain');
				}
			}
			digest.end();
			await new Promise<void>((resolve, reject) => {
				output.on('finish', resolve);
				output.on('error', reject);
			});
		} catch (error) {
			output.destroy();
			await rm(tmpPath, { force: true });
			throw error;
		}
		return { tmpPath, ...digest.digests(), size: digest.bytes };
	}
}
