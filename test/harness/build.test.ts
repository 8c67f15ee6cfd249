import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BUILD_SCRIPT, PackageBuildError, ensureBuilt } from '../../dev/harness/build';

const packageDirs: string[] = [];

afterAll(() => {
	for (const dir of packageDirs) rmSync(dir, { recursive: true, force: true });
});

/** A package whose build appends a line to build.log and writes its n8n files into dist/. */
function makePackage(buildCommand: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'harness-build-'));
	packageDirs.push(dir);
	mkdirSync(join(dir, 'nodes'));
	writeFileSync(join(dir, 'nodes', 'Thing.node.ts'), 'export const version = 1;\n');
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({
			name: 'harness-build-fixture',
			version: '0.0.0',
			private: true,
			scripts: { build: buildCommand },
			n8n: { n8nNodesApiVersion: 1, nodes: ['dist/nodes/Thing.node.js'] },
		}),
	);
	return dir;
}

const GOOD_BUILD = 'echo built >> build.log && mkdir -p dist/nodes && echo ok > dist/nodes/Thing.node.js';

function buildCount(dir: string): number {
	return existsSync(join(dir, 'build.log')) ? readFileSync(join(dir, 'build.log'), 'utf8').trim().split('\n').length : 0;
}

async function runScript(dir: string): Promise<number | null> {
	return await new Promise((resolve) => {
		spawn('flock', [join(dir, 'lock'), process.execPath, BUILD_SCRIPT, dir], { stdio: 'ignore' }).on(
			'close',
			resolve,
		);
	});
}

describe('ensureBuilt', () => {
	it('builds a package once and not again while its sources are unchanged', async () => {
		const dir = makePackage(GOOD_BUILD);
		expect(await ensureBuilt(dir)).toContain('built');
		expect(await ensureBuilt(dir)).toContain('built');
		expect(buildCount(dir)).toBe(1);

		// A new process (another jest worker) finds the stamp and skips the build.
		expect(await runScript(dir)).toBe(0);
		expect(buildCount(dir)).toBe(1);

		writeFileSync(join(dir, 'nodes', 'Thing.node.ts'), 'export const version = 2;\n');
		expect(await runScript(dir)).toBe(0);
		expect(buildCount(dir)).toBe(2);
	});

	it('builds once when several processes ask at the same time (flock)', async () => {
		const dir = makePackage(`sleep 0.3 && ${GOOD_BUILD}`);
		const codes = await Promise.all([runScript(dir), runScript(dir), runScript(dir)]);
		expect(codes).toEqual([0, 0, 0]);
		expect(buildCount(dir)).toBe(1);
	});

	it('fails when the build leaves out a file that package.json "n8n" names', async () => {
		const dir = makePackage('echo compiled nothing');
		await expect(ensureBuilt(dir)).rejects.toThrow(/missing \(n8n would not load the package\): dist\/nodes\/Thing\.node\.js/);
	});

	it('throws the build output when the build fails', async () => {
		const dir = makePackage(
			"echo \"nodes/Thing.node.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\" && exit 2",
		);
		const failure = ensureBuilt(dir);
		await expect(failure).rejects.toBeInstanceOf(PackageBuildError);
		await expect(failure).rejects.toThrow(/exit code 2[\s\S]*error TS2322: Type 'string' is not assignable/);
	});
});
