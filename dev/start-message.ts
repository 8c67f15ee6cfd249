/**
 * What `npm start` says before it provisions n8n: what it will actually do, given what the cache
 * already holds (cachedRuntime() in n8n-runtime.ts).
 */
import type { N8nRuntime } from './n8n/n8n-runtime';

/**
 * How long the first install takes, without a figure measured on another machine: the steps below
 * it print their own times (ensureN8n's log), which are this machine's.
 */
export const COLD_INSTALL_NOTE = 'minutes, not seconds (n8n and its dependencies are about 3 GB); each step says how long it took';

export function provisioningMessage(status: { runtime: Pick<N8nRuntime, 'cacheDir' | 'hostDir' | 'n8nVersion' | 'nodeVersion'>; nodeReady: boolean; n8nReady: boolean }): string {
	const { runtime, nodeReady, n8nReady } = status;
	if (nodeReady && n8nReady) {
		return `Using the cached n8n ${runtime.n8nVersion} on Node ${runtime.nodeVersion} at ${runtime.hostDir}`;
	}
	const missing = [!nodeReady ? `Node ${runtime.nodeVersion}` : undefined, !n8nReady ? `n8n ${runtime.n8nVersion}` : undefined]
		.filter(Boolean)
		.join(' and ');
	const kept = nodeReady ? ` (Node ${runtime.nodeVersion} is already cached)` : '';
	const duration = n8nReady ? 'a few seconds' : COLD_INSTALL_NOTE;
	return `Installing ${missing} from the npm registry into ${runtime.cacheDir}${kept}: once only, ${duration}...`;
}

// ---------------------------------------------------------------------------------------------
// What `npm start` (and `npm run start:queue`) print once n8n is ready

/**
 * The examples in the order a new user should try them, the order of the README's table (the
 * first one first, then by what each adds; test/package/start-message.test.ts checks they agree).
 */
export const EXAMPLES_IN_ORDER: readonly string[] = [
	'upload-and-extract.json',
	'upload-and-wait-for-callback.json',
	'review-values.json',
	'extract-documents-from-disk.json',
	'query-invoice-totals.json',
	'report-export-status.json',
	'trigger-on-processed-files.json',
	'callback-trigger-on-processed-files.json',
	'agent-invoice-questions.json',
	'baseline-http-request.json',
];

/** `files` in EXAMPLES_IN_ORDER's order; any example not named there comes after them, by name. */
export function orderExamples(files: readonly string[]): string[] {
	const rank = (file: string) => {
		const index = EXAMPLES_IN_ORDER.indexOf(file);
		return index < 0 ? EXAMPLES_IN_ORDER.length : index;
	};
	return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The host a real credential with the Default instance reaches (credentials/hosts.ts). */
export const SERVICE_HOST = 'api.orion.file.ai';

/** How to start each sandbox online; the loopback guard's refusal names it too (LOOPBACK_GUARD_ONLINE_HINT). */
export function onlineCommand(command: 'npm start' | 'npm run start:queue'): string {
	return `${command} -- --online`;
}

/**
 * One line about npm install's `EBADENGINE` warnings on a Node older than 24: isolated-vm, and on
 * Node 20 also this package, whose engines.node is >=22 (the warnings are printed by `npm install`
 * before `npm start` runs, so they can only be explained).
 */
export function engineNote(nodeVersion: string = process.versions.node): string | undefined {
	const major = Number(nodeVersion.split('.')[0]);
	if (major >= 24) return undefined;
	if (major < 22) {
		return `(npm install's "EBADENGINE" warnings on Node ${major} are expected: isolated-vm, a dev dependency nothing here loads, and this package, whose users need Node 22 or later (docs/large-files.md); developing here on Node ${major} works, and n8n runs on its own Node 24.)`;
	}
	return `(npm install's "EBADENGINE isolated-vm" warning on Node ${major} is expected: a dev dependency nothing here loads; n8n runs on its own Node 24.)`;
}

export interface ExampleLine {
	file: string;
	name: string;
	id?: string;
}

export interface ReadyInfo {
	command: 'npm start' | 'npm run start:queue';
	seconds: number;
	url: string;
	ownerEmail: string;
	ownerPassword: string;
	secretsFile: string;
	online: boolean;
	/** The examples as imported, in any order. */
	examples: ExampleLine[];
	emulator: { apiUrl: string; apiKey: string };
	/** npm start only: the scripted chat model's base URL. */
	chatModelUrl?: string;
	documentsDir: string;
	package: { name: string; version: string; installedDir: string };
	/** Where the sandbox keeps its data between starts. */
	dataDir: string;
	logFiles: string[];
	/** Sentences printed last, each as a note (e.g. a sandbox that keeps the former shared key). */
	notes?: string[];
	/** Further details (queue mode: workers, PostgreSQL, Redis, binary data). */
	extraDetails?: Array<{ label: string; text: string }>;
}

const shortName = (name: string) => name.replace(/^Document Extraction: /, '');

/** The text printed when the sandbox is ready: what a user needs first, then the details. */
export function readyMessage(info: ReadyInfo): string {
	const pad = (label: string) => `  ${label.padEnd(12)}`;
	const more = ' '.repeat(14);
	const byFile = new Map(info.examples.map((example) => [example.file, example]));
	const ordered = orderExamples([...byFile.keys()]).map((file) => byFile.get(file)!);
	const [first, ...rest] = ordered;
	const lines: string[] = [];
	lines.push(`n8n is ready (in ${info.seconds} s) with the Document Extraction nodes and a local emulator of the service.`, '');
	lines.push(`${pad('Open')}${info.url}`);
	lines.push(`${pad('Log in')}${info.ownerEmail}  /  ${info.ownerPassword}`);
	lines.push(`${more}(this sandbox's own password, made at its first start; kept in ${info.secretsFile})`);
	// Each example as a link that opens it in the editor (its file when it has no id).
	const linkOf = (example: ExampleLine) => (example.id ? `${info.url}/workflow/${example.id}` : `examples/${example.file}`);
	if (first) {
		lines.push(`${pad('Try first')}"${shortName(first.name)}": ${linkOf(first)}, then Execute workflow`);
	}
	if (rest.length) {
		const width = Math.max(...rest.map((example) => shortName(example.name).length));
		rest.forEach((example, index) => lines.push(`${index === 0 ? pad('Then') : more}${shortName(example.name).padEnd(width)}  ${linkOf(example)}`));
	}
	if (info.online) {
		lines.push(`${pad('Online')}n8n may connect to any host (--online): a credential with your API key and the Default`);
		lines.push(`${more}instance reaches ${SERVICE_HOST}. Without --online the sandbox reaches only this machine.`);
	} else {
		lines.push(`${pad('Offline')}n8n reaches only this machine; the examples use the emulator. To try your own API key on`);
		lines.push(`${more}the real service (${SERVICE_HOST}), stop and run: ${onlineCommand(info.command)}`);
	}
	lines.push(`${pad('Stop')}Ctrl-C (your workflows and credentials are kept; ${info.command} -- --fresh starts over)`);
	lines.push('', 'Details');
	lines.push(`${pad('Emulator')}${info.emulator.apiUrl}: the service imitated on this machine (API key ${info.emulator.apiKey}),`);
	lines.push(`${more}behind the credential "Document Extraction (local emulator)"; its data lives in memory until Ctrl-C.`);
	lines.push(`${more}${info.emulator.apiUrl}/__emulator/ is its test control (request log, faults, clock), not part of the API.`);
	if (info.chatModelUrl) lines.push(`${pad('Chat model')}${info.chatModelUrl}: scripted and offline, behind the AI agent example's credential "OpenAI account"`);
	lines.push(`${pad('Documents')}${info.documentsDir}  (the examples read documents/*; add your own files here)`);
	lines.push(`${pad('Package')}${info.package.name} ${info.package.version}, built from this repository and unpacked into`);
	lines.push(`${more}${info.package.installedDir}, where n8n loads community packages from at start.`);
	lines.push(`${more}Settings > Community nodes lists only packages installed on that page, so it shows none here;`);
	lines.push(`${more}the nodes are in the nodes panel (search "Document Extraction").`);
	for (const detail of info.extraDetails ?? []) lines.push(`${pad(detail.label)}${detail.text}`);
	lines.push(`${pad('Data')}${info.dataDir}  (0700; kept between starts, and shared by every clone`);
	lines.push(`${more}of this repository on this machine: one sandbox, one login, the same workflows)`);
	lines.push(`${pad('Logs')}${info.logFiles.join(', ')}`);
	for (const note of info.notes ?? []) lines.push('', `Note: ${note}`);
	return lines.join('\n');
}
