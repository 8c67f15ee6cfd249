/** Uploaded bytes live on disk under dataDir; nothing is held in memory whole. */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newUuid } from './ids';
import type { EmulatorState } from './state';
import type { StoredObject } from './types';

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
