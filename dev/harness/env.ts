/**
 * Process environment for the in-process n8n engine. Imported first by every harness module:
 * n8n-core reads these variables when its services are first constructed, and it writes
 * `$N8N_USER_FOLDER/.n8n/config`, which must land in a private temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function ensureUserFolder(): string {
	const existing = process.env.N8N_HARNESS_USER_FOLDER;
	if (existing) return existing;
	const folder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_HARNESS_USER_FOLDER = folder;
	process.once('exit', () => {
		try {
			rmSync(folder, { recursive: true, force: true });
		} catch {
			// A temporary folder: removing it is a courtesy.
		}
	});
	return folder;
}

export const harnessUserFolder = ensureUserFolder();

const defaults: Record<string, string> = {
	N8N_ENCRYPTION_KEY: 'harness-encryption-key',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
};

// The folders are always ours; the rest may be overridden by whoever runs the tests.
process.env.N8N_USER_FOLDER = harnessUserFolder;
process.env.N8N_BINARY_DATA_STORAGE_PATH = join(harnessUserFolder, 'binaryData');
for (const [name, value] of Object.entries(defaults)) {
	if (process.env[name] === undefined) process.env[name] = value;
}
