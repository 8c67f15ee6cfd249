/**
 * `npm start`'s user folder made ready: its own secrets (dev/n8n/sandbox-state.ts), the package
 * installed (prepareUserFolder) and the environment that makes n8n use them. start.ts runs n8n
 * with `owner` and `prepared.env`; test/e2e/sandbox.test.ts does the same in a temp folder.
 *
 * A folder made before the secrets were random (n8n's settings file, no secrets file) gets a
 * random owner password (the launcher changes it from the former fixed one at the next start)
 * but keeps the encryption key it has: n8n 2.41 cannot move an instance to another key, so only
 * `npm start -- --fresh` gives it its own (`sharedKey` says so).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { removeScratchFolders } from './n8n-cli';
import { DEFAULT_OWNER, type Owner } from './n8n-env';
import type { N8nRuntime } from './n8n-runtime';
import { prepareUserFolder, type PreparedFolder } from './n8n-stack';
import { FORMER_FIXED, SECRETS_FILE, sandboxSecrets, settingsFileKey, tightenStateModes, type SandboxSecrets } from './sandbox-state';
import { onlineCommand } from '../start-message';

export interface SandboxOptions {
	userFolder: string;
	runtime: N8nRuntime;
	/** Build the package first (default true). */
	build?: boolean;
	log?: (line: string) => void;
}

export interface Sandbox {
	prepared: PreparedFolder;
	secrets: SandboxSecrets;
	secretsFile: string;
	/** The secrets were made by this call (a new folder, or one from before they were random). */
	created: boolean;
	/** The owner startN8n sets up or logs in as (the password from the secrets file). */
	owner: Owner;
	/** Passwords the owner may still have (a folder from before): startN8n changes them to the new one. */
	formerOwnerPasswords: string[];
	/** The folder still has the encryption key every sandbox had before the secrets were random. */
	sharedKey: boolean;
}

/** What start.ts prints for a folder that keeps the former shared key. */
export const SHARED_KEY_NOTE =
	'This sandbox was made when every sandbox had the same encryption key, and keeps it (n8n cannot move an instance to another key). Its password is its own now. npm start -- --fresh makes a new sandbox with its own key too; its workflows and credentials are not kept (export what you need first).';

export async function prepareSandbox(options: SandboxOptions): Promise<Sandbox> {
	const { userFolder, runtime } = options;
	const log = options.log ?? (() => undefined);
	// A folder from before the secrets were random has n8n's settings file (its key) but no secrets file.
	const existingKey = fs.existsSync(path.join(userFolder, SECRETS_FILE)) ? undefined : settingsFileKey(userFolder);
	const { secrets, file: secretsFile, created } = sandboxSecrets(userFolder, { existingKey });
	if (created) log(`Made this sandbox's own owner password${existingKey ? '' : ' and encryption key'} (${secretsFile}, readable by you only)`);

	log('Building and installing the package as a community package...');
	const prepared = await prepareUserFolder({
		userFolder,
		runtime,
		build: options.build ?? true,
		log: (line) => log(`  ${line}`),
		env: { N8N_ENCRYPTION_KEY: secrets.encryptionKey, LOOPBACK_GUARD_ONLINE_HINT: onlineCommand('npm start') },
	});
	// Also what an older version left 0644 (n8n's database) and what the install just made.
	tightenStateModes(userFolder);
	// And the import-* scratch folders older versions left behind after each import.
	removeScratchFolders(userFolder);
	return {
		prepared,
		secrets,
		secretsFile,
		created,
		owner: { ...DEFAULT_OWNER, email: secrets.ownerEmail, password: secrets.ownerPassword },
		formerOwnerPasswords: [FORMER_FIXED.ownerPassword],
		sharedKey: secrets.encryptionKey === FORMER_FIXED.encryptionKey,
	};
}
