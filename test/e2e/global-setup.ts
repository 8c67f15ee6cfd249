/**
 * Once per `npm run test:e2e`: provisions Node and n8n (ensureN8n: minutes when the cache is
 * cold; $N8N_E2E_VERSION picks the n8n, default 2.41.1 on Node 24) and builds the package, so
 * that each suite only packs and installs it.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { ensureN8n } from '../../dev/n8n/n8n-runtime';
import { e2eN8nVersion } from './helpers';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const runtime = await ensureN8n({ n8nVersion: e2eN8nVersion(), log: (line) => process.stderr.write(`[e2e setup] ${line}\n`) });
	const build = spawnSync('npm', ['run', 'build'], { cwd: path.resolve(__dirname, '..', '..'), encoding: 'utf8' });
	if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
	process.stderr.write(`[e2e setup] n8n ${runtime.n8nVersion} (Node ${runtime.nodeVersion}) ready and package built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
