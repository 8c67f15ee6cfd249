/** Reading Markdown as GitHub renders it: prose without code blocks, and the anchors of its headings. */

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
