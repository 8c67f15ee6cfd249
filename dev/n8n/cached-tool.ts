/**
 * Development tools that stay out of the repository's own dependencies (their installs need
 * dependency scripts off, or pull in hundreds of packages the tests never load): each is
 * installed from the npm registry once into its own folder of the cache that holds n8n
 * (<cache>/<name>-<version>/), with a marker written when the install completed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { defaultCacheDir } from './n8n-runtime';
import { runCommand } from './run-command';

const MARKER_FILE = '.installed.json';

export interface CachedTool {
	/** Folder name under the cache, e.g. `verdaccio-6.10.4`. */
	folder: string;
	/** The package.json written there (dependencies, overrides). */
	manifest: Record<string, unknown>;
	/** A file that must exist after the install, relative to the folder (the tool's bin script). */
	entry: string;
}

/** Installs the tool on first use (`npm install --ignore-scripts`); returns the folder. */
export async function ensureCachedTool(tool: CachedTool, log: (line: string) => void): Promise<string> {
	const dir = path.join(defaultCacheDir(), tool.folder);
	const marker = path.join(dir, MARKER_FILE);
	if (fs.existsSync(marker) && fs.existsSync(path.join(dir, tool.entry))) return dir;
	const started = Date.now();
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, ...tool.manifest }, null, 2));
	log(`installing ${tool.folder} from the npm registry into ${dir}`);
	await runCommand('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
	if (!fs.existsSync(path.join(dir, tool.entry))) throw new Error(`${tool.folder} was installed but ${tool.entry} is missing`);
	fs.writeFileSync(marker, JSON.stringify({ folder: tool.folder, installedAt: new Date().toISOString() }));
	log(`${tool.folder} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return dir;
}
