/** The upload benchmark's child processes (bench/upload.bench.ts --role <name>): each runs one side once, warmed up, measured (measure.ts), and prints its RESULT line. */
import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { IHttpRequestOptions, INodeParameters } from 'n8n-workflow';

import { UPLOAD_LIMITS } from '../../nodes/shared/limits';
import { textFlag } from '../args';
import { BATCH, CONCURRENCY, FILES, HELPER_READ, MIB, PART_MIB, SIZE_BYTES } from './flags';
import { measured, report, target } from './measure';
import { pool, rawApi, rawMultipart, rawPut, rawSingle } from './raw-client';

async function rawLargeRole(): Promise<void> {
	const t = target();
	const file = textFlag('file');
	const warm = join(textFlag('dir'), 'warm-raw.bin');
	writeFileSync(warm, randomBytes(MIB));
	await rawMultipart(t, warm, MIB, 'warm-raw.bin');
	const run = await measured(async () => await rawMultipart(t, file, SIZE_BYTES, 'large-raw.bin'));
	report({ ...run, result: undefined, uploadId: run.result });
}

/**
 * n8n's HTTP helper without our node: the same initiation, the same part PUTs (the ranges the
 * initiation gave, the same concurrency) and the same completion, each part read with fs into one
 * of (concurrency + 1) reused buffers and PUT through n8n-core's `httpRequest` helper, the function
 * that n8n puts into every node's `this.helpers` (getRequestHelperFunctions, in this engine
 * process), with the request our transport gives it for a part: the part's bytes as a Buffer,
 * Content-Length, no JSON, the answer as a stream (read to its end), full response, no redirects,
 * an abort signal. No node could do better while it must use that helper; the gap to raw here is
 * n8n's, the gap above it ours.
 */
function n8nHttpRequestHelper(): (options: IHttpRequestOptions) => Promise<unknown> {
	// The factory by its file: n8n-core's export map does not list it. It is what the engine calls
	// to build this.helpers; httpRequest uses only additionalData's eval mock and tracing hooks.
	const core = join(dirname(createRequire(__filename).resolve('n8n-core')), 'execution-engine/node-execution-context/utils/request-helpers/factory.js');
	const { getRequestHelperFunctions } = createRequire(__filename)(core) as {
		getRequestHelperFunctions: (workflow: unknown, node: unknown, additionalData: unknown) => { httpRequest: (options: IHttpRequestOptions) => Promise<unknown> };
	};
	return getRequestHelperFunctions({}, { name: 'HTTP helper alone', type: 'bench' }, {}).httpRequest;
}

/**
 * --helper-read stream: the helper row's parts come from n8n's binary stream of the stored file
 * (getAsStream with the node's reads, UPLOAD_LIMITS.storageReadChunkBytes), in order, copied into the reused part buffers as
 * the node does, but without freeing the read buffers: what any node reading n8n's binary data
 * pays for those buffers, without our code. --helper-read stream-free frees each read once copied
 * (ArrayBuffer.prototype.transfer(0)), as the node does on Node 22+: the node's read side without
 * the rest of the node.
 */
async function storedBinaryReader(free: boolean): Promise<{ read: (into: Buffer, size: number) => Promise<{ bytesRead: number }> }> {
	const [item] = JSON.parse(readFileSync(textFlag('stored-items'), 'utf8')) as Array<{ binary: { data: { id: string } } }>;
	const { getBinaryDataService } = await import('../../dev/harness');
	const service = await getBinaryDataService('filesystem');
	const chunks = (await service.getAsStream(item.binary.data.id, UPLOAD_LIMITS.storageReadChunkBytes))[Symbol.asyncIterator]();
	let pending: Buffer = Buffer.alloc(0);
	let queue: Promise<unknown> = Promise.resolve();
	return {
		read: (into, size) => {
			const result = queue.then(async () => {
				let filled = 0;
				while (filled < size) {
					if (pending.length === 0) {
						const next = await chunks.next();
						if (next.done) throw new Error(`the stored binary ended after ${filled} bytes of a part`);
						pending = next.value as Buffer;
					}
					const taken = Math.min(size - filled, pending.length);
					pending.copy(into, filled, 0, taken);
					pending = pending.subarray(taken);
					filled += taken;
					if (pending.length === 0 && free) (pending.buffer as ArrayBuffer & { transfer: (length: number) => ArrayBuffer }).transfer(0);
				}
				return { bytesRead: filled };
			});
			queue = result.catch(() => undefined);
			return result;
		},
	};
}

async function helperLargeRole(): Promise<void> {
	await import('../../dev/harness');
	const httpRequest = n8nHttpRequestHelper();
	const t = target();
	const file = textFlag('file');
	const { open } = await import('node:fs/promises');
	const send = async (path: string, size: number, name: string): Promise<string> => {
		const init = await rawApi(t, '/files/upload/multipart', { fileName: name, fileType: 'application/octet-stream', isSplit: false, schemaLocking: false, fileSize: size / MIB, partSizeLimit: PART_MIB });
		const handle = await open(path, 'r');
		const free: Buffer[] = Array.from({ length: CONCURRENCY + 1 }, () => Buffer.allocUnsafeSlow(PART_MIB * MIB));
		const parts: Array<{ partNumber: number; eTag: string }> = [];
		const fromStore = HELPER_READ !== 'fs' && size === SIZE_BYTES ? await storedBinaryReader(HELPER_READ === 'stream-free') : undefined;
		try {
			await pool(init.presignedUrls.length, CONCURRENCY, async (index) => {
				const part = init.presignedUrls[index];
				const buffer = free.pop() as Buffer;
				try {
					const { bytesRead } = fromStore ? await fromStore.read(buffer, part.size) : await handle.read(buffer, 0, part.size, part.startByte);
					const answer = (await httpRequest({
						method: 'PUT',
						url: part.presignedUrl,
						body: buffer.subarray(0, bytesRead),
						headers: { 'Content-Length': String(bytesRead) },
						json: false,
						encoding: 'stream',
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						disableFollowRedirect: true,
						abortSignal: new AbortController().signal,
					})) as { statusCode: number; headers: Record<string, string>; body: AsyncIterable<Buffer> };
					for await (const chunk of answer.body) void chunk;
					if (answer.statusCode !== 200) throw new Error(`part ${part.partNumber}: ${answer.statusCode}`);
					parts[index] = { partNumber: part.partNumber, eTag: answer.headers.etag };
				} finally {
					free.push(buffer);
				}
			});
		} finally {
			await handle.close();
		}
		await rawApi(t, '/files/upload/multipart/complete', { id: init.id, key: init.key, parts });
		return init.uploadId;
	};
	const warm = join(textFlag('dir'), 'warm-helper.bin');
	writeFileSync(warm, randomBytes(MIB));
	await send(warm, MIB, 'warm-helper.bin');
	const run = await measured(async () => await send(file, SIZE_BYTES, 'large-helper.bin'));
	report({ ...run, result: undefined, uploadId: run.result });
}

/** The storage ceiling: the raw client's part PUTs, same ranges and concurrency, to a bare server that only counts bytes. */
async function rawBareRole(): Promise<void> {
	const file = textFlag('file');
	const bare = textFlag('bare');
	const partBytes = PART_MIB * MIB;
	const count = Math.ceil(SIZE_BYTES / partBytes);
	const send = async (index: number) => {
		const start = index * partBytes;
		const end = Math.min(SIZE_BYTES, start + partBytes) - 1;
		await rawPut(`${bare}/part/${index + 1}`, end - start + 1, () => createReadStream(file, { start, end }));
	};
	await send(0);
	const run = await measured(async () => await pool(count, CONCURRENCY, send));
	report({ ...run, result: undefined });
}

/** A bare node:http server that reads and counts PUT bodies and answers 200 (the storage ceiling). */
export function bareServerRole(): void {
	const server = createServer((req, res) => {
		let bytes = 0;
		req.on('data', (chunk: Buffer) => (bytes += chunk.length));
		req.on('end', () => {
			res.writeHead(200, { etag: `"${bytes}"`, 'content-length': 0 });
			res.end();
		});
	});
	server.keepAliveTimeout = 65000;
	server.listen(0, '127.0.0.1', () => console.log(`BARE http://127.0.0.1:${(server.address() as { port: number }).port}`));
	process.on('SIGTERM', () => process.exit(0));
}

async function rawSmallRole(): Promise<void> {
	const t = target();
	const dir = textFlag('dir');
	const names = Array.from({ length: FILES }, (_, index) => `small-${index}.txt`);
	await pool(BATCH, BATCH, async (index) => await rawSingle(t, join(dir, names[index]), `warm-${names[index]}`));
	const run = await measured(async () => await pool(names.length, BATCH, async (index) => await rawSingle(t, join(dir, names[index]), names[index])));
	report({ ...run, result: undefined });
}

// ---------------------------------------------------------------------------------------------
// The node in the n8n engine (filesystem binary mode)

async function engine() {
	const harness = await import('../../dev/harness');
	const t = target();
	const credentials = { documentExtractionApi: { apiKey: t.key, instance: 'default', baseUrl: t.api } };
	const run = async (inputItems: Awaited<ReturnType<typeof harness.createBinaryItem>>[], uploadOptions: Record<string, unknown>) => {
		const result = await harness.runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', waitForCompletion: false, options: uploadOptions as INodeParameters },
			credentials,
			inputItems,
			binaryDataMode: 'filesystem',
		});
		if (result.error) throw result.error;
		return result.items;
	};
	return { harness, run };
}

/**
 * The input items of the node. With --stored-items, items that an earlier process put into the
 * shared binary storage folder (N8N_HARNESS_USER_FOLDER): the measured process has then not itself
 * just streamed the file into storage (see docs/large-files.md on why that matters). Without it,
 * this process stores them first.
 */
async function nodeInputs(kind: 'large' | 'small', harness: Awaited<ReturnType<typeof engine>>['harness']) {
	const stored = textFlag('stored-items');
	if (stored) return JSON.parse(readFileSync(stored, 'utf8')) as Array<Awaited<ReturnType<typeof harness.createBinaryItem>>>;
	if (kind === 'large') {
		const input = await harness.createBinaryItem({ filePath: textFlag('file'), mimeType: 'application/octet-stream', mode: 'filesystem' });
		input.binary!.data.fileName = 'large-node.bin';
		return [input];
	}
	const inputs = [];
	for (let index = 0; index < FILES; index++) {
		inputs.push(await harness.createBinaryItem({ filePath: join(textFlag('dir'), `small-${index}.txt`), mimeType: 'text/plain', mode: 'filesystem' }));
	}
	return inputs;
}

async function nodeStoreRole(): Promise<void> {
	const { harness } = await engine();
	const kind = textFlag('kind') as 'large' | 'small';
	const inputs = await nodeInputs(kind, harness);
	const path = join(textFlag('dir'), `items-${kind}.json`);
	writeFileSync(path, JSON.stringify(inputs));
	report({ path });
}

async function nodeLargeRole(): Promise<void> {
	const { harness, run } = await engine();
	const uploadOptions = { multipart: 'always', partSize: PART_MIB, partConcurrency: CONCURRENCY };
	const warm = await harness.createBinaryItem({ buffer: randomBytes(MIB), fileName: 'warm-node.bin', mimeType: 'application/octet-stream', mode: 'filesystem' });
	await run([warm], uploadOptions);
	const inputs = await nodeInputs('large', harness);
	const measuredRun = await measured(async () => await run(inputs, uploadOptions));
	const [item] = measuredRun.result;
	if (item.json.status !== 'uploaded') throw new Error(`unexpected output ${JSON.stringify(item.json)}`);
	report({ ...measuredRun, result: undefined, uploadId: item.json.uploadId });
}

async function nodeSmallRole(): Promise<void> {
	const { harness, run } = await engine();
	const uploadOptions = { batching: { batch: { batchSize: BATCH } } };
	const inputs = await nodeInputs('small', harness);
	await run(inputs.slice(0, BATCH), uploadOptions);
	const measuredRun = await measured(async () => await run(inputs, uploadOptions));
	if (measuredRun.result.length !== FILES || measuredRun.result.some((item, index) => item.json.fileName !== `small-${index}.txt`)) {
		throw new Error('the node did not output one item per file in input order');
	}
	report({ ...measuredRun, result: undefined });
}


export const roles: Record<string, () => Promise<void>> = {
	'node-store': nodeStoreRole,
	'raw-large': rawLargeRole,
	'helper-large': helperLargeRole,
	'raw-bare': rawBareRole,
	'raw-small': rawSmallRole,
	'node-large': nodeLargeRole,
	'node-small': nodeSmallRole,
};
