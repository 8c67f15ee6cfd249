/**
 * README.md is for the user (issue 23): at most 250 lines, its sections in the order a user needs
 * them, the two commands at the top, and facts that agree with the package: the anchors the
 * nodes and the credential link to, where the API key comes from, the sandbox's online switch,
 * the supported n8n versions, the install route. CONTRIBUTING.md names the command of every
 * suite that `npm test` leaves out. And no link in the Markdown files (the docs, and the dev
 * home's and tools' READMEs) points at nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { loadPackage } from '../../dev/harness';
import { N8N_VERSIONS } from '../../dev/n8n/n8n-runtime';
import { onlineCommand } from '../../dev/start-message';
import { ROOT, anchorsOf, filesUnder, linkTarget, pointsAtHeading, prose } from './markdown';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const packageJson = JSON.parse(read('package.json')) as {
	engines: { n8n: string };
	scripts: Record<string, string>;
	n8n: { nodes: string[] };
};

/** `## ` headings, in order. */
function sections(markdown: string): string[] {
	return [...prose(markdown).matchAll(/^## (.+)$/gm)].map((match) => match[1].trim());
}

/** Markdown files whose links are checked: the README, CONTRIBUTING, every doc, and the dev home's and tools' READMEs. */
function markdownFiles(): string[] {
	return [
		'README.md',
		'CONTRIBUTING.md',
		'CHANGELOG.md',
		path.join('examples', 'README.md'),
		...filesUnder('docs', ['.md']),
		...filesUnder('dev', ['.md']),
		...filesUnder('scripts', ['.md']),
	];
}

describe('README.md, for the user', () => {
	it('is at most 250 lines', () => {
		expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(250);
	});

	it('has its sections in this order: try it, install, credential, operations, trigger, limits and errors, versions, links', () => {
		expect(sections(readme)).toEqual([
			'Try it on this machine',
			'Install in n8n',
			'Credentials',
			'Operations',
			'Trigger',
			'Limits and errors',
			'Supported n8n versions',
			'Links',
			'License',
		]);
	});

	it('shows one screenshot of the nodes before the first section, and the picture exists', () => {
		const intro = readme.slice(0, readme.indexOf('\n## '));
		const pictures = [...intro.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((match) => match[1]);

		expect(pictures).toHaveLength(1);
		expect(pictures[0]).toMatch(/^docs\/screenshots\/.+\.png$/);
		expect(fs.existsSync(path.join(ROOT, pictures[0]))).toBe(true);
	});

	it('gives the two commands in its first code block: try it (npm start) and run the tests (npm test)', () => {
		const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
		const commands = firstBlock.split('\n').map((line) => line.split('#')[0].trim()).filter(Boolean);

		expect(commands).toEqual(['npm install && npm start', 'npm test']);
		expect(packageJson.scripts.start).toBeDefined();
		expect(packageJson.scripts.test).toBe('jest');
	});

	it('says, right after the two commands, why the first run takes minutes: it installs Node 24 and n8n', () => {
		const afterBlock = readme.slice(readme.indexOf('```', readme.indexOf('```sh') + 5) + 3).trimStart();
		const firstParagraph = afterBlock.slice(0, afterBlock.indexOf('\n\n')).replace(/\s+/g, ' ');

		expect(firstParagraph).toMatch(/^The first run takes minutes/);
		expect(firstParagraph).toContain('`npm install`');
		expect(firstParagraph).toContain('installs Node 24 and n8n');
		expect(firstParagraph).toContain('Later starts reuse');
	});

	it('says what npm test leaves out and sends contributors to CONTRIBUTING.md', () => {
		const tryIt = readme.slice(readme.indexOf('## Try it on this machine'), readme.indexOf('## Install in n8n'));

		expect(tryIt).toContain('run apart: see [CONTRIBUTING.md](CONTRIBUTING.md)');
	});

	it('says where the API key is created, as the credential\'s own hint does: the fileAI dashboard, project settings, its link', async () => {
		const { credentialTypes } = await loadPackage();
		const hint = credentialTypes.documentExtractionApi.properties.find((property) => property.name === 'apiKey')?.hint ?? '';
		const link = /href="([^"]+)"/.exec(hint)?.[1];
		const credentials = readme.slice(readme.indexOf('## Credentials'), readme.indexOf('## Operations'));

		expect(link).toBe('https://file.ai');
		expect(credentials).toContain(`(${link})`);
		expect(credentials).toContain('fileAI dashboard');
		expect(credentials).toContain('project settings');
		for (const field of ['API Key', 'Instance', 'Instance Host', 'Base URL Override']) expect(credentials).toContain(`| ${field} |`);
	});

	it('describes the sandbox as it runs: offline by default with ESANDBOXOFFLINE, the online switch, its own password kept 0600, Ctrl-C', () => {
		const tryIt = readme.slice(readme.indexOf('## Try it on this machine'), readme.indexOf('## Install in n8n'));

		expect(tryIt).toContain(`\`${onlineCommand('npm start')}\``);
		expect(tryIt).toContain('ESANDBOXOFFLINE');
		expect(tryIt).toContain('sandbox-secrets.json');
		expect(tryIt).toContain('0600');
		expect(tryIt).toContain('Ctrl-C');
		expect(tryIt).not.toMatch(/owner@example\.com\s*\/\s*\S+/); // no fixed password
	});

	it('gives the install route that works before publishing (npm run pack, then npm install --legacy-peer-deps) and links docs/install.md', () => {
		const install = readme.slice(readme.indexOf('## Install in n8n'), readme.indexOf('## Credentials'));
		const installDoc = read('docs/install.md');

		expect(packageJson.scripts.pack).toBeDefined();
		expect(install).toContain('npm run pack');
		// The same command as docs/install.md's, which test/registry/tarball-install.test.ts runs.
		const tarballInstall = /npm install --legacy-peer-deps \S*n8n-nodes-document-extraction-\S*\.tgz/;
		expect(install).toMatch(tarballInstall);
		expect(installDoc).toMatch(tarballInstall);
		expect(install).toContain('(docs/install.md)');
		expect(install).toContain('not on the npm registry yet');
	});

	it('names the supported range of package.json and each provisioned n8n with the Node it runs on', () => {
		const versions = readme.slice(readme.indexOf('## Supported n8n versions'), readme.indexOf('## Links'));

		expect(versions).toContain(`\`${packageJson.engines.n8n}\``);
		for (const spec of Object.values(N8N_VERSIONS)) {
			expect(versions).toMatch(new RegExp(`\\| ${spec.n8n.replace(/\./g, '\\.')} [^|]*\\| ${spec.node.split('.')[0]} \\(${spec.node.replace(/\./g, '\\.')}\\) \\|`));
		}
	});

	it('links the bounds table, security, the trigger and AI tools from Limits and errors, with read-only tools and key for agents', () => {
		const limits = readme.slice(readme.indexOf('## Limits and errors'), readme.indexOf('## Supported n8n versions'));

		expect(limits).toContain('(docs/reliability.md#every-bound-in-one-table)');
		expect(anchorsOf(read('docs/reliability.md')).has('every-bound-in-one-table')).toBe(true);
		expect(limits).toContain('(docs/security.md)');
		expect(limits).toContain('(docs/ai-tools.md)');
		expect(limits).toContain('read-only tools');
		expect(limits).toContain('read-only API');
		expect(readme).toContain('(docs/trigger.md)');
	});

	it('carries no dated figures in its text', () => {
		expect(prose(readme)).not.toMatch(/\b20\d\d-\d\d-\d\d\b|\b(January|February|March|April|May|June|July|August|September|October|November|December) 20\d\d\b/);
	});
});

describe('CONTRIBUTING.md', () => {
	it('names the npm script of every suite npm test leaves out, and what npm test runs', () => {
		const contributing = read('CONTRIBUTING.md');
		const ignored = /testPathIgnorePatterns:\s*\[([^\]]*)\]/.exec(read('jest.config.js'))?.[1] ?? '';
		const leftOut = [...ignored.matchAll(/'\/(test\/[\w-]+)\/'/g)].map((match) => match[1]);
		const scriptOf = (folder: string) =>
			Object.entries(packageJson.scripts).find(([, command]) => {
				const config = /-c (\S+)/.exec(command)?.[1];
				return config && command.startsWith('jest') && fs.readFileSync(path.join(ROOT, config), 'utf8').includes(`'${folder.replace(/^test\//, '')}'`);
			})?.[0];

		expect(leftOut.length).toBeGreaterThan(0);
		for (const folder of leftOut) {
			const script = scriptOf(folder);
			expect({ folder, script: script !== undefined }).toEqual({ folder, script: true });
			expect(contributing).toContain(`npm run ${script}`);
		}
		expect(contributing).toContain('`npm test`');
	});
});

describe('links in the Markdown files', () => {
	it.each(markdownFiles())('%s: every relative link points at a file that exists, and at a heading it has', (file) => {
		const text = prose(read(file));
		const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/i.test(target));
		const broken = links.filter((target) => {
			const { file: targetFile, anchor } = linkTarget(file, target);
			return !pointsAtHeading(targetFile, anchor);
		});

		expect(broken).toEqual([]);
	});
});

describe("the package's nodes as the user docs count and name them", () => {
	const NUMBER_WORDS: Record<string, number> = { one: 1, both: 2, two: 2, three: 3, four: 4, five: 5, six: 6 };
	const USER_DOCS = ['README.md', path.join('docs', 'install.md'), path.join('examples', 'README.md')];

	/** Each node of package.json's n8n.nodes (as n8n loads them from dist/), by the display name the nodes panel shows. */
	async function nodeDisplayNames(): Promise<string[]> {
		const { packageName, nodeTypes } = await loadPackage();
		return packageJson.n8n.nodes.map((built) => {
			const className = path.basename(built, '.node.js');
			const type = nodeTypes[`${packageName}.${className[0].toLowerCase()}${className.slice(1)}`];
			return type?.description.displayName ?? `(not loaded: ${built})`;
		});
	}

	it.each(USER_DOCS)("%s: every count of the nodes (\"three nodes\", \"loaded both nodes\") is package.json's n8n.nodes", (file) => {
		const counts = [...prose(read(file)).matchAll(/\b(one|both|two|three|four|five|six|\d+)\s+(?:(?:of\s+)?(?:the|its|our|these)\s+)?(?:package's\s+)?nodes\b/gi)].map(
			(match) => ({ said: match[0], count: NUMBER_WORDS[match[1].toLowerCase()] ?? Number(match[1]) }),
		);

		expect(counts.filter(({ count }) => count !== packageJson.n8n.nodes.length)).toEqual([]);
	});

	it('docs/install.md names every node the nodes panel then offers', async () => {
		const afterwards = prose(read(path.join('docs', 'install.md'))).replace(/\s+/g, ' ');
		const names = await nodeDisplayNames();

		expect(names).toHaveLength(packageJson.n8n.nodes.length);
		expect(names.filter((name) => !afterwards.includes(`**${name}**`))).toEqual([]);
	});
});
