/**
 * `npm start`: the n8n editor with this package and a local Document Extraction emulator.
 *
 * 1. Provisions Node 24 and n8n 2.41.1 into the cache (ensureN8n: minutes the first time, then
 *    under a second).
 * 2. Builds this package and installs it into the n8n user folder as a community package
 *    (npm pack, unpacked into .n8n/nodes/node_modules/n8n-nodes-document-extraction).
 * 3. Starts the emulator (in this process) and `n8n start`, both on 127.0.0.1.
 * 4. Imports the credential "Document Extraction (local emulator)" (id dexEmulatorCred01) and the
 *    example workflows (examples/*.json), sets up the owner account and prints the URL, the login,
 *    the example to open first, how to stop and how to go online (start-message.ts).
 *    The AI agent example's chat model is a scripted one (dev/model/chat-model.ts) on 127.0.0.1,
 *    behind the OpenAI credential "OpenAI account" (id dexChatModelCred1): it runs offline.
 * 5. Ctrl-C stops n8n and the emulator.
 *
 * The user folder persists under the cache (<cache>/start, 0700), so workflows you build survive a
 * restart; the emulator's data does not (it lives in memory). Its secrets (owner password,
 * N8N_ENCRYPTION_KEY) are made at random at its first start (dev/n8n/sandbox.ts) and kept in
 * <cache>/start/sandbox-secrets.json (0600; dev/n8n/sandbox-state.ts). n8n refuses requests
 * addressed to any host but localhost/127.x/[::1] (host-guard.cjs), and, unless --online, connects
 * to nothing but this machine (loopback-guard.cjs). Options:
 *   --port N        n8n's port (default 5678, or a free one when 5678 is taken)
 *   --emulator-port N   the emulator's API port (default 8787, or a free one when taken)
 *   --model-port N  the scripted chat model's port (default 8790, or a free one when taken)
 *   --fresh         start from an empty user folder (new secrets too)
 *   --online        let n8n connect to other hosts (the real service, with your own API key)
 * Given without `--` (`npm start --online`), a flag reaches npm, which passes it on in the
 * environment (npm_config_online): it is used, and a line says so; an option whose value npm split
 * off (`npm start --port 5000`) stops the start with the command to run instead (start-cli.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

import { startEmulator } from './emulator';
import { chatModelCredential, startOfflineChatModel } from './model/chat-model';
import { startN8n, type N8nInstance } from './n8n/n8n-launcher';
import { followCallbackExample, type CallbackExampleFollower } from './n8n/callback-example';
import { baselineCredential, emulatorCredential, exampleWorkflowFiles, importCredentialsAndWorkflows, readExample } from './n8n/n8n-stack';
import { cachedRuntime, ensureN8n } from './n8n/n8n-runtime';
import { SHARED_KEY_NOTE, prepareSandbox } from './n8n/sandbox';
import { hasFlag, importedFingerprint, npmOptionNotes, option, portIsFree, runMain, say, stopper } from './start-cli';
import { engineNote, provisioningMessage, readyMessage } from './start-message';

const IMPORT_MARKER = '.dex-start-imports.json';

async function choosePort(wanted: number, what: string): Promise<number> {
	if (await portIsFree(wanted)) return wanted;
	say(`${what}: port ${wanted} is taken, using a free one`);
	return 0;
}

async function main(): Promise<void> {
	const started = Date.now();
	// `npm start --online` (without `--`) reaches npm, which passes it on as npm_config_online.
	const fromNpm = npmOptionNotes('npm start', { flags: ['online', 'fresh'], options: ['port', 'emulator-port', 'model-port'] });
	for (const line of fromNpm.notes) say(line);
	if (fromNpm.error) {
		say(fromNpm.error);
		process.exitCode = 1;
		return;
	}
	const online = hasFlag('online');
	const note = engineNote();
	if (note) say(note);
	say(provisioningMessage(cachedRuntime()));
	const runtime = await ensureN8n({ log: (line) => say(`  ${line}`) });
	const userFolder = path.join(runtime.cacheDir, 'start');
	if (hasFlag('fresh')) fs.rmSync(userFolder, { recursive: true, force: true });

	const { prepared, secretsFile, owner, formerOwnerPasswords, sharedKey } = await prepareSandbox({ userFolder, runtime, log: say });

	const emulatorPort = await choosePort(Number(option('emulator-port') ?? 8787), 'Emulator');
	const emulator = await startEmulator({ port: emulatorPort, processingDelayMs: 300 });
	const chatModel = await startOfflineChatModel(await choosePort(Number(option('model-port') ?? 8790), 'Scripted chat model'));
	let n8n: N8nInstance | undefined;
	let follower: CallbackExampleFollower | undefined;
	const stop = stopper('\nStopping n8n, the emulator and the scripted chat model...', async () => {
		follower?.stop();
		await n8n?.stop();
		await emulator.close();
		await chatModel.close();
	});

	try {
		// Credential and examples are imported when they changed since the last start (each import boots n8n for a few seconds).
		const workflows = exampleWorkflowFiles().map((file) => readExample(file, emulator.apiUrl));
		const fingerprint = createHash('sha256')
			.update(JSON.stringify([emulatorCredential(emulator.apiUrl), baselineCredential(), chatModelCredential(chatModel.baseUrl), workflows]))
			.digest('hex');
		const markerPath = path.join(userFolder, IMPORT_MARKER);
		if (importedFingerprint(markerPath) !== fingerprint) {
			say(`Importing the emulator credential and ${workflows.length} example workflows...`);
			await importCredentialsAndWorkflows(prepared.cli, emulator, workflows, [chatModelCredential(chatModel.baseUrl)]);
			fs.writeFileSync(markerPath, JSON.stringify({ fingerprint, importedAt: new Date().toISOString() }, null, 2), { mode: 0o600 });
		}

		const port = await choosePort(Number(option('port') ?? 5678), 'n8n');
		say('Starting n8n...');
		n8n = await startN8n({ userFolder, runtime, port: port || undefined, env: prepared.env, owner, online, formerOwnerPasswords });
		// As a user sets it in the dashboard once the workflow listens: the emulator calls the Callback Trigger example after
		// each upload while the example is published, and no URL while it is not (n8n would log every call as an unknown webhook).
		follower = followCallbackExample({
			n8n,
			emulator,
			onChange: (published) =>
				say(
					published
						? 'The Callback Trigger example is published: the emulator now calls it after each upload.'
						: 'The Callback Trigger example is no longer published: the emulator calls it no more.',
				),
		});
		await follower.check();
	} catch (error) {
		say(`\nnpm start failed: ${(error as Error).message}`);
		await stop(1);
		return;
	}

	say(`
${readyMessage({
	command: 'npm start',
	seconds: Math.round((Date.now() - started) / 1000),
	url: n8n.url,
	ownerEmail: owner.email,
	ownerPassword: owner.password,
	secretsFile,
	online,
	examples: exampleWorkflowFiles().map((file) => ({ file, name: readExample(file).name, id: readExample(file).id })),
	emulator: { apiUrl: emulator.apiUrl, apiKey: emulator.keys.readWrite },
	chatModelUrl: chatModel.baseUrl,
	documentsDir: prepared.documentsDir,
	package: prepared.installed,
	dataDir: userFolder,
	logFiles: [n8n.logFile],
	notes: sharedKey ? [SHARED_KEY_NOTE] : [],
})}
`);
}

runMain(main);
