/**
 * Once per `npm run test:e2e`: provisions Node 24 and n8n (ensureN8n: minutes when the cache is
 * cold) and builds the package, so that each suite only packs and installs it.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { ensureN8n } from '../../scripts/n8n-runtime';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	await ensureN8n({ log: (line) => process.stderr.write(`[e2e setup] ${line}\n`) });
	const build = spawnSync('npm', ['run', 'build'], { cwd: path.resolve(__dirname, '..', '..'), encoding: 'utf8' });
	if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
	process.stderr.write(`[e2e setup] n8n ready and package built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
