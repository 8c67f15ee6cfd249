/**
 * What npm provenance and n8n's verification read from the package (docs/publishing.md): the
 * package.json metadata agrees with itself, the publish workflow publishes with provenance from
 * a version tag after the checks, and the CHANGELOG names the version being published.
 *
 * And how the workflow holds the power to publish: the job that installs and runs the development
 * packages has no id-token; only the publish job, in a protected environment, gets one, and it
 * receives the packed tarball alone; trusted publishing only (no token); every action pinned by a
 * commit SHA; npm pinned to an exact version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const workflowText = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
const workflow = parse(workflowText);
const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Job {
	name?: string;
	needs?: string | string[];
	environment?: string | { name: string };
	permissions?: Record<string, string>;
	steps: Step[];
}
const jobs = workflow.jobs as Record<string, Job>;
const steps: Step[] = Object.values(jobs).flatMap((job) => job.steps);
const runLinesOf = (job: Job) => job.steps.flatMap((step) => (step.run ?? '').split('\n').map((line) => line.trim()));
const runLines = steps.flatMap((step) => (step.run ?? '').split('\n').map((line) => line.trim()));
const indexOfRun = (command: string, lines = runLines) => lines.findIndex((line) => line === command || line.startsWith(`${command} `));
/** Jobs that may mint an OIDC token (id-token: write). */
const oidcJobs = Object.entries(jobs).filter(([, job]) => job.permissions?.['id-token'] === 'write');
const [publishJobName, publishJob] = oidcJobs[0] ?? ['', { steps: [] }];

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
	test('runs on version tags only; grants nothing at the workflow level', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		expect(workflow.on.push.tags).toEqual(['v*.*.*']);
		expect(workflow.on.push.branches).toBeUndefined();
		expect(workflow.permissions).toEqual({});
	});

	test('builds, checks and tests in a job without id-token: install, build, both lints, the scanner and the tests, then npm run pack', () => {
		const building = Object.entries(jobs).filter(([, job]) => indexOfRun('npm ci', runLinesOf(job)) >= 0);
		expect(building).toHaveLength(1);
		const [, build] = building[0];
		expect(build.permissions).toEqual({ contents: 'read' });
		const lines = runLinesOf(build);
		const pack = lines.findIndex((line) => line.includes('npm run --silent pack'));
		expect(pack).toBeGreaterThan(0);
		for (const check of ['npm ci', 'npm run build', 'npm run lint', 'npm run lint:n8n-node', 'npx tsx scripts/scan-package.ts', 'npm test']) {
			const at = indexOfRun(check, lines);
			expect({ check, before: at >= 0 && at < pack }).toEqual({ check, before: true });
		}
		const checkout = build.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
		expect(checkout?.with?.['persist-credentials']).toBe(false);
		const upload = build.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
		expect(String(upload?.with?.path)).toMatch(/^release\/\$\{\{ steps\.pack\.outputs\.tarball \}\}$/);
	});

	test('id-token is granted to one job only: the publish job, in a protected environment, after the build, with nothing checked out or installed but npm', () => {
		expect(oidcJobs.map(([name]) => name)).toEqual([publishJobName]);
		expect(publishJob.permissions).toEqual({ 'id-token': 'write' });
		expect(publishJob.environment).toBe('npm-publish');
		expect(publishJob.needs).toBe(Object.keys(jobs).find((name) => name !== publishJobName));
		expect(publishJob.steps.some((step) => step.uses?.startsWith('actions/checkout@'))).toBe(false);
		const lines = runLinesOf(publishJob).filter((line) => line.startsWith('npm '));
		expect(lines.filter((line) => !/^npm (install -g --ignore-scripts npm@|publish )/.test(line))).toEqual([]);
		expect(publishJob.steps.some((step) => step.uses?.startsWith('actions/download-artifact@'))).toBe(true);
		// No registry-url: setup-node would write an .npmrc token line, which trusted publishing does not use.
		for (const step of publishJob.steps.filter((candidate) => candidate.uses?.startsWith('actions/setup-node@'))) expect(step.with?.['registry-url']).toBeUndefined();
	});

	test('the publish job checks the tarball\'s SHA-256 and publishes that tarball with provenance to the public registry', () => {
		const lines = runLinesOf(publishJob);
		const verify = lines.findIndex((line) => line.includes('sha256sum --check --strict'));
		const publish = indexOfRun('npm publish', lines);
		expect(verify).toBeGreaterThanOrEqual(0);
		expect(publish).toBeGreaterThan(verify);
		expect(lines[publish]).toBe('npm publish "release/$TARBALL" --provenance --access public --registry https://registry.npmjs.org/');
	});

	test('trusted publishing only: no NPM_TOKEN, NODE_AUTH_TOKEN or secret anywhere in the workflow', () => {
		expect(workflowText).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|_authToken|secrets\./);
	});

	test('every action is pinned by a full commit SHA, with its release tag beside it', () => {
		const uses = workflowText.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
		expect(uses.length).toBeGreaterThanOrEqual(5);
		for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
		for (const step of steps.filter((candidate) => candidate.uses)) expect(step.uses).toMatch(/@[0-9a-f]{40}$/);
	});

	test('npm is pinned to one exact version in every job', () => {
		const installs = runLines.filter((line) => /npm (i|install)\b.*-g|npm@/.test(line));
		expect(installs.length).toBe(Object.keys(jobs).length);
		const versions = installs.map((line) => /^npm install -g --ignore-scripts npm@(\d+\.\d+\.\d+)$/.exec(line)?.[1]);
		expect(versions.every(Boolean)).toBe(true);
		expect(new Set(versions).size).toBe(1);
	});

	test('refuses a tag that is not v + the package version, or a version the CHANGELOG does not describe', () => {
		const check = steps.find((step) => step.run?.includes('GITHUB_REF_NAME') && step.run.includes('CHANGELOG.md'));
		expect(check?.run).toContain('"$GITHUB_REF_NAME" != "v$version"');
		expect(steps.indexOf(check!)).toBeLessThan(steps.findIndex((step) => step.run?.startsWith('npm ci')));
	});
});

test('the CHANGELOG has a dated section for the version in package.json', () => {
	const escaped = packageJson.version.replace(/\./g, '\\.');
	expect(changelog).toMatch(new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
});
