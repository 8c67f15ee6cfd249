/**
 * A local npm registry for the install-as-users-do test (test/registry): verdaccio from the npm
 * registry, installed into the same cache as n8n (never into the repository), run on 127.0.0.1
 * with its storage in a temp folder and no uplinks (it serves only what is published to it).
 *
 * - ensureVerdaccio(): `npm install verdaccio@VERDACCIO_VERSION` into <cache>/verdaccio-<version>/ (once; a marker).
 * - startVerdaccio(): a fresh registry with a user, its token and an npmrc for `npm publish`.
 * - packPackage() / publishPackage(): `npm pack` of this repository, optionally with another
 *   version written into the packed package.json (never into the repository's), then `npm publish`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort } from '../n8n-env';
import { ensureCachedTool } from '../cached-tool';
import { runCommand as run } from '../run-command';
import { ensureN8n } from '../n8n-runtime';

export const VERDACCIO_VERSION = '6.10.4';
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface Registry {
	/** http://127.0.0.1:<port> (no trailing slash) */
	url: string;
	/** A user's token: publishing needs one. */
	token: string;
	/** An npmrc with the token, for `npm --userconfig`. */
	npmrc: string;
	/** The temp folder with config, storage and logs. */
	dir: string;
	logs(): string;
	stop(): Promise<void>;
}

/** Installs verdaccio into the cache on first use; returns its bin script. Seconds once cached, about a minute the first time. */
export async function ensureVerdaccio(log: (line: string) => void = (line) => process.stderr.write(`[verdaccio] ${line}\n`)): Promise<string> {
	const entry = path.join('node_modules', 'verdaccio', 'bin', 'verdaccio');
	// verdaccio asks for node-fetch by the dist-tag "cjs", which this registry does not carry: 2.7.0 is what it names.
	const manifest = { dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch': '2.7.0' } };
	const dir = await ensureCachedTool({ folder: `verdaccio-${VERDACCIO_VERSION}`, manifest, entry }, log);
	return path.join(dir, entry);
}

export async function startVerdaccio(options: { port?: number } = {}): Promise<Registry> {
	const bin = await ensureVerdaccio();
	const port = options.port ?? (await freePort());
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-verdaccio-'));
	const url = `http://127.0.0.1:${port}`;
	const config = [
		`storage: ${path.join(dir, 'storage')}`,
		'auth:',
		'  htpasswd:',
		`    file: ${path.join(dir, 'htpasswd')}`,
		'    max_users: 10',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		'web:',
		'  enable: false',
		'log: { type: stdout, format: pretty, level: http }',
		'',
	].join('\n');
	const configFile = path.join(dir, 'config.yaml');
	fs.writeFileSync(configFile, config);
	const logFile = path.join(dir, 'verdaccio.log');
	const logStream = fs.createWriteStream(logFile);
	// verdaccio 6.10 wants Node 22+: the Node 24 that n8n 2.x runs on (already in the cache).
	const { nodeBin } = await ensureN8n();
	const child: ChildProcess = spawn(nodeBin, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], {
		cwd: dir,
		env: { ...process.env, NODE_ENV: 'production' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stdout?.pipe(logStream, { end: false });
	child.stderr?.pipe(logStream, { end: false });
	let exited = false;
	child.on('exit', () => (exited = true));
	const logs = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');

	const deadline = Date.now() + 60_000;
	for (;;) {
		if (exited) throw new Error(`verdaccio exited at start:\n${logs().slice(-3000)}`);
		try {
			if ((await fetch(`${url}/-/ping`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`verdaccio did not answer /-/ping within 60 s:\n${logs().slice(-3000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}

	// What `npm adduser` does: PUT /-/user/org.couchdb.user:<name> answers with a token.
	const user = { name: 'publisher', password: 'local-registry-only-2026' };
	const answer = await fetch(`${url}/-/user/org.couchdb.user:${user.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ _id: `org.couchdb.user:${user.name}`, name: user.name, password: user.password, type: 'user', roles: [] }),
	});
	const body = (await answer.json()) as { token?: string };
	if (!answer.ok || !body.token) throw new Error(`verdaccio refused the user (${answer.status}): ${JSON.stringify(body)}`);
	const npmrc = path.join(dir, 'npmrc');
	fs.writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${body.token}\n`);

	return {
		url,
		token: body.token,
		npmrc,
		dir,
		logs,
		async stop() {
			if (!exited) {
				const gone = new Promise((resolve) => child.once('exit', resolve));
				child.kill('SIGTERM');
				const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
				await gone;
				clearTimeout(timer);
			}
			logStream.end();
			if (!process.env.E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

export interface PackedPackage {
	name: string;
	version: string;
	/** The unpacked package folder (what `npm publish <folder>` sends). */
	dir: string;
}

/**
 * `npm pack` of the (already built) repository, unpacked into a temp folder; with `version`,
 * that folder's package.json gets it, and its publishConfig is dropped (the repository's
 * package.json is not touched).
 */
export async function packPackage(options: { version?: string; packageDir?: string } = {}): Promise<PackedPackage> {
	const packageDir = options.packageDir ?? REPOSITORY_ROOT;
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-pack-'));
	const output = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: packageDir });
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
	await run('tar', ['-xzf', path.join(work, packed.filename), '-C', work], { cwd: work });
	const dir = path.join(work, 'package');
	const manifestPath = path.join(dir, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, unknown> & { name: string; version: string };
	if (options.version) manifest.version = options.version;
	// publishConfig is for the public registry (provenance needs a CI identity, a registry there
	// would win over --registry): the local registry gets the package without it.
	delete manifest.publishConfig;
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	return { name: manifest.name, version: manifest.version, dir };
}

/** `npm publish` of a packed folder to the registry with its token (no provenance: that needs a CI identity). */
export async function publishPackage(registry: Registry, packed: PackedPackage): Promise<string> {
	return await run(
		'npm',
		['publish', packed.dir, '--registry', `${registry.url}/`, '--userconfig', registry.npmrc, '--ignore-scripts', '--provenance=false', '--access', 'public', '--tag', 'latest'],
		{ cwd: path.dirname(packed.dir) },
	);
}

