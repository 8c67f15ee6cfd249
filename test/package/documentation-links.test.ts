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

import { NODE_DOCUMENTATION, REPOSITORY_URL, readmeSection, repositoryFile } from '../../credentials/documentation';
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

interface DescribedType {
	description: { name: string; documentationUrl?: string; codex?: Codex };
}

/**
 * The node panel's Docs link as n8n builds it (editor-ui useNodeDocsUrl, the same in 1.123.81 and
 * 2.41.1; n8n's loader puts the codex file on the description as `codex`): documentationUrl as it
 * is when it starts with http, else the codex's primaryDocumentation with its tracking query
 * appended, else npm's page of a community package.
 */
function nodeDocsLink(name: string, documentationUrl: string | undefined, codex: Codex | undefined): string {
	if (documentationUrl?.startsWith('http')) return documentationUrl;
	const utm = new URLSearchParams({ utm_source: 'n8n_app', utm_medium: 'node_settings_modal-credential_link', utm_campaign: name });
	const primary = codex?.resources?.primaryDocumentation?.[0]?.url;
	if (primary) return `${primary}?${utm.toString()}`;
	return `https://www.npmjs.com/package/${name.split('.')[0]}`;
}

/**
 * The credential dialog's docs link as n8n builds it (editor-ui CredentialConfig, the same in
 * 1.123.81 and 2.41.1): an http(s) URL outside docs.n8n.io as it is; docs.n8n.io gets the
 * tracking query (URL API: before the #section); a bare name is a docs.n8n.io page, none for a
 * community node.
 */
function credentialDocsLink(documentationUrl: string | undefined): string {
	if (!documentationUrl) return '';
	if (!/^https?:\/\//.test(documentationUrl)) return '';
	const url = new URL(documentationUrl);
	if (url.hostname !== 'docs.n8n.io') return documentationUrl;
	url.searchParams.set('utm_source', 'n8n_app');
	return url.href;
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

/** Where a link lands: the repository file, the heading it names ('' for the top) and whether that heading is there. */
function landing(link: string): { file: string; anchor: string; lands: boolean } {
	const { file, anchor } = target(link);
	const exists = fs.existsSync(path.join(ROOT, file));
	return { file, anchor, lands: exists && (anchor === '' || anchorsOf(fs.readFileSync(path.join(ROOT, file), 'utf8')).has(anchor)) };
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
		expect(urls(nodeFile, 'primaryDocumentation')).toEqual([REPOSITORY_URL]);
		expect(urls(nodeFile, 'generic')).toEqual([readmeSection('query-configuration'), readmeSection('examples')]);
		expect(urls(triggerFile, 'credentialDocumentation')).toEqual([readmeSection('credentials')]);
		expect(urls(triggerFile, 'primaryDocumentation')).toEqual([repositoryFile('docs/trigger.md')]);
		expect(urls(callbackTriggerFile, 'credentialDocumentation')).toEqual([readmeSection('credentials')]);
		expect(urls(callbackTriggerFile, 'primaryDocumentation')).toEqual([repositoryFile('docs/callback-trigger.md')]);
		expect(urls(callbackTriggerFile, 'generic')).toEqual([repositoryFile('docs/callback-trigger.md')]);
	});

	it('each node\'s Docs link, as n8n builds it from the description and the codex, lands on the node\'s own section', async () => {
		const { nodeTypes } = await loadPackage();
		const codex = await builtCodexFiles();
		const codexOf = (name: string) => [...codex.values()].find((file) => (file as { node?: string }).node?.endsWith(`.${name}`));
		const landings = Object.values(nodeTypes).map((type) => {
			const { name, documentationUrl } = (type as DescribedType).description;
			const link = nodeDocsLink(`n8n-nodes-document-extraction.${name}`, documentationUrl, codexOf(name));
			return { name, link, ...landing(link) };
		});
		expect(landings.map(({ name, file, anchor }) => ({ name, file, anchor }))).toEqual([
			{ name: 'documentExtraction', file: 'README.md', anchor: 'operations' },
			{ name: 'documentExtractionTrigger', file: 'README.md', anchor: 'trigger' },
			{ name: 'documentExtractionCallbackTrigger', file: 'README.md', anchor: 'which-trigger-to-pick' },
		]);
		for (const { link, lands } of landings) expect({ link, lands }).toEqual({ link, lands: true });
		expect(Object.fromEntries(Object.values(nodeTypes).map((type) => [(type as DescribedType).description.name, (type as DescribedType).description.documentationUrl]))).toEqual(NODE_DOCUMENTATION);
	});

	it('the codex files\' primaryDocumentation carries no #section: n8n appends its tracking query to it, after which a section is no heading', async () => {
		for (const [codexFile, codex] of await builtCodexFiles()) {
			for (const { url } of codex.resources?.primaryDocumentation ?? []) {
				const built = `${url}?utm_source=n8n_app&utm_medium=node_settings_modal-credential_link&utm_campaign=x`;
				expect({ codexFile, url, ...landing(built) }).toEqual({ codexFile, url, ...landing(built), lands: true, anchor: '' });
			}
		}
	});

	it('the credential dialog\'s docs link, as n8n builds it, lands on the README\'s Credentials section', async () => {
		const { credentialTypes } = await loadPackage();
		const link = credentialDocsLink(credentialTypes.documentExtractionApi.documentationUrl);
		expect({ link, ...landing(link) }).toEqual({ link, file: 'README.md', anchor: 'credentials', lands: true });
	});

	it('a #section before n8n\'s tracking query names no heading (the check can fail)', () => {
		const link = nodeDocsLink('n8n-nodes-document-extraction.documentExtraction', undefined, { resources: { primaryDocumentation: [{ url: readmeSection('operations') }] } });
		expect(link).toMatch(/#operations\?utm_source=/);
		expect(landing(link)).toEqual({ file: 'README.md', anchor: expect.stringMatching(/^operations\?utm_source=/), lands: false });
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
