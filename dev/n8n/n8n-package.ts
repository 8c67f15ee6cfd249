/**
 * Installs a node package into an n8n user folder the way n8n installs a community package
 * (n8n 2.41 CommunityPackagesService.downloadPackage): `npm pack`, the tarball unpacked into
 * `$N8N_USER_FOLDER/.n8n/nodes/node_modules/<name>`, devDependencies / peerDependencies /
 * optionalDependencies dropped from its package.json, and the package recorded in
 * `.n8n/nodes/package.json`. n8n then runs `npm install` in the package folder for runtime
 * dependencies; a verified community package has none, so this refuses a package that has some
 * instead of installing them.
 *
 * The tarball (not a copy of dist/) is what a user gets from the registry: only the files that
 * package.json's `files` publishes, so a file missing from the package is missing here too.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { runCommand } from './run-command';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

export interface InstallPackageOptions {
	/** The package to install; default: this repository. */
	packageDir?: string;
	/** Run `npm run build` first; default: true. */
	build?: boolean;
	log?: (line: string) => void;
}

export interface InstalledPackage {
	name: string;
	version: string;
	/** .../.n8n/nodes/node_modules/<name> */
	installedDir: string;
	/** The files the tarball held (relative to the package root). */
	files: string[];
}

export async function installPackageInto(userFolder: string, options: InstallPackageOptions = {}): Promise<InstalledPackage> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[n8n-package] ${line}\n`));
	const packageDir = path.resolve(options.packageDir ?? REPOSITORY_ROOT);

	if (options.build ?? true) {
		log(`npm run build in ${packageDir}`);
		await runCommand('npm', ['run', 'build'], { cwd: packageDir });
	}

	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const { name, version, files, directory: installedDir } = await unpackPackage(packageDir, (packed) =>
		path.join(nodesDir, 'node_modules', packed),
	);

	const manifestPath = path.join(installedDir, 'package.json');
	const { devDependencies: _dev, peerDependencies: _peer, optionalDependencies: _optional, ...manifest } = JSON.parse(
		fs.readFileSync(manifestPath, 'utf8'),
	) as Record<string, unknown>;
	const runtimeDependencies = Object.keys((manifest.dependencies as object | undefined) ?? {});
	if (runtimeDependencies.length > 0) {
		throw new Error(`${name} has runtime dependencies (${runtimeDependencies.join(', ')}); a verified community package has none`);
	}
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

	const ledgerPath = path.join(nodesDir, 'package.json');
	const ledger = fs.existsSync(ledgerPath)
		? (JSON.parse(fs.readFileSync(ledgerPath, 'utf8')) as { dependencies?: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} };
	ledger.dependencies = { ...ledger.dependencies, [name]: version };
	fs.writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2));

	log(`installed ${name}@${version} (${files.length} files) into ${installedDir}`);
	return { name, version, installedDir, files };
}

export interface UnpackedPackage {
	name: string;
	version: string;
	/** The folder holding the unpacked package (package.json at its root). */
	directory: string;
	/** The files the tarball held (relative to the package root). */
	files: string[];
}

/**
 * The package exactly as npm would publish it: `npm pack` (scripts off: a prepack/prepare script
 * must not run, or download, here), the tarball unpacked into the folder `targetDirFor(name)`
 * (emptied first), the tarball removed.
 */
export async function unpackPackage(
	packageDir: string,
	targetDirFor: (packageName: string) => string,
): Promise<UnpackedPackage> {
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-pack-'));
	try {
		const packed = JSON.parse(
			await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: packageDir }),
		) as Array<{ name: string; version: string; filename: string; files: Array<{ path: string }> }>;
		const { name, version, filename, files } = packed[0];
		const directory = targetDirFor(name);
		fs.rmSync(directory, { recursive: true, force: true });
		fs.mkdirSync(directory, { recursive: true });
		await runCommand('tar', ['-xzf', path.join(packDir, filename), '-C', directory, '--strip-components=1'], { cwd: packDir });
		return { name, version, directory, files: files.map((file) => file.path) };
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
}

