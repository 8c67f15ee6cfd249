/**
 * Reading the repository's Markdown as GitHub renders it: the prose without fenced code, the
 * anchors a file offers (GitHub's slugs of its headings, and explicit ids), and whether a link
 * points at a file and a heading that exist, and the code locations a page names. Used by readme.test.ts,
 * api-contract.test.ts and docs-dev.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

/** Markdown without its fenced code blocks. */
export function prose(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchors a Markdown file offers: GitHub's slugs of its headings, and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, title] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
		const slug = title
			.toLowerCase()
			.replace(/[^\p{L}\p{N} _-]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	for (const [, id] of markdown.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
	return anchors;
}

/**
 * Whether `file` (relative to the repository root) exists and, when `anchor` is given and the file
 * is Markdown, has a heading (or an explicit id) with that anchor.
 */
export function pointsAtHeading(file: string, anchor?: string): boolean {
	const resolved = path.join(ROOT, file);
	if (!fs.existsSync(resolved)) return false;
	if (!anchor || !resolved.endsWith('.md')) return true;
	return anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor);
}

/** A Markdown link's target (`path#anchor`, relative to `from`; no path: `from` itself) as a file from the root and an anchor. */
export function linkTarget(from: string, target: string): { file: string; anchor?: string } {
	const [targetPath, anchor] = target.split('#');
	return { file: targetPath ? path.join(path.dirname(from), targetPath) : from, anchor: anchor || undefined };
}

/** Files under `dir` (relative to the root) whose names end with one of `endings`, node_modules left out. */
export function filesUnder(dir: string, endings: string[]): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(relative, endings);
		return endings.some((ending) => entry.name.endsWith(ending)) ? [relative] : [];
	});
}

const CODE_PATH = String.raw`(?:nodes|credentials|dev)\/[\w./-]+\.ts`;
const SYMBOLS = String.raw`\x60[\w.]+\x60(?:(?:, | and )\x60[\w.]+\x60)*`;

/** Every code location a page names, with the symbols it names beside it: `path` (`a`, `b`) or `a`, `b` in `path`. */
export function codeLocations(markdown: string): Array<{ file: string; symbols: string[] }> {
	const text = prose(markdown).replace(/\s*\n\s*/g, ' ');
	const symbolsOf = (list: string) => [...list.matchAll(/`([\w.]+)`/g)].map((match) => match[1]);
	const locations: Array<{ file: string; symbols: string[] }> = [];
	for (const match of text.matchAll(new RegExp(String.raw`\x60(${CODE_PATH})\x60(?: \((${SYMBOLS})\))?`, 'g'))) {
		locations.push({ file: match[1], symbols: match[2] ? symbolsOf(match[2]) : [] });
	}
	for (const match of text.matchAll(new RegExp(String.raw`(${SYMBOLS}) in \x60(${CODE_PATH})\x60`, 'g'))) {
		locations.push({ file: match[2], symbols: symbolsOf(match[1]) });
	}
	return locations;
}
