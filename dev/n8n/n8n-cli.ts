/**
 * `n8nCli()` wraps the n8n CLI commands (`import:credentials`, `import:workflow`, `execute --id`,
 * `publish:workflow`) for a user folder, with the headless environment (n8n-env.ts). A running
 * server does not see workflows published by the CLI until it restarts; import and publish
 * first, then start (n8n-launcher.ts).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { headlessEnv } from './n8n-env';
import { ensureN8n, type N8nRuntime } from './n8n-runtime';
import { spawnPrivate } from './sandbox-state';

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
			await withScratchFile(userFolder, 'credentials.json', JSON.stringify(credentials), (file) =>
				runOrThrow(['import:credentials', `--input=${file}`], 'Successfully imported'),
			);
			return credentials.map((credential) => credential.id as string);
		},

		async importWorkflow(input) {
			const workflow = { id: newId(), ...(readJsonInput(input) as Record<string, unknown>) };
			await withScratchFile(userFolder, 'workflow.json', JSON.stringify(workflow), (file) =>
				runOrThrow(['import:workflow', `--input=${file}`], 'Successfully imported'),
			);
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

/**
 * Writes `content` as `name` into a fresh `import-*` folder of the user folder (private, as the
 * folder is), runs `use` with the file's path, and removes the folder afterwards, also when `use`
 * fails: an import leaves nothing behind in the cache.
 */
export async function withScratchFile<T>(userFolder: string, name: string, content: string, use: (file: string) => Promise<T>): Promise<T> {
	const dir = fs.mkdtempSync(path.join(userFolder, 'import-'));
	try {
		const file = path.join(dir, name);
		fs.writeFileSync(file, content, { mode: 0o600 });
		return await use(file);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Removes the `import-*` folders an import left in the user folder (versions before withScratchFile kept them). */
export function removeScratchFolders(userFolder: string): string[] {
	const left = fs.existsSync(userFolder)
		? fs.readdirSync(userFolder, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name.startsWith('import-'))
		: [];
	for (const entry of left) fs.rmSync(path.join(userFolder, entry.name), { recursive: true, force: true });
	return left.map((entry) => entry.name);
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

/** The end of a command's output, for an error message. */
export function tail(text: string, chars = 4000): string {
	return text.length > chars ? `...${text.slice(-chars)}` : text;
}
