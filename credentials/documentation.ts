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
