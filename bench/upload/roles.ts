/** The upload benchmark's child processes (bench/upload.bench.ts --role <name>): each runs one side once, warmed up, measured (measure.ts), and prints its RESULT line. */
import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { textFlag } from '../args';
import { BATCH, CONCURRENCY, FILES, MIB, PART_MIB, SIZE_BYTES } from './flags';
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
 * n8n's own HTTP helper without our node: the same initiation, parts and completion, but each
 * part read with fs into one of (concurrency + 1) reused buffers and PUT through the helper that
 * n8n gives nodes (this.helpers.httpRequest, i.e. n8n's OutboundHttp), in this engine process.
 * No node could do better while it must use that helper; the gap to raw here is n8n's, the gap
 * above it ours.
 */
async function helperLargeRole(): Promise<void> {
	await import('../../test/harness');
	const { Container } = await import('@n8n/di');
	// required, not imported: the package's export map points tsx's ESM loader at its TypeScript sources
	const { OutboundHttp } = createRequire(__filename)('@n8n/backend-network') as typeof import('@n8n/backend-network');
	const http = Container.get(OutboundHttp).requests();
	const t = target();
	const file = textFlag('file');
	const { open } = await import('node:fs/promises');
	const send = async (path: string, size: number, name: string): Promise<string> => {
		const init = await rawApi(t, '/files/upload/multipart', { fileName: name, fileType: 'application/octet-stream', isSplit: false, schemaLocking: false, fileSize: size / MIB, partSizeLimit: PART_MIB });
		const handle = await open(path, 'r');
		const free: Buffer[] = Array.from({ length: CONCURRENCY + 1 }, () => Buffer.allocUnsafeSlow(PART_MIB * MIB));
		const parts: Array<{ partNumber: number; eTag: string }> = [];
		try {
			await pool(init.presignedUrls.length, CONCURRENCY, async (index) => {
				const part = init.presignedUrls[index];
				const buffer = free.pop() as Buffer;
				try {
					const { bytesRead } = await handle.read(buffer, 0, part.size, part.startByte);
					const answer = (await http.request({
						method: 'PUT',
						url: part.presignedUrl,
						body: buffer.subarray(0, bytesRead),
						headers: { 'Content-Length': String(bytesRead) },
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						encoding: 'text',
						disableFollowRedirect: true,
					})) as { statusCode: number; headers: Record<string, string> };
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
	const harness = await import('../../test/harness');
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
