/**
 * Stands in for `sanitize-html` when test/e2e/examples-end.test.ts loads n8n's Wait node in
 * process: the Wait node's module requires it (for its form pages) and its htmlparser2 is an ES
 * module that jest cannot require. The examples' Wait waits a time interval and never sanitizes;
 * a call here fails the test instead of passing HTML through unchecked.
 */
function sanitizeHtml(): never {
	throw new Error('sanitize-html is not available in the engine harness (test/e2e/sanitize-html-stub.ts)');
}

export = sanitizeHtml;
