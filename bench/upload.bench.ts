/**
 * Upload benchmark: the Document Extraction node inside the n8n engine against a raw streaming
 * client, in one run, against one emulator.
 *
 *   npm run bench:upload [-- --mib 1024 --part-mib 10 --concurrency 4 --files 500 --file-kib 100
 *                           --batch 8 --rounds 2]
 *
 * 1. Large file: a --mib MiB file through the node (Upload, Multipart Upload "Always", Part Size
 *    --part-mib, Part Concurrency --concurrency, Wait for Completion off) with the binary in n8n's
 *    filesystem binary storage, beside a raw client (node:http, each part streamed from the file
 *    with fs.createReadStream(start, end)) that sends the same initiation, the same parts with the
 *    same concurrency and the same completion. Measured: the client's wall time from the
 *    initiation request to the completion answer (for the node: the engine's run of
 *    Start -> Upload), and the parts phase as the emulator saw it (first part PUT arriving to last
 *    part PUT answered). Peak memory: each side runs in its own child process; its RSS when idle
 *    (engine loaded, binary stored, one warm-up upload done, after GC), then the kernel's peak RSS
 *    (VmHWM, reset just before the upload) minus that idle RSS.
 * 2. Small files: --files files of --file-kib KiB through the node (Upload, Batching: Items per
 *    Batch --batch, Wait for Completion off) beside the raw client doing POST /files/upload and
 *    the PUT for each file with --batch of them at a time. Measured: wall time of all uploads.
 *
 * The node's binaries are stored into n8n's filesystem binary storage by a separate process
 * before the measured process starts (as when an earlier execution stored them); a third large-file
 * row has the measured process store the 1 GiB itself just before (V8 then runs many more full
 * garbage collections; see docs/large-files.md). Every stored large file's SHA-256 is checked.
 *
 * The emulator runs in its own process with processing delay 0; between runs the benchmark waits
 * until its processing is idle. Sides alternate within each round; ratios are per round and the
 * median is reported. BENCH_CPU_PROFILE=dir writes a CPU profile of each measured run.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

import type { INodeParameters } from 'n8n-workflow';

const ROOT = join(__dirname, '..');
const MIB = 1024 * 1024;

function flag(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function text(name: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : '';
}

const SIZE_MIB = flag('mib', 1024);
const PART_MIB = flag('part-mib', 10);
const CONCURRENCY = flag('concurrency', 4);
const FILES = flag('files', 500);
const FILE_KIB = flag('file-kib', 100);
const BATCH = flag('batch', 8);
const ROUNDS = flag('rounds', 2);

// ---------------------------------------------------------------------------------------------
// Shared by the child processes

interface Target {
	api: string;
	key: string;
}

function target(): Target {
	return { api: text('api'), key: text('key') };
}

function memoryKiB(name: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync('/proc/self/status', 'utf8');
	return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
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

/**
 * Runs `work` and measures it: wall time, CPU time of this process, and the peak RSS above the
 * idle RSS measured just before. The emulator's request log is cleared first, so that it then
 * holds the measured requests only (not the warm-up).
 */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; gcSeconds: number; gcKinds: Record<string, { count: number; ms: number }>; idleMiB: number; peakAboveIdleMiB: number }> {
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
	resetPeak();
	const cpuBefore = process.cpuUsage();
	const started = process.hrtime.bigint();
	const result = await work();
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu = process.cpuUsage(cpuBefore);
	const peakMiB = memoryKiB('VmHWM') / 1024;
	await profile.stop();
	await new Promise((resolve) => setImmediate(resolve));
	gcObserver.disconnect();
	return { result, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, gcSeconds: gcMs / 1000, gcKinds, idleMiB, peakAboveIdleMiB: peakMiB - idleMiB };
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
			writeFileSync(join(dir, `${text('role')}-${process.pid}.cpuprofile`), JSON.stringify(profile));
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
	const file = text('file');
	const size = SIZE_MIB * MIB;
	const warm = join(text('dir'), 'warm-raw.bin');
	writeFileSync(warm, randomBytes(MIB));
	await rawMultipart(t, warm, MIB, 'warm-raw.bin');
	const run = await measured(async () => await rawMultipart(t, file, size, 'large-raw.bin'));
	report({ ...run, result: undefined, uploadId: run.result });
}

async function rawSmallRole(): Promise<void> {
	const t = target();
	const dir = text('dir');
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
	const stored = text('stored-items');
	if (stored) return JSON.parse(readFileSync(stored, 'utf8')) as Array<Awaited<ReturnType<typeof harness.createBinaryItem>>>;
	if (kind === 'large') {
		const input = await harness.createBinaryItem({ filePath: text('file'), mimeType: 'application/octet-stream', mode: 'filesystem' });
		input.binary!.data.fileName = 'large-node.bin';
		return [input];
	}
	const inputs = [];
	for (let index = 0; index < FILES; index++) {
		inputs.push(await harness.createBinaryItem({ filePath: join(text('dir'), `small-${index}.txt`), mimeType: 'text/plain', mode: 'filesystem' }));
	}
	return inputs;
}

async function nodeStoreRole(): Promise<void> {
	const { harness } = await engine();
	const kind = text('kind') as 'large' | 'small';
	const inputs = await nodeInputs(kind, harness);
	const path = join(text('dir'), `items-${kind}.json`);
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
	uploadId?: string;
}

function childEnv(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.N8N_HARNESS_USER_FOLDER;
	return env;
}

function runRole(role: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RoleResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--role', role, ...args, ...process.argv.slice(2)], {
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

async function startEmulator(): Promise<{ stop: () => void; api: string; key: string }> {
	const child = spawn(process.execPath, ['--import', 'tsx', 'test/emulator/cli.ts', '--port', '0', '--delay', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	return await new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const api = /API URL:\s+(\S+)/.exec(output)?.[1];
			const key = /API key:\s+(\S+)/.exec(output)?.[1];
			if (api && key && /Ctrl-C/.test(output)) resolve({ api, key, stop: () => child.kill('SIGINT') });
		});
		child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${output}`)));
	});
}

async function control(api: string, method: string, path: string): Promise<ApiJson> {
	const response = await fetch(`${api}/__emulator${path}`, { method });
	return await response.json();
}

/** First part PUT arriving to last part PUT answered, as the emulator logged them. */
async function partsPhaseSeconds(api: string): Promise<number> {
	const { requests } = await control(api, 'GET', '/requests?host=storage&method=PUT');
	const parts = (requests as Array<{ time: string; durationMs?: number; status: number }>).filter((entry) => entry.status === 200);
	const start = Math.min(...parts.map((entry) => Date.parse(entry.time)));
	const end = Math.max(...parts.map((entry) => Date.parse(entry.time) + (entry.durationMs ?? 0)));
	return (end - start) / 1000;
}

async function fileHashOf(api: string, key: string, uploadId: string): Promise<string | undefined> {
	const response = await fetch(`${api}/prod/v1/uploads/${uploadId}`, { headers: { 'x-api-key': key } });
	const status = (await response.json()) as ApiJson;
	return status.files?.[0]?.fileHash;
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

async function writeLargeFile(path: string, size: number): Promise<string> {
	const hash = createHash('sha256');
	const out = createWriteStream(path);
	for (let written = 0; written < size; written += MIB) {
		const chunk = randomBytes(Math.min(MIB, size - written));
		hash.update(chunk);
		if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
	}
	await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
	return hash.digest('hex');
}

async function orchestrate(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'upload-bench-'));
	const emulator = await startEmulator();
	const { api, key } = emulator;
	const common = ['--api', api, '--key', key, '--dir', dir];
	try {
		console.log(`Upload benchmark: Node ${process.version}, ${SIZE_MIB} MiB in ${PART_MIB} MiB parts x ${CONCURRENCY} concurrent; ${FILES} files of ${FILE_KIB} KiB, ${BATCH} at a time; ${ROUNDS} rounds`);
		const largeFile = join(dir, 'large.bin');
		const largeHash = await writeLargeFile(largeFile, SIZE_MIB * MIB);
		for (let index = 0; index < FILES; index++) {
			const line = `Invoice Number: S-${index}\nVendor Name: Vendor ${index % 7}\nTotal Amount: ${index}.00\n`;
			const filler = 'Note: filler line of a small scanned receipt.\n';
			const body = line + filler.repeat(Math.ceil((FILE_KIB * 1024 - line.length) / filler.length));
			writeFileSync(join(dir, `small-${index}.txt`), body.slice(0, FILE_KIB * 1024));
		}

		// The node's binaries are put into n8n's binary storage by a separate process, as when an
		// earlier execution or another node stored them; "node-same" stores the large file itself
		// just before uploading it (see docs/large-files.md).
		const storage = { N8N_HARNESS_USER_FOLDER: mkdtempSync(join(tmpdir(), 'upload-bench-n8n-')) };
		const largeItems = (await runRole('node-store', [...common, '--kind', 'large', '--file', largeFile], storage)) as unknown as { path: string };
		const smallItems = (await runRole('node-store', [...common, '--kind', 'small'], storage)) as unknown as { path: string };

		const largeSides = {
			raw: { label: 'raw client (node:http, part ranges streamed with fs)', role: 'raw-large', args: [], env: {} },
			node: { label: 'node in n8n engine, binary stored by an earlier process', role: 'node-large', args: ['--stored-items', largeItems.path], env: storage },
			'node-same': { label: 'node in n8n engine, binary stored by the same process just before', role: 'node-large', args: [], env: {} },
		};
		type LargeSide = keyof typeof largeSides;
		const large: Record<LargeSide, Array<RoleResult & { partsSeconds: number }>> = { raw: [], node: [], 'node-same': [] };
		const small: Record<'raw' | 'node', RoleResult[]> = { raw: [], node: [] };
		for (let round = 0; round < ROUNDS; round++) {
			for (const side of Object.keys(largeSides) as LargeSide[]) {
				const { role, args, env } = largeSides[side];
				await control(api, 'GET', '/idle');
				const result = await runRole(role, [...common, '--file', largeFile, ...args], env);
				const partsSeconds = await partsPhaseSeconds(api);
				await control(api, 'GET', '/idle');
				const hash = await fileHashOf(api, key, result.uploadId ?? '');
				if (hash !== largeHash) throw new Error(`${side}: the stored file's hash ${hash} differs from the source's ${largeHash}`);
				large[side].push({ ...result, partsSeconds });
				console.log(`round ${round + 1} large ${side}: ${result.seconds.toFixed(2)} s (cpu ${result.cpuSeconds.toFixed(2)} s, gc ${result.gcSeconds.toFixed(2)} s), parts ${partsSeconds.toFixed(2)} s, peak +${result.peakAboveIdleMiB.toFixed(0)} MiB over ${result.idleMiB.toFixed(0)} MiB idle`);
			}
			for (const side of ['raw', 'node'] as const) {
				await control(api, 'GET', '/idle');
				const result = await runRole(`${side}-small`, [...common, ...(side === 'node' ? ['--stored-items', smallItems.path] : [])], side === 'node' ? storage : {});
				small[side].push(result);
				console.log(`round ${round + 1} small ${side}: ${result.seconds.toFixed(2)} s (cpu ${result.cpuSeconds.toFixed(2)} s)`);
			}
		}

		const mibps = (seconds: number) => SIZE_MIB / seconds;
		const ratio = (side: LargeSide, of: 'seconds' | 'partsSeconds') =>
			median(large[side].map((run, index) => large.raw[index][of] / run[of]));
		table(
			`1. ${SIZE_MIB} MiB multipart upload, ${PART_MIB} MiB parts, ${CONCURRENCY} at a time (median of ${ROUNDS} rounds)`,
			['client', 'MiB/s initiate..complete', 'of raw', 'MiB/s parts phase', 'of raw', 'idle RSS MiB', 'peak RSS above idle MiB (max)'],
			(Object.keys(largeSides) as LargeSide[]).map((side) => [
				largeSides[side].label,
				median(large[side].map((run) => mibps(run.seconds))),
				ratio(side, 'seconds'),
				median(large[side].map((run) => mibps(run.partsSeconds))),
				ratio(side, 'partsSeconds'),
				median(large[side].map((run) => run.idleMiB)),
				Math.max(...large[side].map((run) => run.peakAboveIdleMiB)),
			]),
		);
		const smallRatio = median(small.node.map((run, index) => run.seconds / small.raw[index].seconds));
		table(
			`2. ${FILES} files of ${FILE_KIB} KiB, ${BATCH} at a time (median of ${ROUNDS} rounds)`,
			['client', 'wall time s', 'files/s', 'time of raw'],
			(['raw', 'node'] as const).map((side) => [
				side === 'raw' ? 'raw client (POST /files/upload + PUT, keep-alive)' : `node in n8n engine, Batching: ${BATCH} items per batch`,
				median(small[side].map((run) => run.seconds)),
				FILES / median(small[side].map((run) => run.seconds)),
				side === 'raw' ? 1 : smallRatio,
			]),
		);
		const memoryBudget = PART_MIB * CONCURRENCY + 150;
		const nodePeak = Math.max(...large.node.map((run) => run.peakAboveIdleMiB), ...large['node-same'].map((run) => run.peakAboveIdleMiB));
		const throughputRatio = ratio('node', 'seconds');
		const partsRatio = ratio('node', 'partsSeconds');
		table('Targets', ['measure', 'target', 'measured', 'met'], [
			['large file: node / raw throughput, initiate..complete', '>= 0.90', throughputRatio, throughputRatio >= 0.9 ? 'yes' : 'no'],
			['large file: node / raw throughput, parts phase', '>= 0.90', partsRatio, partsRatio >= 0.9 ? 'yes' : 'no'],
			['large file: node peak RSS above idle, MiB (both node rows)', `<= ${PART_MIB} x ${CONCURRENCY} + 150 = ${memoryBudget}`, nodePeak, nodePeak <= memoryBudget ? 'yes' : 'no'],
			['small files: node / raw wall time', '<= 1.30', smallRatio, smallRatio <= 1.3 ? 'yes' : 'no'],
		]);
		const perRound = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
		console.log(`\nPer round: large node/raw throughput ${perRound(large.node.map((run, index) => large.raw[index].seconds / run.seconds))}; node-same/raw ${perRound(large['node-same'].map((run, index) => large.raw[index].seconds / run.seconds))}; small node/raw time ${perRound(small.node.map((run, index) => run.seconds / small.raw[index].seconds))}`);
		rmSync(storage.N8N_HARNESS_USER_FOLDER, { recursive: true, force: true });
	} finally {
		emulator.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

const roles: Record<string, () => Promise<void>> = {
	'node-store': nodeStoreRole,
	'raw-large': rawLargeRole,
	'raw-small': rawSmallRole,
	'node-large': nodeLargeRole,
	'node-small': nodeSmallRole,
};

const role = text('role');
(role ? roles[role]() : orchestrate())
	.then(() => {
		rawAgent.destroy();
		if (role) process.exit(0);
	})
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
