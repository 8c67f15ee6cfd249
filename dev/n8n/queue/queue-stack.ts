/**
 * n8n in queue mode, locally: PostgreSQL 17 (postgres.ts), Redis (redis.ts), one `n8n start`
 * (main: editor, REST and public API, webhooks, triggers), N `n8n worker` processes and, when
 * asked, M `n8n webhook` processes behind a round-robin proxy (round-robin.ts), all of the same n8n (dev/n8n/n8n-runtime.ts), the package installed into each one's user folder, the
 * emulator, its credential and the example workflows. Used by `npm run start:queue`, the queue
 * e2e suite (test/queue) and `npm run bench:queue`.
 *
 * Layout under `rootDir` (start:queue: <cache>/queue/stack; tests: a temp dir):
 *   postgres/data/, postgres/postgres.log   the cluster (data kept between starts)
 *   redis/                                  Redis's append-only file and log
 *   main/, worker-1/, worker-2/ ...         n8n user folders (each: .n8n/nodes/... the package,
 *                                           documents/, n8n.log)
 *   storage/                                N8N_STORAGE_PATH of every process (binaryDataMode 'filesystem')
 *
 * Every process gets the same N8N_ENCRYPTION_KEY, database and Redis. The key, the owner's
 * password and the PostgreSQL and Redis passwords are the stack's own, made at random once per
 * `rootDir` and kept in <rootDir>/sandbox-secrets.json (0600; dev/n8n/sandbox-state.ts). A stack
 * made before that (its cluster exists, the secrets file does not) gets its own PostgreSQL
 * password (set in single-user mode) and owner password (changed at main's start) but keeps the
 * encryption key it has (n8n 2.41 cannot move an instance to another key: `sharedKey`).
 * Redis listens on 127.0.0.1 only and wants its password; `rootDir` is 0700.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';

import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';
import { n8nCli, type N8nCli } from '../n8n-cli';
import { DEFAULT_OWNER, freePort } from '../n8n-env';
import { startN8n, type N8nInstance } from '../n8n-launcher';
import { ensureN8n, type N8nRuntime } from '../n8n-runtime';
import { importCredentialsAndWorkflows, prepareUserFolder, type WorkflowJson } from '../n8n-stack';
import { FORMER_FIXED, SECRETS_FILE, privateDir, sandboxSecrets, settingsFileKey, tightenStateModes, type SandboxSecrets } from '../sandbox-state';
import { ensurePostgres, startPostgres, type PostgresServer } from './postgres';
import { ensureRedis, startRedis, type RedisServer } from './redis';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin';

export type BinaryDataMode = 'database' | 'filesystem';

/** The environment that makes an n8n process part of the queue-mode cluster. */
export function queueEnv(options: {
	postgres: Pick<PostgresServer, 'host' | 'port' | 'user' | 'password' | 'database'>;
	redis: Pick<RedisServer, 'host' | 'port'> & { password?: string };
	binaryDataMode: BinaryDataMode;
	/** Shared N8N_STORAGE_PATH, required for 'filesystem'. */
	storagePath?: string;
}): Record<string, string> {
	const { postgres, redis } = options;
	const env: Record<string, string> = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		...(redis.password ? { QUEUE_BULL_REDIS_PASSWORD: redis.password } : {}),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		// Manual runs from the editor go to the workers too, as production executions do.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_DEFAULT_BINARY_DATA_MODE: options.binaryDataMode,
	};
	if (options.binaryDataMode === 'filesystem') {
		if (!options.storagePath) throw new Error("binaryDataMode 'filesystem' needs a storage path shared by every process");
		env.N8N_STORAGE_PATH = options.storagePath;
	}
	return env;
}

export interface QueueStackOptions {
	/** Where data and user folders live (see the header); created. */
	rootDir: string;
	/** Number of `n8n worker` processes (default 2). */
	workers?: number;
	/**
	 * Number of `n8n webhook` processes (default 0), started after main, with a round-robin proxy in
	 * front of them (round-robin.ts): the load balancer a production cluster puts before its webhook
	 * processes. The proxy's URL is `stack.webhookProxy.url`; n8n's public webhook URL stays main's.
	 */
	webhookProcesses?: number;
	/** `--concurrency` of each worker (n8n's default 10). */
	workerConcurrency?: number;
	/** 'database' (default, n8n's default in queue mode) or 'filesystem' with one shared N8N_STORAGE_PATH. */
	binaryDataMode?: BinaryDataMode;
	/** Main's HTTP port (default: a free one). */
	port?: number;
	emulator?: EmulatorOptions;
	/** Workflows to import instead of the examples (function of the emulator's address). */
	workflows?: (emulatorApiUrl: string) => WorkflowJson[];
	credentials?: (emulatorApiUrl: string) => object[];
	/** Ids of imported workflows to publish before main starts. */
	publish?: string[];
	/** Skip the imports (they are in the database already: a second start). */
	skipImports?: boolean;
	/** Folders the Read/Write Files node may read on every process, besides each one's documents/. */
	extraReadableDirs?: string[];
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
	build?: boolean;
	runtime?: N8nRuntime;
	log?: (line: string) => void;
	/** n8n's output of every process also goes here, each line prefixed with the process's name. */
	echo?: NodeJS.WritableStream;
	/** Let n8n connect to other hosts than this machine (no loopback guard). */
	online?: boolean;
	/** How to start the stack online, named by the loopback guard's refusals (start:queue: `npm run start:queue -- --online`). */
	onlineHint?: string;
}

export interface WorkerHandle {
	name: string;
	userFolder: string;
	/** The running process (undefined while stopped). */
	instance?: N8nInstance;
}

export interface QueueStack {
	rootDir: string;
	/** The stack's own secrets (owner password, encryption key, PostgreSQL and Redis passwords). */
	secrets: SandboxSecrets;
	/** <rootDir>/sandbox-secrets.json */
	secretsFile: string;
	/** The stack still has the encryption key every stack had before the secrets were random. */
	sharedKey: boolean;
	runtime: N8nRuntime;
	postgres: PostgresServer;
	redis: RedisServer;
	emulator: Emulator;
	main: N8nInstance;
	mainFolder: string;
	workers: WorkerHandle[];
	/** The `n8n webhook` processes (options.webhookProcesses), named webhook-1, webhook-2, ... */
	webhookProcesses: WorkerHandle[];
	/** The round-robin proxy before the webhook processes, when there are any. */
	webhookProxy?: RoundRobinProxy;
	/** The environment every n8n process of this stack has (queueEnv and the stack's own). */
	envFor(userFolder: string): Record<string, string>;
	/** CLI bound to main's folder and the cluster's database. */
	cli: N8nCli;
	/** Stops main (SIGTERM) and starts it again on the same folder and port; `stack.main` is the new one. */
	restartMain(): Promise<N8nInstance>;
	/** Starts (again) worker `index`. */
	startWorker(index: number): Promise<N8nInstance>;
	/** SIGKILL to worker `index`'s process group (n8n and its task runner), as a crash. */
	killWorker(index: number): Promise<void>;
	/** Everything each worker logged, by worker name (all of its runs). */
	workerLogs(): Record<string, string>;
	/** Which worker ran an execution, from the workers' own log lines ("Worker started execution <id>"). */
	workerOfExecution(executionId: string): string | undefined;
	stop(): Promise<void>;
}

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const log = options.log ?? (() => undefined);
	const runtime = options.runtime ?? (await ensureN8n({ log }));
	const rootDir = privateDir(path.resolve(options.rootDir));
	const mainFolder = path.join(rootDir, 'main');
	// Made before the secrets were random: a cluster, no secrets file.
	const former = !fs.existsSync(path.join(rootDir, SECRETS_FILE)) && fs.existsSync(path.join(rootDir, 'postgres', 'data', 'PG_VERSION'));
	const { secrets, file: secretsFile } = sandboxSecrets(rootDir, { existingKey: former ? (settingsFileKey(mainFolder) ?? FORMER_FIXED.encryptionKey) : undefined });
	// Also what an older version left 0644/0755 (logs, Redis's append-only folder); postgres/data is PostgreSQL's own (0700).
	for (const folder of [rootDir, path.join(rootDir, 'redis'), path.join(rootDir, 'redis', 'appendonlydir'), path.join(rootDir, 'postgres')]) tightenStateModes(folder);
	const owner = { ...DEFAULT_OWNER, email: secrets.ownerEmail, password: secrets.ownerPassword };
	const binaryDataMode = options.binaryDataMode ?? 'database';
	const workerCount = options.workers ?? 2;
	const stoppers: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
		stoppers.length = 0;
	};

	try {
		const [binaries, redisBinary] = await Promise.all([ensurePostgres(runtime.cacheDir, log), ensureRedis(log)]);
		const postgres = await startPostgres({
			binaries,
			dataDir: path.join(rootDir, 'postgres', 'data'),
			port: await freePort(),
			password: secrets.postgresPassword,
			resetPassword: former,
			log,
		});
		stoppers.push(() => postgres.stop());
		log(`PostgreSQL ${binaries.version} on 127.0.0.1:${postgres.port} (log ${postgres.logFile})`);
		const redis = await startRedis({ binary: redisBinary, dir: path.join(rootDir, 'redis'), port: await freePort(), password: secrets.redisPassword });
		stoppers.push(() => redis.stop());
		log(`Redis on 127.0.0.1:${redis.port} (log ${redis.logFile})`);

		const storagePath = path.join(rootDir, 'storage');
		if (binaryDataMode === 'filesystem') fs.mkdirSync(storagePath, { recursive: true });
		// Main's port, known before the workers start: every process gets main's address as n8n's
		// public webhook URL, as a production cluster must (the resume URL of a waiting execution is
		// built on the worker that runs it: docs/queue-mode.md). n8n 2.x reads N8N_WEBHOOK_URL, 1.x WEBHOOK_URL.
		const port = options.port ?? (await freePort());
		const publicUrl = `http://127.0.0.1:${port}/`;
		const clusterEnv: Record<string, string> = {
			N8N_WEBHOOK_URL: publicUrl,
			WEBHOOK_URL: publicUrl,
			...queueEnv({ postgres, redis, binaryDataMode, storagePath }),
			N8N_ENCRYPTION_KEY: secrets.encryptionKey,
			...(options.onlineHint ? { LOOPBACK_GUARD_ONLINE_HINT: options.onlineHint } : {}),
			...options.env,
		};

		// The package into every process's user folder: built once, packed and unpacked into each.
		const prepared = await prepareUserFolder({ userFolder: mainFolder, runtime, build: options.build ?? true, extraReadableDirs: options.extraReadableDirs, log });
		const folderEnv = new Map<string, Record<string, string>>([[mainFolder, prepared.env]]);
		const workers: WorkerHandle[] = [];
		const webhookProcesses: WorkerHandle[] = [];
		for (const [kind, count, list] of [['worker', workerCount, workers], ['webhook', options.webhookProcesses ?? 0, webhookProcesses]] as const) {
			for (let index = 1; index <= count; index++) {
				const userFolder = path.join(rootDir, `${kind}-${index}`);
				const folder = await prepareUserFolder({ userFolder, runtime, build: false, extraReadableDirs: options.extraReadableDirs });
				folderEnv.set(userFolder, folder.env);
				list.push({ name: `${kind}-${index}`, userFolder });
			}
		}
		const envFor = (userFolder: string) => ({ ...(folderEnv.get(userFolder) ?? prepared.env), ...clusterEnv });
		for (const folder of folderEnv.keys()) tightenStateModes(folder);


		const emulator = await startEmulator({ processingDelayMs: 300, ...options.emulator });
		stoppers.push(() => emulator.close());
		const cli = n8nCli({ userFolder: mainFolder, env: envFor(mainFolder), runtime });
		if (!options.skipImports) {
			log('importing the credential and workflows into PostgreSQL');
			await importCredentialsAndWorkflows(cli, emulator, options.workflows?.(emulator.apiUrl), options.credentials?.(emulator.apiUrl));
		}
		for (const id of options.publish ?? []) await cli.publishWorkflow(id);

		const echoFor = (name: string) => (options.echo ? prefixed(options.echo, name) : undefined);
		const concurrencyArgs = options.workerConcurrency ? [`--concurrency=${options.workerConcurrency}`] : [];
		const startWorkerAt = async (index: number) => {
			const worker = workers[index];
			if (worker.instance) return worker.instance;
			worker.instance = await startN8n({ command: 'worker', args: concurrencyArgs, userFolder: worker.userFolder, runtime, env: envFor(worker.userFolder), echo: echoFor(worker.name), online: options.online });
			return worker.instance;
		};
		// Workers first: main hands them executions as soon as its triggers run.
		log(`starting ${workerCount} n8n worker${workerCount === 1 ? '' : 's'}`);
		await Promise.all(workers.map((_, index) => startWorkerAt(index)));
		stoppers.push(async () => {
			await Promise.all(workers.map(async (worker) => {
				await worker.instance?.stop();
				worker.instance = undefined;
			}));
		});
		log('starting n8n main');
		const startMain = () =>
			startN8n({ userFolder: mainFolder, runtime, port, env: envFor(mainFolder), echo: echoFor('main'), owner, online: options.online, formerOwnerPasswords: [FORMER_FIXED.ownerPassword] });
		let main = await startMain();
		stoppers.push(() => stack.main.stop());
		// Webhook processes after main (main has migrated the database); each on its own port.
		let webhookProxy: RoundRobinProxy | undefined;
		if (webhookProcesses.length > 0) {
			log(`starting ${webhookProcesses.length} n8n webhook process${webhookProcesses.length === 1 ? '' : 'es'} and a round-robin proxy before them`);
			await Promise.all(webhookProcesses.map(async (handle) => {
				handle.instance = await startN8n({ command: 'webhook', userFolder: handle.userFolder, runtime, env: envFor(handle.userFolder), echo: echoFor(handle.name), online: options.online });
			}));
			stoppers.push(async () => {
				await Promise.all(webhookProcesses.map(async (handle) => await handle.instance?.stop()));
			});
			const proxy = await startRoundRobinProxy(webhookProcesses.map((handle) => handle.instance!.url));
			webhookProxy = proxy;
			stoppers.push(() => proxy.close());
		}

		const logsOf = (worker: WorkerHandle) => {
			try {
				return fs.readFileSync(path.join(worker.userFolder, 'n8n.log'), 'utf8');
			} catch {
				return '';
			}
		};
		const stack: QueueStack = {
			rootDir,
			secrets,
			secretsFile,
			sharedKey: secrets.encryptionKey === FORMER_FIXED.encryptionKey,
			runtime,
			postgres,
			redis,
			emulator,
			get main() {
				return main;
			},
			mainFolder,
			workers,
			webhookProcesses,
			webhookProxy,
			envFor,
			cli,
			async restartMain() {
				await main.stop();
				main = await startMain();
				return main;
			},
			startWorker: startWorkerAt,
			async killWorker(index) {
				const worker = workers[index];
				if (!worker.instance) return;
				try {
					process.kill(-worker.instance.pid, 'SIGKILL');
				} catch {
					// already gone
				}
				// stop() after the kill only waits for the exit and closes the log.
				await worker.instance.stop();
				worker.instance = undefined;
			},
			workerLogs: () => Object.fromEntries(workers.map((worker) => [worker.name, logsOf(worker)])),
			workerOfExecution(executionId) {
				const line = new RegExp(`Worker started execution ${executionId} \\(job`);
				return workers.find((worker) => line.test(logsOf(worker)))?.name;
			},
			stop: stopAll,
		};
		return stack;
	} catch (error) {
		await stopAll();
		throw error;
	}
}

/** A stream that writes each line of what it gets to `target`, prefixed with `[name]`. */
function prefixed(target: NodeJS.WritableStream, name: string): NodeJS.WritableStream {
	let pending = '';
	return new Writable({
		write(chunk: Buffer, _encoding, callback) {
			pending += chunk.toString();
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) target.write(`[${name}] ${line}\n`);
			callback();
		},
	});
}
