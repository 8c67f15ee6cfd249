/**
 * Runs the real n8n application (provisioned by n8n-runtime.ts) headless on 127.0.0.1:
 * `startN8n()` starts `n8n start` (or a queue-mode `n8n worker`) with the environment of
 * n8n-env.ts, waits for readiness, sets up the owner account (or logs in when the user folder
 * already has one), creates a public API key, and returns helpers for the internal REST API
 * (`/rest`, session cookie), the public API (`/api/v1`, API key), the CLI of the same folder
 * (n8n-cli.ts) and `stop()`. Every n8n process starts with umask 077 (its database, settings
 * file and logs 0600).
 */
import { type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { n8nCli, tail, type N8nCli } from './n8n-cli';
import { DEFAULT_OWNER, freePort, headlessEnv, makeUserFolder, outboundAttempts, type Owner } from './n8n-env';
import { ensureN8n, type N8nRuntime } from './n8n-runtime';
import { spawnPrivate } from './sandbox-state';

const BROWSER_ID = 'n8n-nodes-document-extraction-scripts';

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
	 * `start` (default), `worker` or `webhook` (queue mode, dev/n8n/queue/): a worker serves only its
	 * health check, on `port` (QUEUE_HEALTH_CHECK_PORT); a webhook process serves production webhooks
	 * and its health check on `port`. Readiness is awaited there; neither has an owner or API key.
	 */
	command?: 'start' | 'worker' | 'webhook';
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
