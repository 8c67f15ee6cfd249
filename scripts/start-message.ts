/**
 * What `npm start` says before it provisions n8n: what it will actually do, given what the cache
 * already holds (cachedRuntime() in n8n-runtime.ts).
 */
import type { N8nRuntime } from './n8n-runtime';

/** The cold install figures measured in scripts/README.md (2 cores, the committed lockfile). */
export const COLD_INSTALL_NOTE = 'about 4 minutes here (213 s), up to 9 on a busy machine';

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
