/**
 * Runs the real n8n application (provisioned by n8n-runtime.ts) headless on 127.0.0.1.
 *
 * - `startN8n()` starts `n8n start`, waits for readiness, sets up the owner account (or logs in
 *   when the user folder already has one), creates a public API key, and returns helpers for the
 *   internal REST API (`/rest`, session cookie), the public API (`/api/v1`, API key) and `stop()`.
 * - `n8nCli()` wraps the CLI commands (`import:credentials`, `import:workflow`, `execute --id`,
 *   `publish:workflow`) for a user folder. A running server does not see workflows published by
 *   the CLI until it restarts; import and publish first, then start.
 *
 * Test instances share one encryption key and owner (ENCRYPTION_KEY, DEFAULT_OWNER: throwaway
 * folders, never printed for a user); the sandboxes (`npm start`, `npm run start:queue`) pass their
 * own random ones (dev/n8n/sandbox-state.ts). n8n refuses to open a user folder with another key.
 * Every n8n process starts with umask 077 (its database, settings file and logs 0600) and two
 * preloads: host-guard.cjs (requests must be addressed to localhost, 127.x or [::1]) and, unless
 * `online`, loopback-guard.cjs (connections to anything but this machine are refused).
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { ensureN8n, type N8nRuntime } from './n8n-runtime';
import { spawnPrivate } from './sandbox-state';

/** The key of test instances (throwaway folders); the sandboxes make their own (sandbox-state.ts). */
export const ENCRYPTION_KEY = 'n8n-nodes-document-extraction-local-only';
/** The owner of test instances (throwaway folders); the sandboxes make their own password (sandbox-state.ts). */
export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Extraction-Demo-2026',
};
const BROWSER_ID = 'n8n-nodes-document-extraction-scripts';

export type Owner = typeof DEFAULT_OWNER;

const LOOPBACK_GUARD = path.join(__dirname, 'loopback-guard.cjs');
const HOST_GUARD = path.join(__dirname, 'host-guard.cjs');

/** Where the loopback guard records refused connections of n8n processes using this folder. */
export function outboundAttemptsFile(userFolder: string): string {
	return path.join(userFolder, 'outbound-attempts.log');
}

/** Connections n8n tried to open to anything but 127.0.0.1 (refused by the guard), one line each. */
export function outboundAttempts(userFolder: string): string[] {
	try {
		return fs.readFileSync(outboundAttemptsFile(userFolder), 'utf8').split('\n').filter(Boolean);
	} catch {
		return [];
	}
}

/**
 * The environment every n8n process gets: no telemetry, no calls home, everything on 127.0.0.1,
 * the host guard preloaded (requests addressed to another host name are refused: DNS rebinding)
 * and, unless `online`, the loopback guard (it refuses and records any other connection).
 */
export function headlessEnv(userFolder: string, options: { online?: boolean } = {}): Record<string, string> {
	return {
		NODE_OPTIONS: options.online ? `--require ${HOST_GUARD}` : `--require ${HOST_GUARD} --require ${LOOPBACK_GUARD}`,
		LOOPBACK_GUARD_LOG: outboundAttemptsFile(userFolder),
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		// Its refresh task fetches the MCP server catalogue from api.n8n.io at start.
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	};
}

/** A port that was free a moment ago (n8n takes fixed ports, so port 0 cannot be passed through). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export function makeUserFolder(prefix = 'n8n-user-'): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// ---------------------------------------------------------------------------------------------
// CLI

export interface CliOptions {
	userFolder: string;
	/** Extra environment for every command (e.g. N8N_DEFAULT_BINARY_DATA_MODE). */
	env?: Record<string, string>;
	runtime?: N8nRuntime;
}

export interface CliResult {
	/** -1 when a signal ended it. */
	exitCode: number;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** The JSON that `n8n execute --rawOutput` prints: an IRun (status, data.resultData.runData, ...). */
export interface ExecutionOutput {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> }; error?: unknown }>>;
			error?: { message?: string; description?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
	};
	[key: string]: unknown;
}

export interface N8nCli {
	userFolder: string;
	/** Runs `n8n <args>`; never throws for a non-zero exit. */
	run(args: string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
	/** Imports credentials (a file, or objects written to a temp file). Returns their ids. */
	importCredentials(input: string | object | object[]): Promise<string[]>;
	/** Imports one workflow (a file or an object); gives it an id when it has none. Returns the id. */
	importWorkflow(input: string | object): Promise<string>;
	/**
	 * `n8n execute --id=<id> --rawOutput`: the execution's JSON. When a node fails, n8n exits 1 and
	 * logs the same JSON; it is returned too (check `data.resultData.error`). Throws when stdout
	 * holds no JSON at all. Judge the run by this JSON, not by n8n's exit code: with the default
	 * expression engine n8n sometimes dies of SIGSEGV at exit after printing it.
	 */
	execute(workflowId: string): Promise<ExecutionOutput>;
	/** `n8n publish:workflow --id=<id>`: active on the next `n8n start`. */
	publishWorkflow(workflowId: string): Promise<void>;
}

export function n8nCli(options: CliOptions): N8nCli {
	const { userFolder } = options;
	let runtimePromise: Promise<N8nRuntime> | undefined = options.runtime ? Promise.resolve(options.runtime) : undefined;
	const runtime = () => (runtimePromise ??= ensureN8n());
	const scratch = () => fs.mkdtempSync(path.join(userFolder, 'import-'));

	async function run(args: string[], extra: { env?: Record<string, string> } = {}): Promise<CliResult> {
		const rt = await runtime();
		return new Promise((resolve, reject) => {
			const child = spawnPrivate(rt.nodeBin, [rt.n8nEntry, ...args], {
				cwd: userFolder,
				env: { ...rt.env, ...headlessEnv(userFolder), ...rt.n8nEnv, ...options.env, ...extra.env },
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			let stdout = '';
			let stderr = '';
			child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
			child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			child.on('error', reject);
			child.on('close', (code, signal) => resolve({ exitCode: code ?? -1, signal, stdout, stderr }));
		});
	}

	/**
	 * n8n 2.41.1 on Node 24 dies of SIGSEGV at exit in about 4 of 10 CLI runs, after its work and
	 * output are done (a V8 garbage collection on an isolated-vm thread of the default expression
	 * engine while the main thread exits). So a command succeeded when it printed its success line.
	 */
	async function runOrThrow(args: string[], successLine: string): Promise<CliResult> {
		const result = await run(args);
		const succeeded = result.exitCode === 0 || (result.signal === 'SIGSEGV' && result.stdout.includes(successLine));
		if (!succeeded) {
			throw new Error(`n8n ${args.join(' ')} exited with ${result.exitCode}:\n${tail(result.stdout + result.stderr)}`);
		}
		return result;
	}

	return {
		userFolder,
		run,

		async importCredentials(input) {
			const credentials = ([] as object[]).concat(readJsonInput(input) as object | object[]).map((credential) => ({
				id: newId(),
				...(credential as Record<string, unknown>),
			}));
			const file = path.join(scratch(), 'credentials.json');
			fs.writeFileSync(file, JSON.stringify(credentials));
			await runOrThrow(['import:credentials', `--input=${file}`], 'Successfully imported');
			return credentials.map((credential) => credential.id as string);
		},

		async importWorkflow(input) {
			const workflow = { id: newId(), ...(readJsonInput(input) as Record<string, unknown>) };
			const file = path.join(scratch(), 'workflow.json');
			fs.writeFileSync(file, JSON.stringify(workflow));
			await runOrThrow(['import:workflow', `--input=${file}`], 'Successfully imported');
			return workflow.id as string;
		},

		async execute(workflowId) {
			const result = await run(['execute', `--id=${workflowId}`, '--rawOutput']);
			const output = lastJsonObject(result.stdout) as ExecutionOutput | undefined;
			if (!output?.data?.resultData) {
				throw new Error(`n8n execute --id=${workflowId} printed no execution JSON (exit ${result.exitCode}):\n${tail(result.stdout + result.stderr)}`);
			}
			return output;
		},

		async publishWorkflow(workflowId) {
			// n8n 1.x has no publish:workflow; it activates with update:workflow --active=true.
			const args = (await runtime()).n8nVersion.startsWith('1.') ? ['update:workflow', `--id=${workflowId}`, '--active=true'] : ['publish:workflow', `--id=${workflowId}`];
			await runOrThrow(args, 'Changes will not take effect');
		},
	};
}

/** The items a node put out in its first run (output 0 unless given). */
export function nodeOutput(execution: ExecutionOutput, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs?.length) throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(execution.data.resultData.runData).join(', ')}`);
	return (runs[0].data?.main?.[outputIndex] ?? []).map((item) => item.json);
}

/** n8n's log lines share stdout with the JSON: find the last line that opens a parsable top-level object. */
function lastJsonObject(stdout: string): unknown {
	const lines = stdout.split('\n');
	for (let start = lines.length - 1; start >= 0; start--) {
		if (lines[start] !== '{' && !lines[start].startsWith('{"')) continue;
		for (let end = lines.length - 1; end >= start; end--) {
			if (!lines[end].startsWith('}')) continue;
			try {
				return JSON.parse(lines.slice(start, end + 1).join('\n'));
			} catch {
				// a log line between the braces: try a shorter block
			}
		}
	}
	return undefined;
}

function readJsonInput(input: string | object): unknown {
	return typeof input === 'string' ? JSON.parse(fs.readFileSync(input, 'utf8')) : input;
}

/** n8n ids: 16 characters of [0-9A-Za-z]. */
function newId(): string {
	const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	return Array.from(randomBytes(16), (byte) => alphabet[byte % alphabet.length]).join('');
}

function tail(text: string, chars = 4000): string {
	return text.length > chars ? `...${text.slice(-chars)}` : text;
}

// ---------------------------------------------------------------------------------------------
// Server

export interface StartOptions {
	/** n8n's user folder (created if missing); default: a fresh temp dir. */
	userFolder?: string;
	/** HTTP port; default: a free one. Keep away from 5678/5679. */
	port?: number;
	/** Extra environment, e.g. { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }. */
	env?: Record<string, string>;
	owner?: Owner;
	runtime?: N8nRuntime;
	/** Readiness timeout; default 120 s. */
	readyTimeoutMs?: number;
	/** Also copy n8n's output to this stream (it always goes to <userFolder>/n8n.log). */
	echo?: NodeJS.WritableStream;
	/**
	 * `start` (default) or `worker` (queue mode, dev/n8n/queue/): a worker serves only its health
	 * check, on `port` (QUEUE_HEALTH_CHECK_PORT); readiness is awaited there, no owner or API key.
	 */
	command?: 'start' | 'worker';
	/** Arguments after the command, e.g. ['--concurrency=10'] for a worker. */
	args?: string[];
	/** Let n8n connect to hosts other than this machine (no loopback guard): `npm start -- --online`. */
	online?: boolean;
	/**
	 * Passwords the owner may still have from before (a sandbox made when its password was fixed):
	 * when `owner.password` is refused and one of these is accepted, the owner's password is
	 * changed to `owner.password`.
	 */
	formerOwnerPasswords?: string[];
}

export interface RequestOptions {
	method?: string;
	body?: unknown;
	headers?: Record<string, string>;
}

export interface N8nInstance extends N8nCli {
	url: string;
	/** The n8n version running (runtime.n8nVersion). */
	n8nVersion: string;
	port: number;
	pid: number;
	owner: Owner;
	/** The `n8n-auth` session cookie ("n8n-auth=..."). */
	cookie: string;
	/** A public API key with every scope the owner may grant. */
	apiKey: string;
	logFile: string;
	/** An authenticated request to any path of the server (cookie and browser-id set); the raw Response. */
	request(urlPath: string, options?: RequestOptions): Promise<Response>;
	/** `/rest<path>` with the session cookie; returns the `data` of n8n's `{ data }` envelope; throws on non-2xx. */
	rest<T = unknown>(restPath: string, options?: RequestOptions): Promise<T>;
	/** `/api/v1<path>` with the API key; returns the parsed body; throws on non-2xx. */
	publicApi<T = unknown>(apiPath: string, options?: RequestOptions): Promise<T>;
	/** Peak resident memory of the n8n process so far (VmHWM), in bytes. */
	peakRssBytes(): number;
	/** Everything n8n printed so far. */
	logs(): string;
	/** Connections to anything but 127.0.0.1 that n8n processes of this folder tried (the guard refused them). */
	outboundAttempts(): string[];
	/** SIGTERM to n8n's process group, SIGKILL after 20 s. */
	stop(): Promise<void>;
}

export async function startN8n(options: StartOptions = {}): Promise<N8nInstance> {
	const runtime = options.runtime ?? (await ensureN8n());
	const userFolder = options.userFolder ?? makeUserFolder();
	fs.mkdirSync(userFolder, { recursive: true });
	const port = options.port ?? (await freePort());
	const brokerPort = await freePort();
	const owner = options.owner ?? DEFAULT_OWNER;
	const url = `http://127.0.0.1:${port}`;
	const command = options.command ?? 'start';
	const extraEnv: Record<string, string> = {
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_WEBHOOK_URL: `${url}/`,
		...(command === 'worker' ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' } : {}),
		...options.env,
	};

	const logFile = path.join(userFolder, 'n8n.log');
	const logStream = fs.createWriteStream(logFile, { flags: 'a', mode: 0o600 });
	let output = '';
	const child: ChildProcess = spawnPrivate(runtime.nodeBin, [runtime.n8nEntry, command, ...(options.args ?? [])], {
		cwd: userFolder,
		env: { ...runtime.env, ...headlessEnv(userFolder, { online: options.online }), ...runtime.n8nEnv, ...extraEnv },
		stdio: ['ignore', 'pipe', 'pipe'],
		// Own process group: stop() then also ends the task runner n8n spawns.
		detached: true,
	});
	const onOutput = (chunk: Buffer) => {
		output += chunk.toString();
		if (output.length > 2_000_000) output = output.slice(-1_000_000);
		logStream.write(chunk);
		options.echo?.write(chunk);
	};
	child.stdout!.on('data', onOutput);
	child.stderr!.on('data', onOutput);
	let exited: number | null | undefined;
	const exitPromise = new Promise<void>((resolve) =>
		child.on('exit', (code, signal) => {
			exited = code ?? (signal ? -1 : null);
			resolve();
		}),
	);

	// Should this process end without stop() (an uncaught error, process.exit), n8n must not outlive it.
	const killOnExit = () => signalGroup(child.pid!, 'SIGKILL');
	process.on('exit', killOnExit);

	async function stop(): Promise<void> {
		process.off('exit', killOnExit);
		if (exited === undefined && child.pid) {
			signalGroup(child.pid, 'SIGTERM');
			const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 20_000);
			await exitPromise;
			clearTimeout(timer);
		}
		await new Promise((resolve) => logStream.end(resolve));
	}

	try {
		await waitForReady(url, options.readyTimeoutMs ?? 120_000, () => exited);
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}\n--- n8n output (${logFile}) ---\n${tail(output)}`);
	}

	let cookie = '';
	async function request(urlPath: string, requestOptions: RequestOptions = {}): Promise<Response> {
		const headers: Record<string, string> = { 'browser-id': BROWSER_ID, ...requestOptions.headers };
		if (cookie) headers.cookie = cookie;
		let body: string | undefined;
		if (requestOptions.body !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(requestOptions.body);
		}
		return fetch(`${url}${urlPath}`, { method: requestOptions.method ?? (body ? 'POST' : 'GET'), headers, body });
	}

	async function rest<T>(restPath: string, requestOptions: RequestOptions = {}): Promise<T> {
		const response = await request(`/rest${restPath}`, requestOptions);
		const body = await parseBody(response, `/rest${restPath}`);
		return (body && typeof body === 'object' && 'data' in body ? (body as { data: T }).data : body) as T;
	}

	let apiKey = '';
	async function publicApi<T>(apiPath: string, requestOptions: RequestOptions = {}): Promise<T> {
		const headers: Record<string, string> = { 'X-N8N-API-KEY': apiKey, ...requestOptions.headers };
		let body: string | undefined;
		if (requestOptions.body !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(requestOptions.body);
		}
		const response = await fetch(`${url}/api/v1${apiPath}`, {
			method: requestOptions.method ?? (body ? 'POST' : 'GET'),
			headers,
			body,
		});
		return (await parseBody(response, `/api/v1${apiPath}`)) as T;
	}

	// A worker has no owner or API key.
	if (command === 'start') {
		try {
			cookie = await signIn(request, owner, options.formerOwnerPasswords ?? []);
			const scopes = await rest<string[]>('/api-keys/scopes');
			const created = await rest<{ rawApiKey: string }>('/api-keys', {
				body: { label: `scripts ${new Date().toISOString().replace(/[:.]/g, '-')}`, scopes, expiresAt: null },
			});
			apiKey = created.rawApiKey;
		} catch (error) {
			await stop();
			throw new Error(`${(error as Error).message}\n--- n8n output (${logFile}) ---\n${tail(output)}`);
		}
	}

	const cli = n8nCli({ userFolder, env: extraEnv, runtime });
	return {
		...cli,
		url,
		n8nVersion: runtime.n8nVersion,
		port,
		pid: child.pid!,
		owner,
		cookie,
		apiKey,
		logFile,
		request,
		rest,
		publicApi,
		peakRssBytes: () => peakRss(child.pid!),
		logs: () => output,
		outboundAttempts: () => outboundAttempts(userFolder),
		stop,
	};
}

async function waitForReady(url: string, timeoutMs: number, exitCode: () => number | null | undefined): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (exitCode() !== undefined) throw new Error(`n8n exited with ${exitCode()} before it was ready`);
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`n8n was not ready at ${url}/healthz/readiness within ${timeoutMs / 1000} s`);
}

/**
 * Sets up the owner on a fresh folder, or logs in when the folder already has one; when the
 * owner's password is refused but a former one is accepted, changes it to `owner.password`.
 * Returns the cookie.
 */
async function signIn(
	request: (urlPath: string, options?: RequestOptions) => Promise<Response>,
	owner: Owner,
	formerPasswords: string[],
): Promise<string> {
	let response = await request('/rest/owner/setup', { body: owner });
	// n8n 1.x answers /healthz/readiness before its REST routes exist: a 404 for a few seconds.
	for (const deadline = Date.now() + 60_000; response.status === 404 && Date.now() < deadline; ) {
		await response.text();
		await new Promise((resolve) => setTimeout(resolve, 500));
		response = await request('/rest/owner/setup', { body: owner });
	}
	if (response.status === 400) {
		const setupAnswer = await response.text();
		const login = (password: string) => request('/rest/login', { body: { emailOrLdapLoginId: owner.email, password } });
		response = await login(owner.password);
		for (const former of formerPasswords) {
			if (response.ok || response.status !== 401) break;
			await response.text();
			const formerLogin = await login(former);
			if (!formerLogin.ok) {
				await formerLogin.text();
				continue;
			}
			const formerCookie = formerLogin.headers.getSetCookie().find((header) => header.startsWith('n8n-auth='))?.split(';')[0] ?? '';
			await formerLogin.text();
			const changed = await request('/rest/me/password', {
				method: 'PATCH',
				body: { currentPassword: former, newPassword: owner.password },
				headers: { cookie: formerCookie },
			});
			if (!changed.ok) throw new Error(`changing the owner's former password answered ${changed.status} ${await changed.text()}`);
			await changed.text();
			response = await login(owner.password);
		}
		if (!response.ok) throw new Error(`owner setup said ${setupAnswer}; login answered ${response.status} ${await response.text()}`);
	} else if (!response.ok) {
		throw new Error(`POST /rest/owner/setup answered ${response.status} ${await response.text()}`);
	}
	const authCookie = response.headers.getSetCookie().find((header) => header.startsWith('n8n-auth='));
	if (!authCookie) throw new Error('n8n set no n8n-auth cookie');
	return authCookie.split(';')[0];
}

async function parseBody(response: Response, label: string): Promise<unknown> {
	const text = await response.text();
	if (!response.ok) throw new Error(`${label} answered ${response.status}: ${text.slice(0, 2000)}`);
	if (!text) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

function peakRss(pid: number): number {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}
