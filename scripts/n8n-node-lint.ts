/**
 * `npm run lint:n8n-node`: the official lint of n8n's node CLI (`n8n-node lint` from
 * @n8n/node-cli) over the shipped code, with the CLI's own template eslint.config.mjs, exactly as
 * a package scaffolded by `npm create @n8n/node` is linted. The CLI is installed into the cache
 * on first use (its dependency scripts demand pnpm, so it cannot be a dev dependency installed by
 * `npm ci`), and runs on the Node that n8n runs on (it wants Node 24; n8n itself is not installed for it).
 *
 * It lints a copy of nodes/, credentials/, icons/, package.json and tsconfig.json in a folder
 * beside the CLI's node_modules: our own eslint.config.mjs is not the template (it also turns
 * inline disables off), and strict packages may not change the template.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ensureCachedTool } from '../dev/n8n/cached-tool';
import { ensureNodeOf } from '../dev/n8n/n8n-runtime';
import { runCommand } from '../dev/n8n/run-command';

export const NODE_CLI_VERSION = '0.48.3';
const REPOSITORY_ROOT = path.resolve(__dirname, '..');
const LINTED = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[n8n-node lint] ${line}\n`);
	const entry = path.join('node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
	const dir = await ensureCachedTool(
		{ folder: `node-cli-${NODE_CLI_VERSION}`, manifest: { dependencies: { '@n8n/node-cli': NODE_CLI_VERSION } }, entry },
		log,
	);
	const stage = path.join(dir, 'package');
	fs.rmSync(stage, { recursive: true, force: true });
	fs.mkdirSync(stage);
	for (const name of LINTED) fs.cpSync(path.join(REPOSITORY_ROOT, name), path.join(stage, name), { recursive: true });
	// `n8n-node lint` runs `npm exec -- eslint`, which looks in the linted package's own node_modules.
	fs.symlinkSync(path.join(dir, 'node_modules'), path.join(stage, 'node_modules'));
	fs.copyFileSync(
		path.join(dir, 'node_modules', '@n8n', 'node-cli', 'dist', 'template', 'templates', 'shared', 'default', 'eslint.config.mjs'),
		path.join(stage, 'eslint.config.mjs'),
	);
	const { nodeBin, nodeVersion, env } = await ensureNodeOf();
	log(`@n8n/node-cli ${NODE_CLI_VERSION} on Node ${nodeVersion} over ${LINTED.join(', ')}`);
	try {
		const output = await runCommand(nodeBin, [path.join(dir, entry), 'lint'], { cwd: stage, env: { ...env, PATH: `${path.dirname(nodeBin)}:${process.env.PATH}` } });
		process.stdout.write(output);
		log('0 problems');
	} catch (error) {
		process.stdout.write(`${(error as Error).message}\n`);
		process.exitCode = 1;
	}
}

void main();
