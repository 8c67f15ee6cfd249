/**
 * package.json `engines.node` and what `npm install` warns about tell one story. The floor is Node
 * 22, above the Node floor of the lowest supported n8n (n8n 1.123.81: >=20.19): on Node 20 every
 * read from n8n's binary stream is a fresh buffer that only V8's collector can free (no
 * ArrayBuffer.prototype.transfer), and a large upload there costs many full collections of n8n's
 * heap (docs/large-files.md, "Node versions"). Every supported n8n accepts a Node that engines.node
 * accepts. The only dependency that wants a newer Node is isolated-vm, a dev-only dependency that
 * nothing here loads (README, "Try it on this machine"; CONTRIBUTING.md, "Set up"); on Node 20,
 * where this repository is still developed and tested, npm also names this package itself. npm
 * itself judges the engines: `npm install --dry-run --offline` over this repository's lockfile,
 * with the Node that runs the test.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
	packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } }>;
};
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Dependencies allowed to want a newer Node than engines.node, each explained in the README. */
const DOCUMENTED_NEWER_NODE = ['isolated-vm'];

/** The packages npm warns about with EBADENGINE on this Node, as name@version. */
function engineWarnings(): string[] {
	const result = spawnSync('npm', ['install', '--dry-run', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: 120_000,
	});
	expect(result.status).toBe(0);
	return [...`${result.stdout}${result.stderr}`.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((match) => match[1]);
}

/** Whether a package.json engines range such as ">=20.19 <= 24.x" or ">=24.0.0" accepts Node `version`. */
function accepts(range: string, version: string): boolean {
	const parts = (text: string) => text.split('.').map((part) => (part === 'x' ? Number.POSITIVE_INFINITY : Number(part)));
	const compare = (left: number[], right: number[]) => {
		for (let index = 0; index < 3; index++) {
			const difference = (left[index] ?? 0) - (right[index] ?? 0);
			if (difference !== 0) return Math.sign(difference);
		}
		return 0;
	};
	const wanted = parts(version);
	return [...range.matchAll(/(>=|<=|>|<)\s*([\dx.]+)/g)].every(([, operator, bound]) => {
		const order = compare(wanted, parts(bound));
		return operator === '>=' ? order >= 0 : operator === '>' ? order > 0 : operator === '<=' ? order <= 0 : order < 0;
	});
}

function hostN8n(template: string): { version?: string; engines?: { node?: string } } {
	const host = JSON.parse(fs.readFileSync(path.join(ROOT, 'dev', 'n8n', template, 'package-lock.json'), 'utf8')) as typeof lock;
	return host.packages['node_modules/n8n'];
}

describe('engines.node and the install warnings', () => {
	it('engines.node is >=22, above the Node floor of n8n 1.123.81 (the lowest supported n8n), because of the upload path on Node 20', () => {
		const lowest = hostN8n('n8n-host-1.x');

		expect(packageJson.engines.node).toBe('>=22');
		expect(lowest.version).toBe('1.123.81');
		expect(lowest.engines?.node).toBe('>=20.19 <= 24.x');
		expect(accepts(lowest.engines!.node!, '20.19.0')).toBe(true);
		expect(accepts(packageJson.engines.node, '20.19.0')).toBe(false);
	});

	it('every supported n8n accepts a Node that engines.node accepts (n8n 1.123.81: 22 and 24; n8n 2.41.1: 24)', () => {
		const lowest = hostN8n('n8n-host-1.x');
		const highest = hostN8n('n8n-host');

		expect(highest.version).toBe('2.41.1');
		for (const version of ['22.0.0', '22.23.3', '24.21.0']) {
			expect(accepts(packageJson.engines.node, version)).toBe(true);
			expect(accepts(lowest.engines!.node!, version)).toBe(true);
		}
		expect(accepts(highest.engines!.node!, '24.21.0')).toBe(true);
		expect(accepts(packageJson.engines.node, '24.21.0')).toBe(true);
	});

	it('npm install warns only about documented, dev-only dependencies, and on Node 20 about this package itself', () => {
		const warned = engineWarnings();
		const own = `${packageJson.name}@${packageJson.version}`;
		const major = Number(process.versions.node.split('.')[0]);

		for (const entry of warned.filter((name) => name !== own)) {
			const name = entry.slice(0, entry.lastIndexOf('@'));
			expect(DOCUMENTED_NEWER_NODE).toContain(name);
			expect(lock.packages[`node_modules/${name}`]).toMatchObject({ dev: true, version: entry.slice(name.length + 1) });
		}
		// On Node 20 npm names this package (engines.node) and isolated-vm; on 22 isolated-vm; on 24 nothing.
		const isolatedVm = `isolated-vm@${lock.packages['node_modules/isolated-vm'].version}`;
		if (major < 22) expect(warned.sort()).toEqual([isolatedVm, own].sort());
		else if (major < 24) expect(warned).toEqual([isolatedVm]);
		else expect(warned).toEqual([]);
	});

	it('the README names each of them with the Node it wants', () => {
		for (const name of DOCUMENTED_NEWER_NODE) {
			const entry = lock.packages[`node_modules/${name}`];
			expect(entry.dev).toBe(true);
			expect(readme).toContain(`\`${name}@${entry.version}\``);
			expect(readme).toContain(`(it requires Node ${entry.engines?.node?.replace(/^>=/, '>= ').replace(/\.0\.0$/, '')})`);
		}
	});
});
