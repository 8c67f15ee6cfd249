/**
 * The Markdown files are plain text: no control character but line feed and tab, and no
 * invisible one (zero-width, bidirectional override, line separator, lone surrogate), so that
 * grep, diff and GitHub read them as text and a reader sees every character there is. The
 * reliability matrix wrote NUL from its hostile inputs into docs/reliability.md (issue 34): its
 * table writer now escapes them, in one function.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { CaseResult } from '../../bench/reliability/matrix';
import { markdownTable, printable } from '../../bench/reliability/matrix';
import { ROOT, filesUnder } from './markdown';

/** What may not stand in a Markdown file: every control, format and separator character but \n and \t. */
const NOT_PLAIN_TEXT = /[^\P{Cc}\n\t]|[\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/u;

function markdownFiles(): string[] {
	const atRoot = fs.readdirSync(ROOT).filter((name) => name.endsWith('.md'));
	return [...atRoot, ...['docs', 'dev', 'scripts', 'bench', 'examples'].flatMap((dir) => filesUnder(dir, ['.md']))];
}

/** The first character of `text` that is not plain text, with its line, or undefined. */
function firstUnprintable(text: string): string | undefined {
	const lines = text.split('\n');
	for (const [index, line] of lines.entries()) {
		const match = NOT_PLAIN_TEXT.exec(line);
		if (match) return `line ${index + 1}: U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	}
	return undefined;
}

describe('Markdown files are plain text', () => {
	it.each(markdownFiles())('%s has no control or invisible character but \\n and \\t', (file) => {
		expect(firstUnprintable(fs.readFileSync(path.join(ROOT, file), 'utf8'))).toBeUndefined();
	});

	it('finds the Markdown files (docs/reliability.md among them)', () => {
		expect(markdownFiles()).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'reliability.md')]));
	});
});

describe("The reliability matrix's table writer escapes what it quotes", () => {
	it('printable: NUL, ESC, DEL and C1 as \\xNN, zero-width and bidi characters as \\uNNNN, lone surrogates too; other text unchanged', () => {
		expect(printable('a\u0000b\u001bc\u007fd\u0085e')).toBe('a\\x00b\\x1Bc\\x7Fd\\x85e');
		expect(printable('api\u200b.example.com/\u202e\u2028\ufeff')).toBe('api\\u200B.example.com/\\u202E\\u2028\\uFEFF');
		expect(printable('lone \ud800 surrogate, tag \u{e0001}')).toBe('lone \\uD800 surrogate, tag \\u{E0001}');
		expect(printable('Grüße – “quoted” 😀 \u00e9')).toBe('Grüße – “quoted” 😀 \u00e9');
	});

	it('a case whose name and outcome quote NUL, a bidi override and a pipe gives a table of plain text, one line a row', () => {
		const result = {
			matrixCase: { group: 'input', name: 'destinationPath "a\u0000b|c\u202e"', operation: 'file.upload', expect: 'refused before any request' },
			outcome: 'got "a\u0000b|c\u202e"',
			asExpected: true,
			apiRequests: 0,
			storageRequests: 0,
			seconds: 0,
			documentsCreated: 0,
			documentsLost: 0,
			documentsDuplicated: 0,
			keyLeaks: 0,
			keyShown: false,
			waits: [],
			peakRssMiB: 0,
			insideAnnouncedWaits: 0,
		} as CaseResult;

		const table = markdownTable([result]);

		expect(firstUnprintable(table)).toBeUndefined();
		expect(table.split('\n')).toHaveLength(3);
		expect(table).toContain('| destinationPath "a\\x00b\\|c\\u202E" |');
		expect(table).toContain('| got "a\\x00b\\|c\\u202E" |');
	});
});
