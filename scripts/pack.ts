/**
 * `npm run pack [-- --destination DIR]`: builds the package and writes the tarball users install
 * (`npm pack`: only what package.json's `files` publishes, as the registry would serve it), then
 * prints the tarball's absolute path, alone, on stdout (progress goes to stderr), so that
 *
 *   TARBALL="$(npm run --silent pack)"
 *
 * holds it. DIR defaults to the repository root. How to install the tarball into a self-hosted n8n
 * (plain and Docker): docs/install.md. The publish workflow packs the release with this command too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { runCommand } from '../dev/n8n/run-command';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..');

export interface PackResult {
	/** Absolute path of the tarball. */
	tarball: string;
	name: string;
	version: string;
	files: number;
	bytes: number;
}

/** Builds (`npm run build`) and packs (`npm pack`, scripts off) into `destination`. */
export async function packTarball(destination: string, log: (line: string) => void = () => undefined): Promise<PackResult> {
	const dir = path.resolve(destination);
	fs.mkdirSync(dir, { recursive: true });
	log('npm run build');
	await runCommand('npm', ['run', 'build'], { cwd: REPOSITORY_ROOT });
	log(`npm pack --pack-destination ${dir}`);
	const output = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPOSITORY_ROOT });
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ name: string; version: string; filename: string; size: number; files: unknown[] }>;
	return { tarball: path.join(dir, packed.filename), name: packed.name, version: packed.version, files: packed.files.length, bytes: packed.size };
}

function destinationArgument(argv: string[]): string {
	const index = argv.indexOf('--destination');
	if (index >= 0) {
		const value = argv[index + 1];
		if (!value) throw new Error('--destination needs a folder');
		return value;
	}
	const inline = argv.find((arg) => arg.startsWith('--destination='));
	return inline ? inline.slice('--destination='.length) : REPOSITORY_ROOT;
}

async function main(): Promise<void> {
	const log = (line: string) => process.stderr.write(`${line}\n`);
	const packed = await packTarball(destinationArgument(process.argv.slice(2)), log);
	log(`${packed.name} ${packed.version}: ${packed.files} files, ${(packed.bytes / 1024).toFixed(0)} kB packed`);
	log('Install it into a self-hosted n8n (then restart n8n; Docker: docs/install.md):');
	log(`  mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --legacy-peer-deps ${packed.tarball}`);
	process.stdout.write(`${packed.tarball}\n`);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(1);
	});
}
