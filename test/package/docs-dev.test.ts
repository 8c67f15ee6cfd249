/**
 * The pages of docs/dev (for the next engineer) name only what exists: a count of the package's
 * nodes or triggers ("both nodes", "three n8n nodes", "two triggers") is package.json's; every path
 * of the repository in backticks is a file or folder that exists; and every code location with the
 * symbols named beside it (`path` (`a`, `b`), or `a` in `path`) is a file that declares them.
 * Issue 38 found architecture.md saying "both nodes" six times where there are three, naming files
 * that had moved and tables that were not where it said.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ROOT, codeLocations, filesUnder, prose } from './markdown';

const PAGES = filesUnder('docs/dev', ['.md']);
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const nodeFiles = (JSON.parse(read('package.json')) as { n8n: { nodes: string[] } }).n8n.nodes;
const COUNTS = { nodes: nodeFiles.length, triggers: nodeFiles.filter((file) => /Trigger\.node\.js$/.test(file)).length };

/** Files a guide asks the reader to create; they do not exist in the repository on purpose (as in docs-name-real-tests.test.ts). */
const EXAMPLES_TO_CREATE = new Map([['docs/dev/adding-an-operation.md', new Set(['test/node/file-get.test.ts'])]]);

const NUMBER_WORDS: Record<string, number> = { both: 2, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** "both nodes", "the three n8n nodes", "2 triggers": each count of nodes or triggers a text names. */
function namedCounts(text: string): Array<{ phrase: string; count: number; of: keyof typeof COUNTS }> {
	const found = [...prose(text).replace(/\s*\n\s*/g, ' ').matchAll(/\b(both|two|three|four|five|six|\d+) (?:n8n )?(nodes|triggers)\b/gi)];
	return found.map((match) => ({ phrase: match[0], count: NUMBER_WORDS[match[1].toLowerCase()] ?? Number(match[1]), of: match[2].toLowerCase() as keyof typeof COUNTS }));
}

const REPOSITORY_PATH = /`((?:nodes|credentials|dev|test|scripts|bench|docs|examples)\/[\w./-]*)`/g;

/** The repository paths a page names in backticks (placeholders such as `actions/<resource>/` and globs left out). */
function namedPaths(text: string): string[] {
	return [...prose(text).matchAll(REPOSITORY_PATH)].map((match) => match[1]);
}

/** Whether `file` declares or names `symbol` as a whole word (`A.b`: `A`, then `b`). */
function holds(file: string, symbol: string): boolean {
	const text = read(file);
	return symbol.split('.').every((part) => new RegExp(`\\b${part}\\b`).test(text));
}

describe('the pages of docs/dev name only what exists', () => {
	it.each(PAGES)('%s: every count of nodes or triggers is the package\'s', (page) => {
		const wrong = namedCounts(read(page)).filter(({ count, of }) => count !== COUNTS[of]).map(({ phrase }) => phrase);

		expect(wrong).toEqual([]);
	});

	it.each(PAGES)('%s: every repository path in backticks exists', (page) => {
		const toCreate = EXAMPLES_TO_CREATE.get(page) ?? new Set<string>();
		const missing = namedPaths(read(page)).filter((named) => !toCreate.has(named) && !fs.existsSync(path.join(ROOT, named)));

		expect(missing).toEqual([]);
	});

	it.each(PAGES)('%s: every code location names a file that holds the symbols named with it', (page) => {
		const missing = codeLocations(read(page)).flatMap(({ file, symbols }) => {
			if (!fs.existsSync(path.join(ROOT, file))) return [`${file} (no such file)`];
			return symbols.filter((symbol) => !holds(file, symbol)).map((symbol) => `${symbol} in ${file}`);
		});

		expect(missing).toEqual([]);
	});

	it('reads every page, and the pages name paths and code', () => {
		expect(PAGES).toEqual(expect.arrayContaining(['docs/dev/architecture.md', 'docs/dev/api-contract.md', 'docs/dev/callback-wait.md']));
		expect(COUNTS.nodes).toBe(3);
		expect(PAGES.flatMap((page) => namedPaths(read(page))).length).toBeGreaterThan(100);
		expect(PAGES.flatMap((page) => codeLocations(read(page))).length).toBeGreaterThan(30);
	});
});

describe('the checks can fail', () => {
	it('a count of nodes other than the package\'s', () => {
		expect(namedCounts('What both nodes stand on; the two\nnodes share it; 3 n8n nodes; both triggers.')).toEqual([
			{ phrase: 'both nodes', count: 2, of: 'nodes' },
			{ phrase: 'two nodes', count: 2, of: 'nodes' },
			{ phrase: '3 n8n nodes', count: 3, of: 'nodes' },
			{ phrase: 'both triggers', count: 2, of: 'triggers' },
		]);
		expect(COUNTS.nodes).not.toBe(2);
	});

	it('a path that does not exist', () => {
		const [named] = namedPaths('the guard is `nodes/shared/pagingLoop.ts`; `nodes/DocumentExtraction/actions/<resource>/index.ts` is a pattern');

		expect(named).toBe('nodes/shared/pagingLoop.ts');
		expect(fs.existsSync(path.join(ROOT, named))).toBe(false);
		expect(namedPaths('`nodes/DocumentExtraction/actions/<resource>/index.ts`')).toEqual([]);
	});

	it('a symbol the file named with it does not hold', () => {
		const [location] = codeLocations('Kept in `nodes/shared/api/values.ts` (`noSuchFunction`).');

		expect(location).toEqual({ file: 'nodes/shared/api/values.ts', symbols: ['noSuchFunction'] });
		expect(holds(location.file, 'noSuchFunction')).toBe(false);
		expect(holds('nodes/shared/limits/index.ts', 'ANSWER_LIMITS.pageSize')).toBe(true);
		expect(holds('nodes/shared/limits/index.ts', 'TRIGGER_LIMITS')).toBe(true);
		expect(holds('nodes/shared/limits/index.ts', 'ANSWER_LIMITS.noSuchBound')).toBe(false);
		expect(codeLocations('`updateFormValues` in `nodes/shared/api/gone.ts`')).toContainEqual({ file: 'nodes/shared/api/gone.ts', symbols: ['updateFormValues'] });
	});
});
