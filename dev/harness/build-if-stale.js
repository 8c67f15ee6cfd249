#!/usr/bin/env node
'use strict';
/**
 * Builds a package (`npm run build`) unless its sources are unchanged since the last build made
 * here. Run under a lock by dev/harness/build.ts, so concurrent jest workers build once.
 * Usage: node build-if-stale.js <packageDir>
 * Exit 0: built or up to date. Otherwise the build's exit code, with its output on stderr.
 */
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const SOURCE_DIRS = ['nodes', 'credentials', 'icons'];
const SOURCE_FILES = ['package.json', 'tsconfig.json', 'gulpfile.js', 'index.js'];

function listFiles(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) => {
			const path = join(dir, entry.name);
			return entry.isDirectory() ? listFiles(path) : [path];
		})
		.sort();
}

function sourceHash(packageDir) {
	const hash = createHash('sha256');
	const files = [
		...SOURCE_FILES.map((file) => join(packageDir, file)).filter((file) => existsSync(file)),
		...SOURCE_DIRS.flatMap((dir) => listFiles(join(packageDir, dir))),
	];
	for (const file of files) {
		hash.update(file.slice(packageDir.length));
		hash.update('\0');
		hash.update(readFileSync(file));
		hash.update('\0');
	}
	return hash.digest('hex');
}

/** Files named in package.json's `n8n` section that do not exist. */
function missingOutputs(packageDir) {
	const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const n8n = packageJson.n8n ?? {};
	const outputs = [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])];
	return outputs.filter((file) => !existsSync(join(packageDir, file)));
}

function main() {
	const packageDir = resolve(process.argv[2] ?? '.');
	const stampDir = join(packageDir, 'node_modules', '.cache', 'harness-build');
	// One stamp per package folder: git worktrees may share one node_modules (a symlink), and each
	// has its own dist/; with one stamp for all, every worktree's run rebuilt after another's.
	const folderKey = createHash('sha256').update(packageDir).digest('hex').slice(0, 16);
	const stampFile = join(stampDir, `source-${folderKey}.sha256`);
	const hash = sourceHash(packageDir);
	if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash && missingOutputs(packageDir).length === 0) {
		process.stdout.write(`harness build: ${packageDir} is up to date\n`);
		return 0;
	}
	const started = Date.now();
	const build = spawnSync('npm', ['run', 'build'], {
		cwd: packageDir,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		env: { ...process.env, FORCE_COLOR: '0' },
	});
	if (build.error) {
		process.stderr.write(`harness build: could not run npm: ${build.error.message}\n`);
		return 1;
	}
	if (build.status !== 0) {
		process.stderr.write(build.stdout);
		process.stderr.write(build.stderr);
		return build.status ?? 1;
	}
	const missing = missingOutputs(packageDir);
	if (missing.length > 0) {
		process.stderr.write(build.stdout);
		process.stderr.write(
			`harness build: the build succeeded but these files named in package.json "n8n" are missing (n8n would not load the package): ${missing.join(', ')}\n`,
		);
		return 1;
	}
	mkdirSync(stampDir, { recursive: true });
	// Hash again: a source edited during the build must make the next run build again.
	if (sourceHash(packageDir) === hash) writeFileSync(stampFile, hash);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	process.stdout.write(`harness build: built ${packageDir} in ${seconds} s\n`);
	return 0;
}

process.exitCode = main();
