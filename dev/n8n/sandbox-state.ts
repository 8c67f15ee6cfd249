/**
 * The sandboxes' own secrets and the modes of their state files (`npm start`, `npm run start:queue`).
 *
 * - `sandboxSecrets(folder)`: the owner's password, N8N_ENCRYPTION_KEY and the queue stack's
 *   PostgreSQL and Redis passwords, made once per sandbox data folder from `crypto.randomBytes`
 *   and kept in `<folder>/sandbox-secrets.json` (mode 0600, the folder 0700); later starts read
 *   them back, so a sandbox keeps its login and can decrypt its credentials. `--fresh` deletes the
 *   folder, and with it the secrets: the next start makes new ones.
 * - `privateDir()`, `writePrivateFile()`, `tightenStateModes()`: folders 0700, files 0600 (also
 *   what an older version left 0644, such as n8n's database).
 * - `spawnPrivate()`: starts a child (n8n, PostgreSQL, Redis) with umask 077, so what it creates
 *   (database, settings file, logs, Redis's append-only file) is 0600 in 0700 folders.
 * - A folder made before the secrets were random (it has n8n's settings file but no secrets file)
 *   keeps the encryption key it has (`settingsFileKey()`): n8n 2.41 cannot change an instance's
 *   key (besides credentials, its deployment keys in the database are encrypted with it, and n8n
 *   refuses to start when they do not decrypt), so only `--fresh` gives such a folder its own.
 *   Its owner password is changed from the former fixed one (`FORMER_FIXED`) by the launcher.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SECRETS_FILE = 'sandbox-secrets.json';
export const OWNER_EMAIL = 'owner@example.com';

/**
 * What every sandbox used before its secrets were random (the README printed them). Used only to
 * move a sandbox folder made then onto random secrets; nothing new is made with them.
 */
export const FORMER_FIXED = {
	ownerPassword: 'Extraction-Demo-2026',
	encryptionKey: 'n8n-nodes-document-extraction-local-only',
	postgresPassword: 'n8n-queue-local-only',
} as const;

export interface SandboxSecrets {
	ownerEmail: string;
	/** The n8n owner's password (n8n's rules: 8 to 64 characters, a digit and an upper-case letter). */
	ownerPassword: string;
	/** N8N_ENCRYPTION_KEY: n8n encrypts stored credentials with it. */
	encryptionKey: string;
	/** Queue mode: the PostgreSQL user's password (set when the cluster is made). */
	postgresPassword: string;
	/** Queue mode: Redis's `requirepass`. */
	redisPassword: string;
	createdAt: string;
}

const FIELDS = ['ownerEmail', 'ownerPassword', 'encryptionKey', 'postgresPassword', 'redisPassword', 'createdAt'] as const;

/** Letters and digits without look-alikes (0/O, 1/l/I). */
const PASSWORD_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Four groups of five characters (about 116 bits), with a digit, an upper- and a lower-case letter. */
export function newOwnerPassword(): string {
	for (;;) {
		const groups = Array.from({ length: 4 }, () => Array.from({ length: 5 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join(''));
		const password = groups.join('-');
		if (/\d/.test(password) && /[A-Z]/.test(password) && /[a-z]/.test(password)) return password;
	}
}

function newSecret(field: (typeof FIELDS)[number]): string {
	switch (field) {
		case 'ownerEmail':
			return OWNER_EMAIL;
		case 'ownerPassword':
			return newOwnerPassword();
		case 'encryptionKey':
			return randomBytes(32).toString('base64url');
		case 'postgresPassword':
			return randomBytes(24).toString('hex');
		case 'redisPassword':
			return randomBytes(24).toString('hex');
		case 'createdAt':
			return new Date().toISOString();
	}
}

/** Creates `dir` (and its parents) and makes it 0700, also when it existed with another mode. */
export function privateDir(dir: string): string {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(dir, 0o700);
	return dir;
}

/** Writes `text` to `file` as 0600 (a temp file beside it, then a rename: never half written, never readable by others). */
export function writePrivateFile(file: string, text: string): void {
	const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	fs.writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
	fs.chmodSync(temp, 0o600);
	fs.renameSync(temp, file);
}

export interface LoadedSecrets {
	secrets: SandboxSecrets;
	/** <folder>/sandbox-secrets.json */
	file: string;
	/** True when this call made them (a new sandbox folder, or one made before they were random). */
	created: boolean;
}

/**
 * The sandbox's secrets: read from `<folder>/sandbox-secrets.json`, or made and written there the
 * first time (the folder made 0700, the file 0600; a file found with a wider mode is narrowed).
 * A field missing from an older file is added; the others are never changed. `existingKey`: the
 * encryption key n8n already uses in this folder (one made before the secrets file), taken as is
 * when the secrets are made.
 */
export function sandboxSecrets(folder: string, options: { existingKey?: string } = {}): LoadedSecrets {
	privateDir(folder);
	const file = path.join(folder, SECRETS_FILE);
	let stored: Partial<Record<(typeof FIELDS)[number], unknown>> = {};
	let created = true;
	if (fs.existsSync(file)) {
		fs.chmodSync(file, 0o600);
		stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
		created = false;
	}
	const secrets = {} as SandboxSecrets;
	let changed = created;
	for (const field of FIELDS) {
		const value = stored[field];
		if (typeof value === 'string' && value !== '') {
			secrets[field] = value;
		} else if (field === 'encryptionKey' && options.existingKey) {
			secrets[field] = options.existingKey;
			changed = true;
		} else {
			secrets[field] = newSecret(field);
			changed = true;
		}
	}
	if (changed) writePrivateFile(file, `${JSON.stringify(secrets, null, 2)}\n`);
	return { secrets, file, created };
}

/**
 * Folder 0700, and in it and in its `.n8n/`: sub-folders 0700 and files 0600 (n8n's database and
 * its journal files, settings file, event logs, our logs). Deeper entries are left as they are:
 * a 0700 folder above them already keeps other users out. Symbolic links are not followed.
 */
export function tightenStateModes(folder: string): void {
	if (!fs.existsSync(folder)) return;
	for (const dir of [folder, path.join(folder, '.n8n')]) {
		if (!fs.existsSync(dir)) continue;
		fs.chmodSync(dir, 0o700);
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const entryPath = path.join(dir, entry.name);
			if (entry.isDirectory()) fs.chmodSync(entryPath, 0o700);
			else if (entry.isFile()) fs.chmodSync(entryPath, 0o600);
		}
	}
}

/**
 * `spawn` with the umask 077 in the child: files it creates are 0600, folders 0700. (A child
 * takes its parent's umask at the moment it is made; this process's own is restored at once.)
 */
export function spawnPrivate(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
	const previous = process.umask(0o077);
	try {
		return spawn(command, args, options);
	} finally {
		process.umask(previous);
	}
}

// ---------------------------------------------------------------------------------------------
// Folders made before the secrets were random

/** n8n's settings file in a user folder (it holds the encryption key n8n checks N8N_ENCRYPTION_KEY against). */
export function settingsFile(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'config');
}

/** The encryption key n8n's settings file in `userFolder` holds, or undefined when it has none. */
export function settingsFileKey(userFolder: string): string | undefined {
	try {
		const settings = JSON.parse(fs.readFileSync(settingsFile(userFolder), 'utf8')) as { encryptionKey?: unknown };
		return typeof settings.encryptionKey === 'string' ? settings.encryptionKey : undefined;
	} catch {
		return undefined;
	}
}
