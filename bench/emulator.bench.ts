/**
 * Emulator benchmark: small requests per second on loopback (against a bare Node HTTP server
 * measured in the same run as the baseline) and 1 GiB streamed uploads (single PUT and
 * multipart) with the emulator's resident memory sampled throughout.
 *
 *   npm run bench:emulator [-- --seconds 5 --concurrency 32 --upload-mib 1024 --skip-upload]
 *
 * The emulator and the baseline each run in their own process (node --import tsx), so the load
 * generator does not share their event loop; memory figures are that process's RSS from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { numberFlag } from './args';
import { printTable } from './table';

const ROOT = join(__dirname, '..');
const MIB = 1024 * 1024;

const SECONDS = numberFlag('seconds', 5);
const CONCURRENCY = numberFlag('concurrency', 32);
const SLICES = 5;
const UPLOAD_MIB = numberFlag('upload-mib', 1024);
const SKIP_UPLOAD = process.argv.includes('--skip-upload');

interface Server {
	child: ChildProcess;
	url: string;
	key: string;
}

function startProcess(args: string[], ready: RegExp): Promise<{ child: ChildProcess; output: string; match: RegExpExecArray }> {
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	return new Promise((resolve, reject) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = ready.exec(output);
			if (match) resolve({ child, output, match });
		});
		child.on('exit', (code) => reject(new Error(`process exited with ${code}: ${output}`)));
	});
}

async function startEmulatorProcess(): Promise<Server> {
	const { child, output, match } = await startProcess(['--import', 'tsx', 'dev/emulator/cli.ts', '--port', '0', '--delay', '0'], /API URL:\s+(\S+)[\s\S]*Ctrl-C/);
	const key = /API key:\s+(\S+)/.exec(output)?.[1] ?? '';
	return { child, url: match[1], key };
}

/** The floor: a bare node:http server answering a fixed small JSON body. */
async function startBaselineProcess(): Promise<Server> {
	const script = `
		const http = require('node:http');
		const body = JSON.stringify({ subscription: { id: 'x', workspaceId: 'y', subscriptionPlan: 'BUSINESS', importCount: 0 } });
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
		});
		server.keepAliveTimeout = 65000;
		server.listen(0, '127.0.0.1', () => console.log('LISTENING http://127.0.0.1:' + server.address().port));
	`;
	const { child, match } = await startProcess(['-e', script], /LISTENING (\S+)/);
	return { child, url: match[1], key: 'unused' };
}

function rssOf(pid: number): { rssMiB: number; peakMiB: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
	return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

interface Load {
	method: string;
	path: string;
	body?: string;
}

function once(agent: Agent, base: string, key: string, load: Load): Promise<number> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = { 'x-api-key': key };
		if (load.body !== undefined) {
			headers['content-type'] = 'application/json';
			headers['content-length'] = Buffer.byteLength(load.body);
		}
		const req = request(`${base}${load.path}`, { method: load.method, agent, headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(load.body);
	});
}

interface Slice {
	requests: number;
	seconds: number;
	errors: number;
	latencies: number[];
}

async function throughputFor(server: Server, load: Load, seconds: number): Promise<Slice> {
	const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
	const latencies: number[] = [];
	let errors = 0;
	// warm-up: open the sockets
	await Promise.all(Array.from({ length: CONCURRENCY }, () => once(agent, server.url, server.key, load)));
	const deadline = Date.now() + seconds * 1000;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (Date.now() < deadline) {
				const begin = process.hrtime.bigint();
				const status = await once(agent, server.url, server.key, load);
				latencies.push(Number(process.hrtime.bigint() - begin) / 1e6);
				if (status >= 300) errors += 1;
			}
		}),
	);
	const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
	agent.destroy();
	return { requests: latencies.length, seconds: elapsed, errors, latencies };
}

/** API replies are read loosely: the benchmark only follows ids and statuses. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ApiJson = any;

async function api(server: Server, method: string, path: string, body?: unknown): Promise<ApiJson> {
	const response = await fetch(`${server.url}/prod/v1${path}`, {
		method,
		headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = await response.json();
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
	return json;
}

/** A stream of `size` bytes produced on the fly (never held whole). */
function generated(size: number): Readable {
	const chunk = Buffer.alloc(MIB, 'emulator-benchmark-'.repeat(4));
	let remaining = size;
	return new Readable({
		read() {
			if (remaining <= 0) {
				this.push(null);
				return;
			}
			const next = remaining >= chunk.length ? chunk : chunk.subarray(0, remaining);
			remaining -= next.length;
			this.push(next);
		},
	});
}

function put(url: string, size: number): Promise<{ status: number; etag: string }> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method: 'PUT', headers: { 'content-length': size, 'content-type': 'application/octet-stream' } }, (res) => {
			res.resume();
			res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? '') }));
		});
		req.on('error', reject);
		generated(size).pipe(req);
	});
}

async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; seconds: number; maxSampledMiB: number }> {
	let maxSampledMiB = rssOf(pid).rssMiB;
	const timer = setInterval(() => {
		maxSampledMiB = Math.max(maxSampledMiB, rssOf(pid).rssMiB);
	}, 50);
	const started = process.hrtime.bigint();
	try {
		const result = await work();
		return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9, maxSampledMiB };
	} finally {
		clearInterval(timer);
	}
}

async function waitProcessed(server: Server, uploadId: string): Promise<string> {
	for (;;) {
		const status = await api(server, 'GET', `/uploads/${uploadId}`);
		const file = status.files[0];
		if (file && (file.status === 'processed' || file.status === 'failed')) return file.status;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

const table = (title: string, header: string[], rows: Array<Array<string | number>>) =>
	printTable(title, header, rows, { format: (cell) => (Number.isInteger(cell) || cell >= 100 ? cell.toFixed(0) : cell.toFixed(1)) });

async function main(): Promise<void> {
	console.log(`Emulator benchmark: ${SECONDS} s per row (in ${SLICES} slices interleaved with the baseline), ${CONCURRENCY} concurrent keep-alive connections, Node ${process.version}`);
	const baseline = await startBaselineProcess();
	const emulator = await startEmulatorProcess();
	try {
		// a few processed files so the list and query have data
		for (let index = 0; index < 20; index++) {
			const upload = await api(emulator, 'POST', '/files/upload', { fileName: `seed-${index}.txt`, fileType: 'text/plain' });
			const body = `Invoice Number: B-${index}\nVendor Name: Vendor ${index % 3}\nTotal Amount: ${index * 10}\n`;
			await fetch(upload.presignedUploadURL, { method: 'PUT', body });
			await waitProcessed(emulator, upload.uploadId);
		}
		const loads: Array<[string, Server, Load]> = [
			['baseline: bare node:http, fixed JSON', baseline, { method: 'GET', path: '/' }],
			['GET /subscription', emulator, { method: 'GET', path: '/prod/v1/subscription' }],
			['GET /files?limit=10', emulator, { method: 'GET', path: '/prod/v1/files?limit=10' }],
			['GET /uploads/{id} (404 problem+json)', emulator, { method: 'GET', path: '/prod/v1/uploads/00000000-0000-4000-8000-000000000000' }],
			['POST /query/execute (skipCache)', emulator, { method: 'POST', path: '/prod/v1/query/execute', body: JSON.stringify({ queryConfig: { selectedFields: [{ field: 'Vendor Name' }], filters: [{ field: 'Total Amount', operator: 'gte', value: 50 }] }, options: { skipCache: true } }) }],
		];
		// warm the load generator (JIT, sockets) before anything is measured
		await throughputFor(baseline, loads[0][2], 1);
		// Each emulator row is measured in slices interleaved with slices of the baseline, so the
		// ratio compares the two under the same machine load (these machines are shared and noisy).
		const rows: Array<Array<string | number>> = [];
		const baselineSlices: Array<{ requests: number; seconds: number }> = [];
		for (const [name, server, load] of loads.slice(1)) {
			const rowSlices: Awaited<ReturnType<typeof throughputFor>>[] = [];
			const baseSlices: Awaited<ReturnType<typeof throughputFor>>[] = [];
			for (let slice = 0; slice < SLICES; slice++) {
				baseSlices.push(await throughputFor(baseline, loads[0][2], SECONDS / SLICES));
				rowSlices.push(await throughputFor(server, load, SECONDS / SLICES));
			}
			const rps = (slices: typeof rowSlices) => slices.reduce((sum, item) => sum + item.requests, 0) / slices.reduce((sum, item) => sum + item.seconds, 0);
			baselineSlices.push(...baseSlices.map((item) => ({ requests: item.requests, seconds: item.seconds })));
			const rowRps = rps(rowSlices);
			const latencies = rowSlices.flatMap((item) => item.latencies).sort((left, right) => left - right);
			rows.push([
				name,
				rowRps,
				`${((rowRps / rps(baseSlices)) * 100).toFixed(0)} %`,
				latencies[Math.floor(latencies.length * 0.5)],
				latencies[Math.floor(latencies.length * 0.99)],
				rowSlices.reduce((sum, item) => sum + item.errors, 0),
			]);
		}
		const baselineRps = baselineSlices.reduce((sum, item) => sum + item.requests, 0) / baselineSlices.reduce((sum, item) => sum + item.seconds, 0);
		rows.unshift([loads[0][0], baselineRps, '100 %', '', '', 0]);
		table('Small requests on loopback (target >= 2000 req/s)', ['request', 'req/s', 'of baseline', 'p50 ms', 'p99 ms', 'non-2xx'], rows);

		if (!SKIP_UPLOAD) {
			const pid = emulator.child.pid as number;
			const size = UPLOAD_MIB * MIB;
			const idle = rssOf(pid).rssMiB;
			const uploadRows: Array<Array<string | number>> = [];

			const single = await api(emulator, 'POST', '/files/upload', { fileName: 'big.bin', fileType: 'application/octet-stream' });
			const singleRun = await sampled(pid, async () => {
				const reply = await put(single.presignedUploadURL, size);
				if (reply.status !== 200) throw new Error(`PUT answered ${reply.status}`);
				return waitProcessed(emulator, single.uploadId);
			});
			uploadRows.push([`single PUT ${UPLOAD_MIB} MiB + processing`, singleRun.result, singleRun.seconds, UPLOAD_MIB / singleRun.seconds, idle, singleRun.maxSampledMiB, rssOf(pid).peakMiB]);

			const partMiB = 64;
			const init = await api(emulator, 'POST', '/files/upload/multipart', { fileName: 'big-multipart.bin', fileType: 'application/octet-stream', fileSize: UPLOAD_MIB, partSizeLimit: partMiB });
			const multiRun = await sampled(pid, async () => {
				const parts = [];
				for (const part of init.presignedUrls) {
					const reply = await put(part.presignedUrl, part.size);
					if (reply.status !== 200) throw new Error(`part ${part.partNumber} answered ${reply.status}`);
					parts.push({ partNumber: part.partNumber, eTag: reply.etag });
				}
				await api(emulator, 'POST', '/files/upload/multipart/complete', { id: init.id, key: init.key, parts });
				return waitProcessed(emulator, init.uploadId);
			});
			uploadRows.push([`multipart ${UPLOAD_MIB} MiB (${init.totalParts} x ${partMiB} MiB) + assembly`, multiRun.result, multiRun.seconds, UPLOAD_MIB / multiRun.seconds, idle, multiRun.maxSampledMiB, rssOf(pid).peakMiB]);
			table(
				'Streamed uploads (emulator process memory; flat = max RSS stays near idle RSS)',
				['upload', 'file status', 'seconds', 'MiB/s', 'idle RSS MiB', 'max RSS MiB (sampled)', 'peak RSS MiB (VmHWM)'],
				uploadRows,
			);
		}
	} finally {
		baseline.child.kill('SIGTERM');
		emulator.child.kill('SIGINT');
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
