/**
 * ensureBuilt(): our package is tested the way n8n loads it, from the compiled files under
 * dist/. The build (`npm run build`: tsc, then gulp) runs at most once per change of the sources:
 * under a file lock (concurrent jest workers and helpers wait for each other) a script compares
 * a hash of the sources with the one stamped by the last successful build.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { REPO_ROOT } from './registry-paths';

/** The script that builds the package when its sources changed (run under the lock by ensureBuilt). */
export const BUILD_SCRIPT = join(__dirname, 'build-if-stale.js');
const BUILD_TIMEOUT_MS = 5 * 60 * 1000;

export class PackageBuildError extends Error {
	constructor(
		readonly packageDir: string,
		readonly exitCode: number | null,
		readonly output: string,
	) {
		super(`Building ${packageDir} failed (npm run build, exit code ${exitCode}):\n${output}`);
		this.name = 'PackageBuildError';
	}
}

/** The lock file serialising builds: HARNESS_BUILD_LOCK, else /tmp/team/build.lock, else tmpdir. */
export function buildLockPath(): string {
	if (process.env.HARNESS_BUILD_LOCK) return process.env.HARNESS_BUILD_LOCK;
	if (existsSync('/tmp/team')) return '/tmp/team/build.lock';
	return join(tmpdir(), 'n8n-nodes-document-extraction-build.lock');
}

/** npm's warnings about this machine's npm config say nothing about the build. */
function withoutNpmConfigWarnings(output: string): string {
	return output
		.split('\n')
		.filter((line) => !/^npm warn Unknown (env|user|project|builtin) config/.test(line))
		.join('\n')
		.trim();
}

async function runLockedBuild(packageDir: string): Promise<string> {
	return await new Promise((resolvePromise, reject) => {
		const child = spawn('flock', [buildLockPath(), process.execPath, BUILD_SCRIPT, packageDir], {
			cwd: packageDir,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGTERM'), BUILD_TIMEOUT_MS);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(new PackageBuildError(packageDir, null, `could not run flock: ${error.message}`));
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			if (code === 0) resolvePromise(output);
			else reject(new PackageBuildError(packageDir, code, withoutNpmConfigWarnings(output)));
		});
	});
}

const builds = new Map<string, Promise<string>>();

/**
 * Builds the package in `packageDir` (default: this repository) if its sources changed since the
 * last build; once per test file and process. Throws PackageBuildError with the tsc output.
 * Resolves to the build script's output ("built ..." or "up to date").
 */
export async function ensureBuilt(packageDir: string = REPO_ROOT): Promise<string> {
	const key = resolve(packageDir);
	let build = builds.get(key);
	if (!build) {
		build = runLockedBuild(key);
		builds.set(key, build);
	}
	return await build;
}
