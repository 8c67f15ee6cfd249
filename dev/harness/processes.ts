/**
 * n8n processes modelled in one test process: each named process loads its own copy of our built
 * package, so what a node keeps in module state (the memory of a process: claims in flight,
 * handled keys, a per-process id) is that process's alone, while n8n-workflow and the engine are
 * shared. The copies are made under REPO_ROOT/.harness-processes/<pid>-<name>-… (git-ignored), so
 * that a copy resolves n8n-workflow and the other dependencies to the same files as the package
 * itself; those of test processes that have ended are removed by the next copy.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { ensureBuilt } from './build';
import { REPO_ROOT } from './registry-paths';

const copies = new Map<string, Promise<string>>();

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Copies left by test processes that have ended (jest does not always run exit handlers) are removed. */
function sweep(parent: string): void {
	for (const entry of readdirSync(parent)) {
		const pid = Number(entry.split('-')[0]);
		if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) rmSync(join(parent, entry), { recursive: true, force: true });
	}
}

async function copyFor(name: string): Promise<string> {
	await ensureBuilt();
	const parent = join(REPO_ROOT, '.harness-processes');
	mkdirSync(parent, { recursive: true });
	sweep(parent);
	const dir = mkdtempSync(join(parent, `${process.pid}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
	cpSync(join(REPO_ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
	copyFileSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
	process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

/** The package folder of the modelled n8n process `name` (one copy per name and test file). */
export async function processPackageDir(name: string): Promise<string> {
	let copy = copies.get(name);
	if (!copy) {
		copy = copyFor(name);
		copies.set(name, copy);
		copy.catch(() => copies.delete(name));
	}
	return await copy;
}
