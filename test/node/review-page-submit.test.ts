/**
 * File > Review Values' page sends the review with its own script (nodes/DocumentExtraction/
 * actions/file/reviewValuesPage.ts) and shows what comes back, in headless Chromium against a
 * server on 127.0.0.1 that answers as the node or as n8n does:
 * - the node's answer (an HTML page of its own): the page shows it, the review sent once;
 * - n8n's 409 JSON for an execution that has resumed or ended (a stale tab, a second person):
 *   "Review no longer open", the form gone;
 * - no answer, or a gateway's 502: the form stays with what was entered, a status line says so,
 *   and the review can be sent again;
 * - an HTML answer that carries a script (not the node's: a proxy's): shown, the script not run;
 * and no Content-Security-Policy violation (the script's request is allowed by connect-src).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { PageFile } from '../../nodes/DocumentExtraction/actions/file/reviewValuesPage';
import { SUBMIT_MESSAGES, messagePage, pageHeaders, reviewPage } from '../../nodes/DocumentExtraction/actions/file/reviewValuesPage';
import type { EditorBrowser } from '../../dev/n8n/browser';
import { servePagesInChromium, type PageInChromium } from './page-in-chromium';

jest.setTimeout(120_000);

const FILE: PageFile = {
	fileId: '5f0c7a3e-2b51-4a8e-9d3c-0c8f6b1e2a77',
	fileName: 'invoice.pdf',
	fields: [
		{ name: 'Vendor Name', kind: 'string', readOnly: false, choices: [], text: 'ACME', columns: [], rows: [] },
		{ name: 'Total Amount', kind: 'number', readOnly: false, choices: [], text: '10', columns: [], rows: [] },
	],
};

type Answer = (res: ServerResponse) => void;

let origin = '';
let browser: EditorBrowser;
/** How the server answers every submit, until changed. */
let answer: Answer = (res) => res.destroy();
const received: string[] = [];

async function bodyOf(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

let served: PageInChromium | undefined;

beforeAll(async () => {
	served = await servePagesInChromium((req, res) => {
		void (async () => {
			if (req.method === 'GET') {
				res.writeHead(200, pageHeaders([]));
				res.end(reviewPage([FILE]));
				return;
			}
			received.push(new URLSearchParams(await bodyOf(req)).get('payload') ?? '');
			answer(res);
		})();
	});
	({ origin, browser } = served);
});

afterAll(async () => {
	await served?.close();
});

beforeEach(() => {
	received.length = 0;
});

const nodePage = (title: string, message: string): Answer => (res) => {
	res.writeHead(200, pageHeaders([]));
	res.end(messagePage(title, message));
};

async function openAndFill(): Promise<void> {
	const { page } = browser;
	await page.goto(`${origin}/review?secret=s3cret`);
	await page.locator('label:has-text("Vendor Name") + input').fill('Initech');
	await page.getByLabel('Approve').check();
}

async function violations(): Promise<number> {
	return (await browser.page.evaluate('window.__dexViolations')) as number;
}

test("the node's answer is shown in place of the form; the review went once, with the change", async () => {
	answer = nodePage('Review sent', 'Thank you: the review has been sent.');
	await openAndFill();
	await browser.page.getByRole('button', { name: 'Send review' }).click();
	await browser.page.getByRole('heading', { name: 'Review sent' }).waitFor();
	expect(await browser.page.title()).toBe('Review sent');
	expect(await browser.page.locator('form').count()).toBe(0);
	expect(received).toHaveLength(1);
	expect(JSON.parse(received[0])).toEqual({
		files: [{ fileId: FILE.fileId, decision: 'approve', note: '', changes: [{ field: 'Vendor Name', kind: 'string', value: 'Initech' }] }],
	});
	expect(await violations()).toBe(0);
});

test("n8n's 409 for an execution that resumed or ended: 'Review no longer open', the form gone", async () => {
	answer = (res) => {
		res.writeHead(409, { 'content-type': 'application/json; charset=utf-8' });
		res.end(JSON.stringify({ code: 409, message: 'The execution "42 has finished already.' }));
	};
	await openAndFill();
	await browser.page.getByRole('button', { name: 'Send review' }).click();
	await browser.page.getByRole('heading', { name: SUBMIT_MESSAGES.gone.title }).waitFor();
	expect(await browser.page.getByText(SUBMIT_MESSAGES.gone.message).count()).toBe(1);
	expect(await browser.page.locator('form').count()).toBe(0);
	expect(await browser.page.content()).not.toContain('finished already');
	expect(await violations()).toBe(0);
});

test('no answer, then a 502 from a gateway: the form stays as entered and says so; sent again, it goes', async () => {
	// Chromium itself sends a POST again once when its connection is reset, so each kind of answer
	// stays until the next one is set, and the requests are not counted one per click.
	const dropped: Answer = (res) => res.destroy();
	const badGateway: Answer = (res) => {
		res.writeHead(502, { 'content-type': 'text/plain' });
		res.end('Bad Gateway');
	};
	await openAndFill();
	const { page } = browser;
	const status = page.locator('#dex-status');
	for (const failure of [dropped, badGateway]) {
		answer = failure;
		await page.getByRole('button', { name: 'Send review' }).click();
		await status.waitFor({ state: 'visible' });
		expect(await status.textContent()).toBe(SUBMIT_MESSAGES.unsent);
		expect(await page.locator('label:has-text("Vendor Name") + input').inputValue()).toBe('Initech');
		expect(await page.getByRole('button', { name: 'Send review' }).isEnabled()).toBe(true);
		await page.evaluate("document.getElementById('dex-status').hidden = true");
	}
	answer = nodePage('Review sent', 'Thank you: the review has been sent.');
	await page.getByRole('button', { name: 'Send review' }).click();
	await page.getByRole('heading', { name: 'Review sent' }).waitFor();
	expect(received.length).toBeGreaterThanOrEqual(3);
	// Every attempt sent the same review.
	expect(new Set(received).size).toBe(1);
	expect(await violations()).toBe(0);
});

test("an HTML answer that is not the node's, carrying a script: shown, the script not run", async () => {
	answer = (res) => {
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<title>Proxy</title><main><h1>Proxy page</h1><script>window.__dexPwned = 1</script><img src="x" onerror="window.__dexPwned = 2"></main>');
	};
	await openAndFill();
	await browser.page.getByRole('button', { name: 'Send review' }).click();
	await browser.page.getByRole('heading', { name: 'Proxy page' }).waitFor();
	await browser.page.waitForTimeout(300);
	expect(await browser.page.evaluate('window.__dexPwned')).toBeUndefined();
});
