/**
 * `npm start`'s first line says what it will do with the cache as it is: use the cached n8n, or
 * install what is missing (with the cold time measured in scripts/README.md), never "several
 * minutes" when nothing needs installing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8N_VERSION, NODE_VERSION, cachedRuntime } from '../../scripts/n8n-runtime';
import { COLD_INSTALL_NOTE, provisioningMessage } from '../../scripts/start-message';

let emptyCache: string;

beforeAll(() => {
	emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-empty-cache-'));
});

afterAll(() => {
	fs.rmSync(emptyCache, { recursive: true, force: true });
});

describe('npm start: the provisioning message', () => {
	it('an empty cache: installs Node and n8n, once, with the measured cold time', () => {
		const status = cachedRuntime({ cacheDir: emptyCache });

		expect(status).toMatchObject({ nodeReady: false, n8nReady: false });
		expect(provisioningMessage(status)).toBe(
			`Installing Node ${NODE_VERSION} and n8n ${N8N_VERSION} from the npm registry into ${emptyCache}: once only, ${COLD_INSTALL_NOTE}...`,
		);
	});

	it('both cached: says it uses the cached n8n and where, and nothing about installing', () => {
		const { runtime } = cachedRuntime({ cacheDir: emptyCache });

		const message = provisioningMessage({ runtime, nodeReady: true, n8nReady: true });

		expect(message).toBe(`Using the cached n8n ${N8N_VERSION} on Node ${NODE_VERSION} at ${path.join(emptyCache, `n8n-${N8N_VERSION}`)}`);
		expect(message).not.toMatch(/install|minutes/i);
	});

	it('Node cached, n8n not: installs n8n only and says Node is kept', () => {
		const { runtime } = cachedRuntime({ cacheDir: emptyCache });

		expect(provisioningMessage({ runtime, nodeReady: true, n8nReady: false })).toBe(
			`Installing n8n ${N8N_VERSION} from the npm registry into ${emptyCache} (Node ${NODE_VERSION} is already cached): once only, ${COLD_INSTALL_NOTE}...`,
		);
	});

	it('scripts/README.md holds the cold install figure the message quotes', () => {
		const scriptsReadme = fs.readFileSync(path.join(__dirname, '..', '..', 'scripts', 'README.md'), 'utf8');
		const seconds = /\((\d+) s\)/.exec(COLD_INSTALL_NOTE)?.[1];

		expect(seconds).toBeDefined();
		expect(scriptsReadme).toContain(`cold with the committed lockfile ${seconds} s`);
	});
});
