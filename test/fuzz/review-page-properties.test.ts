/**
 * Property-based test of File > Review Values' page escaping (nodes/DocumentExtraction/actions/
 * file/reviewValuesPage.ts): generated pages whose every piece of service or person text (file
 * names, field names, values, choices, table cells, preview URLs) is a hostile string, rendered,
 * served with the page's own headers over HTTP on 127.0.0.1 and parsed by headless Chromium.
 *
 * Invariants, checked in the browser's own parse:
 * - P1 (nothing written that the page did not write): every element is one the page writes, every
 *   attribute one the page writes (no `on…` handler), exactly two scripts (the data block and the
 *   page's own), the same inside <template>s;
 * - P2 (no script runs): no injected code set its marker, and no Content-Security-Policy
 *   violation was reported (an injected script or handler would be one);
 * - P3 (text lands as text): each file's heading, each field's label, each input's start value,
 *   each read-only value and table cell, and the data block's JSON read back exactly as given;
 *   a preview's src is the URL parser's reading of an http(s) link, or there is none.
 *
 * Runs: 40 from a fixed seed in `npm test` (each opens a page); `npm run fuzz` scales them
 * (test/fuzz/runs.ts).
 */
import * as fc from 'fast-check';

import type { PageField, PageFile } from '../../nodes/DocumentExtraction/actions/file/reviewValuesPage';
import { SUBMIT_MESSAGES, pageHeaders, reviewPage, safeUrl } from '../../nodes/DocumentExtraction/actions/file/reviewValuesPage';
import type { EditorBrowser } from '../../dev/n8n/browser';
import { servePagesInChromium, type PageInChromium } from '../node/page-in-chromium';
import { fuzzParameters, fuzzTimeout } from './runs';

const RUNS = 40;
jest.setTimeout(fuzzTimeout(RUNS, 400, 0.05));

const MARKER = '__dexPwned';
const HOSTILE = [
	`<script>window.${MARKER}=1</script>`,
	`"><img src=x onerror="window.${MARKER}=1">`,
	`'><svg onload=window.${MARKER}=1>`,
	'</textarea><script>window.__dexPwned=1</script>',
	'</script><script>window.__dexPwned=1</script>',
	'<!--',
	'-->',
	']]>',
	'`${1}`',
	'&lt;b&gt;',
	'&amp;',
	'\u2028\u2029',
	'<template><script>window.__dexPwned=1</script></template>',
	'javascript:window.__dexPwned=1',
	'<style>*{display:none}</style>',
	'<iframe src="javascript:window.top.__dexPwned=1">',
	'{"files":[]}',
	'\n',
	'2024-02-30',
	'2024-02-29',
	' ',
];

/** Text as service and people send it: hostile pieces, any Unicode (no NUL, no lone surrogate: HTML replaces those by design), mixed. */
const text = fc
	.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', maxLength: 12 })), { maxLength: 4 })
	.map((parts) => parts.join('').replace(/\u0000/g, ''));

const kind = fc.constantFrom('string', 'number', 'date', 'boolean', 'object', 'other' as const);

const scalar: fc.Arbitrary<PageField> = fc.record({
	name: text,
	kind,
	readOnly: fc.boolean(),
	choices: fc.array(text, { maxLength: 3 }),
	text,
}).map((field): PageField => ({ ...field, choices: field.kind === 'string' ? field.choices : [], columns: [], rows: [] }));

const table: fc.Arbitrary<PageField> = fc
	.record({
		name: text,
		readOnly: fc.boolean(),
		columns: fc.array(fc.record({ name: text, kind, choices: fc.array(text, { maxLength: 2 }) }), { minLength: 1, maxLength: 2 }),
		cells: fc.array(fc.array(text, { minLength: 2, maxLength: 2 }), { maxLength: 2 }),
	})
	.map(({ name, readOnly, columns, cells }) => ({
		name,
		kind: 'table' as const,
		readOnly,
		choices: [],
		text: '',
		columns: columns.map((column) => ({ ...column, choices: column.kind === 'string' ? column.choices : [] })),
		rows: cells.map((row) => row.slice(0, columns.length)),
	}));

let origin = '';
let current = '';
let browser: EditorBrowser;
let served: PageInChromium | undefined;

beforeAll(async () => {
	served = await servePagesInChromium((req, res) => {
		if (req.url === '/page') {
			res.writeHead(200, pageHeaders([origin]));
			res.end(current);
			return;
		}
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.end('preview');
	});
	({ origin, browser } = served);
});

afterAll(async () => {
	await served?.close();
});

const file = fc.record({
	fileId: fc.uuid(),
	fileName: text,
	preview: fc.option(
		fc.oneof(
			text.map((query) => ({ url: `${'ORIGIN'}/preview?q=${query}`, image: false })),
			text.map((query) => ({ url: `${'ORIGIN'}/${encodeURIComponent(query)}.png`, image: true })),
			text.map((junk) => ({ url: `javascript:${junk}`, image: false })),
		),
		{ nil: undefined },
	),
	fields: fc.array(fc.oneof(scalar, scalar, table), { maxLength: 4 }),
});

/** What the browser made of the page, read in the page. */
interface Seen {
	problems: string[];
	marker: unknown;
	violations: number;
	scripts: number;
	data: string;
	headings: string[];
	labels: string[][];
	starts: string[][];
	previews: Array<string | null>;
}

const TAGS = 'html head meta title style body main h1 h2 p form section div label span input select option textarea table thead tbody tr th td button template datalist script iframe img';
const ATTRIBUTES = 'lang charset name content class id method type value required selected rows maxlength inputmode list src alt title aria-label role hidden data-field data-cell data-row data-new data-remove data-decision data-note data-add data-body';

/** Runs in the page (plain JavaScript: the test project has no DOM types): what the browser made of it. */
const READ_PAGE = `({ tags, attributes, marker }) => {
	const allowedTags = new Set(tags.split(' '));
	const allowedAttributes = new Set(attributes.split(' '));
	const problems = [];
	const walk = (root) => {
		for (const element of root.querySelectorAll('*')) {
			const tag = element.tagName.toLowerCase();
			if (!allowedTags.has(tag)) problems.push('element <' + tag + '>');
			for (const attribute of element.attributes) {
				if (!allowedAttributes.has(attribute.name)) problems.push('attribute ' + attribute.name + ' on <' + tag + '>');
			}
			if (tag === 'template') walk(element.content);
		}
	};
	walk(document);
	// The value the page's script compares and sends (an input's value after the browser's own sanitising).
	const startOf = (element) => ('value' in element && element.tagName !== 'BUTTON' ? element.value : element.textContent || '');
	const all = (root, selector) => Array.from(root.querySelectorAll(selector));
	const sections = all(document, 'section.file');
	return {
		problems,
		marker: window[marker],
		violations: window.__dexViolations,
		scripts: document.querySelectorAll('script').length,
		data: document.getElementById('dex-data')?.textContent ?? '',
		headings: sections.map((section) => section.querySelector('h2')?.textContent ?? ''),
		labels: sections.map((section) => all(section, '.fields > label').map((label) => label.firstChild?.textContent ?? '')),
		starts: sections.map((section) => all(section, '.fields > [data-field], .fields > .ro, .fields td > [data-cell], .fields td:not(:has(*))').map(startOf)),
		previews: sections.map((section) => section.querySelector('.doc iframe, .doc img')?.getAttribute('src') ?? null),
	};
}`;

async function look(page: string): Promise<Seen> {
	current = page;
	await browser.page.goto(`${origin}/page`);
	return (await browser.page.evaluate(`(${READ_PAGE})(${JSON.stringify({ tags: TAGS, attributes: ATTRIBUTES, marker: MARKER })})`)) as Seen;
}

/** What P3 expects to read back, in document order, for one file (CR is read as LF by HTML, by design). */
function expectedStarts(page: PageFile): string[] {
	const lf = (value: string) => value.replace(/\r\n?/g, '\n');
	return page.fields.flatMap((field) => {
		if (field.kind !== 'table') return [lf(field.text)];
		return field.rows.flatMap((row) => field.columns.map((_, c) => lf(row[c] ?? '')));
	});
}

describe('the review page in a browser, with hostile text everywhere', () => {
	it('shows every text as text: no element, attribute or script the page did not write', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 2 }), async (generated) => {
				const files: PageFile[] = generated.map((entry) => ({
					...entry,
					preview: entry.preview && { ...entry.preview, url: entry.preview.url.replace('ORIGIN', origin) },
				}));
				const seen = await look(reviewPage(files));

				expect(seen.problems).toEqual([]);
				expect(seen.marker).toBeUndefined();
				expect(seen.violations).toBe(0);
				expect(seen.scripts).toBe(2);
				expect(JSON.parse(seen.data)).toEqual({
					files: files.map((entry) => ({ fileId: entry.fileId, fields: entry.fields.map((field) => ({ name: field.name, kind: field.kind, columns: field.columns.map((column) => column.name) })) })),
					...SUBMIT_MESSAGES,
				});
				const lf = (value: string) => value.replace(/\r\n?/g, '\n');
				expect(seen.headings).toEqual(files.map((entry) => lf(entry.fileName || entry.fileId)));
				expect(seen.labels).toEqual(files.map((entry) => [...entry.fields.map((field) => lf(`${field.name} `)), 'Note ']));
				expect(seen.starts).toEqual(files.map(expectedStarts));
				expect(seen.previews).toEqual(files.map((entry) => (entry.preview && safeUrl(entry.preview.url)) || null));
			}),
			fuzzParameters(RUNS, 0.05),
		);
	});
});

describe('the review page in a browser: cases the generator finds rarely', () => {
	const field = (kind: PageField['kind'], value: string): PageField => ({ name: 'F', kind, readOnly: false, choices: [], text: value, columns: [], rows: [] });
	const starts = async (fields: PageField[]) => (await look(reviewPage([{ fileId: '00000000-0000-4000-8000-000000000001', fileName: 'f', fields }]))).starts[0];

	it('a value that starts with a line break keeps it (the parser drops the first one of a <textarea>)', async () => {
		expect(await starts([field('string', '\nsecond line'), field('object', '\n{}')])).toEqual(['\nsecond line', '\n{}']);
	});

	it('a date that is not a real date is offered as text, not as an empty date input that would clear it', async () => {
		expect(await starts([field('date', '2024-02-30'), field('date', '2024-02-29')])).toEqual(['2024-02-30', '2024-02-29']);
	});
});
