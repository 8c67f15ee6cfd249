/**
 * `npm run start:queue`: n8n in queue mode with this package, locally (dev/n8n/queue/queue-stack.ts):
 * PostgreSQL 17 and Redis as child processes, one n8n main, two `n8n worker`s, the emulator, the
 * example credential and workflows. Data (database, Redis's append-only file, user folders) lives
 * under <cache>/queue/stack and is reused by the next start. Ctrl-C stops everything it started.
 *
 * Options:
 *   --port N            main's port (default 5678, or a free one when taken)
 *   --workers N         number of workers (default 2)
 *   --webhooks N        number of `n8n webhook` processes, behind a round-robin proxy (default 0)
 *   --concurrency N     executions per worker at once (n8n's default 10)
 *   --binary-data MODE  database (default) or filesystem (one N8N_STORAGE_PATH shared by all)
 *   --fresh             start from empty data (new secrets too)
 *   --online            let n8n connect to other hosts (the real service, with your own API key)
 *   --verbose           print every process's output, prefixed with its name
 *
 * The owner's password, N8N_ENCRYPTION_KEY and the PostgreSQL and Redis passwords are the stack's
 * own (random, made at its first start, kept in <data>/sandbox-secrets.json, 0600).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ensureN8n } from './n8n/n8n-runtime';
import { baselineCredential, emulatorCredential, exampleWorkflowFiles, readExample } from './n8n/n8n-stack';
import { hasFlag, importedFingerprint, npmOptionNotes, option, portIsFree, runMain, say, stopper } from './start-cli';
import { engineNote, onlineCommand, readyMessage } from './start-message';
import { startQueueStack, type BinaryDataMode, type QueueStack } from './n8n/queue/queue-stack';

const IMPORT_MARKER = '.dex-queue-imports.json';
const EMULATOR_PORT = 8787;

async function main(): Promise<void> {
	const started = Date.now();
	const fromNpm = npmOptionNotes('npm run start:queue', { flags: ['online', 'fresh'], options: ['port', 'workers', 'webhooks', 'concurrency', 'binary-data'] });
	for (const line of fromNpm.notes) say(line);
	if (fromNpm.error) {
		say(fromNpm.error);
		process.exitCode = 1;
		return;
	}
	const binaryDataMode = (option('binary-data') ?? 'database') as BinaryDataMode;
	if (!['database', 'filesystem'].includes(binaryDataMode)) throw new Error('--binary-data is database or filesystem');
	const workers = Number(option('workers') ?? 2);
	const online = hasFlag('online');
	const note = engineNote();
	if (note) say(note);
	say('Preparing n8n, PostgreSQL 17 and Redis (the first start installs them into the cache: several minutes)...');
	const runtime = await ensureN8n({ log: (line) => say(`  ${line}`) });
	const rootDir = path.join(runtime.cacheDir, 'queue', 'stack');
	if (hasFlag('fresh')) fs.rmSync(rootDir, { recursive: true, force: true });
	fs.mkdirSync(rootDir, { recursive: true });

	// The credential points at the emulator's address: import again only when that (or an example) changed.
	const emulatorPort = (await portIsFree(EMULATOR_PORT)) ? EMULATOR_PORT : 0;
	const markerPath = path.join(rootDir, IMPORT_MARKER);
	const previous = importedFingerprint(markerPath);
	const fingerprintFor = (apiUrl: string) =>
		createHash('sha256')
			.update(JSON.stringify([emulatorCredential(apiUrl), baselineCredential(), exampleWorkflowFiles().map((file) => readExample(file, apiUrl))]))
			.digest('hex');
	const wantedPort = Number(option('port') ?? 5678);

	let stack: QueueStack | undefined;
	const stop = stopper('\nStopping n8n (main and workers), Redis, PostgreSQL and the emulator...', async () => {
		await stack?.stop();
	});

	try {
		stack = await startQueueStack({
			rootDir,
			runtime,
			workers,
			webhookProcesses: Number(option('webhooks') ?? 0),
			workerConcurrency: option('concurrency') ? Number(option('concurrency')) : undefined,
			binaryDataMode,
			port: wantedPort && (await portIsFree(wantedPort)) ? wantedPort : undefined,
			emulator: { port: emulatorPort },
			// A fixed emulator port gives the same fingerprint as last time: the imports are in PostgreSQL already.
			skipImports: emulatorPort !== 0 && previous === fingerprintFor(`http://127.0.0.1:${EMULATOR_PORT}`),
			log: (line) => say(`  ${line}`),
			echo: hasFlag('verbose') ? process.stdout : undefined,
			online,
			onlineHint: onlineCommand('npm run start:queue'),
		});
		fs.writeFileSync(markerPath, JSON.stringify({ fingerprint: fingerprintFor(stack.emulator.apiUrl), importedAt: new Date().toISOString() }, null, 2));
	} catch (error) {
		say(`\nnpm run start:queue failed: ${(error as Error).message}`);
		await stop(1);
		return;
	}

	const { main: n8n, emulator, postgres, redis } = stack;
	say(`
${readyMessage({
	command: 'npm run start:queue',
	seconds: Math.round((Date.now() - started) / 1000),
	url: n8n.url,
	ownerEmail: stack.secrets.ownerEmail,
	ownerPassword: stack.secrets.ownerPassword,
	secretsFile: stack.secretsFile,
	online,
	examples: exampleWorkflowFiles().map((file) => ({ file, name: readExample(file).name, id: readExample(file).id })),
	emulator: { apiUrl: emulator.apiUrl, apiKey: emulator.keys.readWrite },
	documentsDir: path.join(stack.mainFolder, 'documents'),
	package: { name: 'n8n-nodes-document-extraction', version: readPackageVersion(), installedDir: path.join(stack.mainFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-document-extraction') },
	dataDir: rootDir,
	logFiles: [n8n.logFile, ...stack.workers.map((worker) => path.join(worker.userFolder, 'n8n.log'))],
	notes: stack.sharedKey
		? ['This stack was made when every stack had the same encryption key, and keeps it (n8n cannot move an instance to another key). Its passwords are its own now. npm run start:queue -- --fresh makes a new stack with its own key too; its workflows and credentials are not kept.']
		: [],
	extraDetails: [
		{ label: 'Queue mode', text: 'every execution (also "Execute workflow" in the editor) runs on a worker; main serves the editor, API, webhooks and triggers' },
		{ label: 'Workers', text: stack.workers.map((worker) => `${worker.name} (health ${worker.instance!.url}/healthz)`).join(', ') },
		...(stack.webhookProxy
			? [{ label: 'Webhook processes', text: `${stack.webhookProcesses.map((handle) => `${handle.name} (${handle.instance!.url})`).join(', ')} behind a round-robin proxy at ${stack.webhookProxy.url}: give the service ${stack.webhookProxy.url}/webhook/... URLs (a Callback Trigger's Production URL with the proxy's address)` }]
			: []),
		{ label: 'PostgreSQL', text: `127.0.0.1:${postgres.port}, database ${postgres.database}, user ${postgres.user} (password in the secrets file; log ${postgres.logFile})` },
		{ label: 'Redis', text: `127.0.0.1:${redis.port} only, password required (in the secrets file; log ${redis.logFile})` },
		{ label: 'Binaries', text: binaryDataMode === 'filesystem' ? `filesystem (N8N_STORAGE_PATH ${path.join(rootDir, 'storage')})` : 'database (in PostgreSQL)' },
	],
})}
`);
}

function readPackageVersion(): string {
	return (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

runMain(main);
