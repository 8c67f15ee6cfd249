/**
 * `npm install` on a fresh clone leaves package-lock.json as committed: the lockfile's root entry
 * says what package.json says (engines, dependencies), so npm has nothing to rewrite. npm itself
 * judges it: `npm install --package-lock-only` (offline, with an empty cache: the lockfile alone
 * must be enough) on a copy of package.json, package-lock.json and .npmrc must change nothing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const FILES = ['package.json', 'package-lock.json', '.npmrc'];
const read = (dir: string, file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;

/** The lockfile npm writes for `dir`'s package.json and lockfile, without touching node_modules or the network. */
function lockfileNpmWrites(dir: string): Record<string, unknown> {
	const result = spawnSync('npm', ['install', '--package-lock-only', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
		cwd: dir,
		encoding: 'utf8',
		env: { ...process.env, npm_config_cache: path.join(dir, '.npm-cache') },
		timeout: 120_000,
	});
	expect({ status: result.status, output: result.status === 0 ? '' : `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: '' });
	return read(dir, 'package-lock.json');
}

describe('package-lock.json agrees with package.json', () => {
	let work: string;

	beforeEach(() => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-lockfile-'));
		for (const file of FILES) fs.copyFileSync(path.join(ROOT, file), path.join(work, file));
	});

	afterEach(() => {
		fs.rmSync(work, { recursive: true, force: true });
	});

	it('its root entry names the engines and dependencies of package.json', () => {
		const packageJson = read(ROOT, 'package.json');
		const root = (read(ROOT, 'package-lock.json').packages as Record<string, Record<string, unknown>>)[''];

		for (const field of ['name', 'version', 'license', 'engines', 'peerDependencies', 'devDependencies']) {
			expect({ field, lock: root[field] }).toEqual({ field, lock: packageJson[field] });
		}
	});

	it('npm install rewrites nothing in it', () => {
		expect(lockfileNpmWrites(work)).toEqual(read(ROOT, 'package-lock.json'));
	});

	it('a package.json that says more than the lockfile is caught (the check can fail)', () => {
		const packageJson = read(work, 'package.json');
		fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ ...packageJson, engines: { ...(packageJson.engines as object), node: '>=22.1' } }, null, 2));
		const written = lockfileNpmWrites(work) as { packages: Record<string, { engines?: { node?: string } }> };
		expect(written.packages[''].engines?.node).toBe('>=22.1');
	});
});
