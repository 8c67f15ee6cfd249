/**
 * What every n8n process of this repository starts with: the headless environment (127.0.0.1,
 * nothing calls home), the preloads host-guard.cjs (requests must be addressed to localhost,
 * 127.x or [::1]) and, unless `online`, loopback-guard.cjs (connections to anything but this
 * machine are refused and recorded), the test instances' key and owner, free ports and folders.
 *
 * Test instances share one encryption key and owner (ENCRYPTION_KEY, DEFAULT_OWNER: throwaway
 * folders, never printed for a user); the sandboxes (`npm start`, `npm run start:queue`) pass their
 * own random ones (dev/n8n/sandbox-state.ts). n8n refuses to open a user folder with another key.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The key of test instances (throwaway folders); the sandboxes make their own (sandbox-state.ts). */
export const ENCRYPTION_KEY = 'n8n-nodes-document-extraction-local-only';
/** The owner of test instances (throwaway folders); the sandboxes make their own password (sandbox-state.ts). */
export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Extraction-Demo-2026',
};

export type Owner = typeof DEFAULT_OWNER;

const LOOPBACK_GUARD = path.join(__dirname, 'loopback-guard.cjs');
const HOST_GUARD = path.join(__dirname, 'host-guard.cjs');
const DNS_BLOCK = path.join(__dirname, 'dns-block.cjs');

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

/**
 * Over headlessEnv(userFolder, { online: true }): an n8n that may connect anywhere, on a network
 * whose DNS answers nothing but localhost (dns-block.cjs), to show what a user behind such a
 * network sees (the credential test's and the node's words for an unknown host).
 */
export function dnsBlockedEnv(): Record<string, string> {
	return { NODE_OPTIONS: `--require ${HOST_GUARD} --require ${DNS_BLOCK}`, DNS_BLOCK: '1' };
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
