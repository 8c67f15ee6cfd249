/**
 * Where the editor's "Docs" links lead: this repository on GitHub, whose front page is the README
 * and whose docs/ folder holds the rest. It exists before the first release (the package's npm
 * page does not), and it is the repository package.json's "homepage" and "repository" name: the
 * publisher changes the three together (docs/publishing.md). The credential's documentationUrl,
 * the node descriptions' links and the codex files (*.node.json) are all made from it;
 * test/package/documentation-links.test.ts checks that they agree and that every #anchor is a
 * heading of the file it points into.
 */
export const REPOSITORY_URL = 'https://github.com/document-extraction/n8n-nodes-document-extraction';

/** A section of the README (the repository's front page), by its heading's anchor. */
export function readmeSection(anchor: string): string {
	return `${REPOSITORY_URL}#${anchor}`;
}

/** A file of this repository on GitHub (docs/..., its default branch). */
export function repositoryFile(file: string): string {
	return `${REPOSITORY_URL}/blob/HEAD/${file}`;
}

/**
 * Each node's "Docs" link in the node panel. n8n (editor-ui useNodeDocsUrl, 1.123.81 and 2.41.1)
 * shows a node description's documentationUrl as it is; without one it takes the codex's
 * primaryDocumentation and appends its tracking query (`${url}?utm_source=...`), after any
 * #section, which then names no heading. So the sections go in documentationUrl, and the codex
 * files' primaryDocumentation (the same pages) carry no #section.
 */
export const NODE_DOCUMENTATION = {
	documentExtraction: readmeSection('operations'),
	documentExtractionTrigger: readmeSection('trigger'),
	documentExtractionCallbackTrigger: readmeSection('which-trigger-to-pick'),
} as const;
