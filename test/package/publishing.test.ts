/**
 * What npm provenance and n8n's verification read from the package (docs/publishing.md): the
 * package.json metadata agrees with itself, the publish workflow publishes with provenance from
 * a version tag after the checks, and the CHANGELOG names the version being published.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const workflow = parse(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8'));
const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
const steps: Step[] = Object.values(workflow.jobs as Record<string, { steps: Step[] }>).flatMap((job) => job.steps);
const runLines = steps.flatMap((step) => (step.run ?? '').split('\n').map((line) => line.trim()));
const indexOfRun = (command: string) => runLines.findIndex((line) => line === command || line.startsWith(`${command} `));

/** The GitHub repository a URL names ("owner/name"), judged on the parsed URL. */
function githubRepository(url: string): string {
	const parsed = new URL(url.replace(/^git\+/, ''));
	expect(parsed.protocol).toBe('https:');
	expect(parsed.hostname).toBe('github.com');
	const [owner, name] = parsed.pathname.replace(/^\//, '').replace(/\.git$/, '').split('/');
	return `${owner}/${name}`;
}

describe('package.json carries what provenance and n8n verification check', () => {
	test('repository, homepage and bugs name the same public GitHub repository', () => {
		const repository = githubRepository(packageJson.repository.url);
		expect(packageJson.repository.type).toBe('git');
		expect(githubRepository(packageJson.homepage)).toBe(repository);
		expect(new URL(packageJson.homepage).hash).toBe('#readme');
		expect(packageJson.bugs.url).toBe(`https://github.com/${repository}/issues`);
		expect(repository.split('/')[1]).toBe(packageJson.name);
	});

	test('a community package: n8n-nodes- name, the keyword, an author, only dist shipped, no runtime dependencies', () => {
		expect(packageJson.name).toMatch(/^n8n-nodes-/);
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.author.name).toEqual(expect.any(String));
		expect(packageJson.author.email).toMatch(/^[^@\s]+@[^@\s]+$/);
		expect(packageJson.files).toEqual(['dist']);
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packageJson.license).toBe('MIT');
		expect(fs.existsSync(path.join(ROOT, 'LICENSE'))).toBe(true);
	});
});

describe('the publish workflow', () => {
	test('runs on version tags only, with the OIDC permission provenance needs', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		expect(workflow.on.push.tags).toEqual(['v*.*.*']);
		expect(workflow.on.push.branches).toBeUndefined();
		const [job] = Object.values(workflow.jobs as Record<string, { permissions: Record<string, string> }>);
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	test('publishes with provenance to the public registry, after install, build, both lints, the scanner and the tests', () => {
		const publish = indexOfRun('npm publish');
		expect(runLines[publish]).toBe('npm publish --provenance --access public');
		for (const check of ['npm ci', 'npm run build', 'npm run lint', 'npm run lint:n8n-node', 'npx tsx scripts/scan-package.ts', 'npm test']) {
			const at = indexOfRun(check);
			expect({ check, before: at >= 0 && at < publish }).toEqual({ check, before: true });
		}
		const setupNode = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(new URL(String(setupNode?.with?.['registry-url'])).hostname).toBe('registry.npmjs.org');
	});

	test('refuses a tag that is not v + the package version, or a version the CHANGELOG does not describe', () => {
		const check = steps.find((step) => step.run?.includes('GITHUB_REF_NAME'));
		expect(check?.run).toContain('"$GITHUB_REF_NAME" != "v$version"');
		expect(check?.run).toContain('CHANGELOG.md');
		expect(steps.indexOf(check!)).toBeLessThan(steps.findIndex((step) => step.run?.startsWith('npm publish')));
	});
});

test('the CHANGELOG has a dated section for the version in package.json', () => {
	const escaped = packageJson.version.replace(/\./g, '\\.');
	expect(changelog).toMatch(new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
});
