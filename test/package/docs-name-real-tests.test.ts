/**
 * Every test file the Markdown names exists: a reader who follows "see simplify-properties.test.ts"
 * finds it. The property suites were renamed to the *-properties.test.ts convention (npm run fuzz
 * finds them by it) while docs/reliability.md still named the old *.property.test.ts files.
 * A file the docs tell a contributor to create (adding-an-operation.md's worked example) is named
 * in EXAMPLES_TO_CREATE.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ROOT, filesUnder } from './markdown';

/** Test files a guide asks the reader to write; they do not exist in the repository on purpose. */
const EXAMPLES_TO_CREATE = new Map([['docs/dev/adding-an-operation.md', new Set(['file-get.test.ts'])]]);

/** A test file's name as prose writes it; "*-regressions.test.ts" (a pattern) is not one. */
const TEST_FILE_NAME = /(?<![\w.*-])[A-Za-z][\w.-]*\.test\.ts\b/g;

function markdownFiles(): string[] {
	const atRoot = fs.readdirSync(ROOT).filter((name) => name.endsWith('.md'));
	return [...atRoot, ...['docs', 'dev', 'scripts', 'bench', 'examples'].flatMap((dir) => filesUnder(dir, ['.md']))];
}

function testFileNames(): Set<string> {
	return new Set(filesUnder('test', ['.test.ts']).map((file) => path.basename(file)));
}

test('every *.test.ts a Markdown file names exists under test/', () => {
	const existing = testFileNames();
	expect(existing.size).toBeGreaterThan(50);
	const missing: string[] = [];
	for (const file of markdownFiles()) {
		const allowed = EXAMPLES_TO_CREATE.get(file) ?? new Set<string>();
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		for (const [name] of text.matchAll(TEST_FILE_NAME)) {
			const base = path.basename(name);
			if (!existing.has(base) && !allowed.has(base)) missing.push(`${file}: ${name}`);
		}
	}
	expect(missing).toEqual([]);
});

test('the check sees a name that does not exist', () => {
	const existing = testFileNames();
	const [name] = 'see simplify.property.test.ts'.match(TEST_FILE_NAME) ?? [];
	expect(name).toBe('simplify.property.test.ts');
	expect(existing.has(name!)).toBe(false);
});
