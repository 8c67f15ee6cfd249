/**
 * package.json `engines.node` and what `npm install` warns about tell one story: the floor is the
 * lowest supported n8n's own Node floor (n8n 1.123.81: >=20.19), and the only dependency that
 * wants a newer Node is isolated-vm, a dev-only dependency that nothing here loads (README,
 * "Try it on this machine"; CONTRIBUTING.md, "Set up"). npm itself judges the engines: `npm install --dry-run --offline`
 * over this repository's lockfile, with the Node that runs the test.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
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

describe('engines.node and the install warnings', () => {
	it('engines.node is the Node floor of the lowest n8n the package supports (n8n 1.123.81)', () => {
		const host = JSON.parse(fs.readFileSync(path.join(ROOT, 'dev', 'n8n', 'n8n-host-1.x', 'package-lock.json'), 'utf8')) as typeof lock;
		const n8n = host.packages['node_modules/n8n'];

		expect(n8n.version).toBe('1.123.81');
		expect(n8n.engines?.node?.split(' ')[0]).toBe(packageJson.engines.node);
		expect(packageJson.engines.node).toBe('>=20.19');
	});

	it('npm install warns only about documented, dev-only dependencies', () => {
		const warned = engineWarnings();

		for (const entry of warned) {
			const name = entry.slice(0, entry.lastIndexOf('@'));
			expect(DOCUMENTED_NEWER_NODE).toContain(name);
			expect(lock.packages[`node_modules/${name}`]).toMatchObject({ dev: true, version: entry.slice(name.length + 1) });
		}
		// On Node 20 and 22 npm names isolated-vm; on Node 24 it warns about nothing.
		if (Number(process.versions.node.split('.')[0]) < 24) expect(warned).toEqual([`isolated-vm@${lock.packages['node_modules/isolated-vm'].version}`]);
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
