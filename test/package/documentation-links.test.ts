/**
 * The editor's "Docs" links (the credential dialog's documentation link, the node panel's Docs
 * links from the codex files, the links inside descriptions and hints) lead to documentation that
 * exists before the first release: this repository's README and docs/ on GitHub, named by one
 * constant (credentials/documentation.ts) that agrees with package.json's homepage and repository.
 * Each link's #anchor is a heading of the file it points into, read from the built package as n8n
 * loads it (dist/, the codex files beside each node included).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPOSITORY_URL, readmeSection } from '../../credentials/documentation';
import { loadPackage } from '../../dev/harness';
import { anchorsOf } from './markdown';

const ROOT = path.join(__dirname, '..', '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
	repository: { url: string };
	bugs: { url: string };
	n8n: { nodes: string[] };
};

interface Codex {
	resources?: Record<string, Array<{ url: string; label?: string }>>;
}

/** The codex files n8n reads beside each built node, by node file. */
async function builtCodexFiles(): Promise<Map<string, Codex>> {
	const pkg = await loadPackage();
	return new Map(
		packageJson.n8n.nodes.map((file) => {
			const codex = path.join(pkg.directory, file.replace(/\.js$/, '.json'));
			return [file, JSON.parse(fs.readFileSync(codex, 'utf8')) as Codex];
		}),
	);
}

/** Every text the built package shows in the editor: node and credential descriptions, codex files. */
async function shippedTexts(): Promise<string[]> {
	const pkg = await loadPackage();
	return [
		...[...Object.values(pkg.nodeTypes), ...Object.values(pkg.credentialTypes)].map((type) => JSON.stringify(type)),
		...[...(await builtCodexFiles()).values()].map((codex) => JSON.stringify(codex)),
	];
}

/** The repository file and heading a documentation link points at, judged on the parsed URL. */
function target(link: string): { file: string; anchor: string } {
	const url = new URL(link);
	const repository = new URL(REPOSITORY_URL);
	expect(url.origin).toBe(repository.origin);
	const anchor = decodeURIComponent(url.hash.replace(/^#/, ''));
	if (url.pathname === repository.pathname) return { file: 'README.md', anchor };
	const blob = `${repository.pathname}/blob/HEAD/`;
	expect(url.pathname.startsWith(blob)).toBe(true);
	return { file: decodeURIComponent(url.pathname.slice(blob.length)), anchor };
}

describe('documentation links in the editor', () => {
	it('one constant names the repository; package.json\'s homepage, repository and bugs name the same one', () => {
		expect(packageJson.homepage).toBe(`${REPOSITORY_URL}#readme`);
		expect(packageJson.repository.url).toBe(`git+${REPOSITORY_URL}.git`);
		expect(packageJson.bugs.url).toBe(`${REPOSITORY_URL}/issues`);
	});

	it('the credential\'s documentationUrl is the README\'s Credentials section', async () => {
		const { credentialTypes } = await loadPackage();
		expect(credentialTypes.documentExtractionApi.documentationUrl).toBe(readmeSection('credentials'));
	});

	it('the codex files link the README: the credential, each node\'s own section, the query configuration, the examples, the Callback Trigger\'s page', async () => {
		const codex = await builtCodexFiles();
		const [nodeFile, triggerFile, callbackTriggerFile] = packageJson.n8n.nodes;
		const urls = (file: string, kind: string) => (codex.get(file)?.resources?.[kind] ?? []).map((resource) => resource.url);

		expect(urls(nodeFile, 'credentialDocumentation')).toEqual([readmeSection('credentials')]);
		expect(urls(nodeFile, 'primaryDocumentation')).toEqual([readmeSection('operations')]);
		expect(urls(nodeFile, 'generic')).toEqual([readmeSection('query-configuration'), readmeSection('examples')]);
		expect(urls(triggerFile, 'credentialDocumentation')).toEqual([readmeSection('credentials')]);
		expect(urls(triggerFile, 'primaryDocumentation')).toEqual([readmeSection('trigger')]);
		expect(urls(callbackTriggerFile, 'credentialDocumentation')).toEqual([readmeSection('credentials')]);
		expect(urls(callbackTriggerFile, 'primaryDocumentation')).toEqual([readmeSection('which-trigger-to-pick')]);
		expect(urls(callbackTriggerFile, 'generic')).toEqual([`${REPOSITORY_URL}/blob/HEAD/docs/callback-trigger.md`]);
	});

	it('the codex files as committed are what the build copies', async () => {
		const codex = await builtCodexFiles();
		for (const [file, built] of codex) {
			const source = path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.json'));
			expect({ file, codex: JSON.parse(fs.readFileSync(source, 'utf8')) }).toEqual({ file, codex: built });
		}
	});

	it('no link points at the npm page, which answers 404 until the first release', async () => {
		for (const text of await shippedTexts()) expect(text).not.toMatch(/npmjs\.com\/package/);
	});

	it('every link into the repository names a file that exists and a heading of that file', async () => {
		const pattern = new RegExp(`${REPOSITORY_URL.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^"'\\s<>\\\\)]*`, 'g');
		const links = new Set((await shippedTexts()).flatMap((text) => [...text.matchAll(pattern)].map((match) => match[0])));

		// The credential, the three sections of the node panel, the query shapes and the examples at least.
		expect(links.size).toBeGreaterThanOrEqual(5);
		for (const link of links) {
			const { file, anchor } = target(link);
			const exists = fs.existsSync(path.join(ROOT, file));
			const anchors = exists ? anchorsOf(fs.readFileSync(path.join(ROOT, file), 'utf8')) : new Set<string>();
			expect({ link, file, exists, heading: anchor === '' || anchors.has(anchor) }).toEqual({ link, file, exists: true, heading: true });
		}
	});

	it('a link to a heading that is not there is caught (the check can fail)', () => {
		const { file, anchor } = target(`${REPOSITORY_URL}#no-such-heading`);
		expect(file).toBe('README.md');
		expect(anchorsOf(fs.readFileSync(path.join(ROOT, file), 'utf8')).has(anchor)).toBe(false);
		expect(target(`${REPOSITORY_URL}/blob/HEAD/docs/trigger.md#bounds`)).toEqual({ file: 'docs/trigger.md', anchor: 'bounds' });
	});
});
