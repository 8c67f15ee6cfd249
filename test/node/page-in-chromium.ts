/**
 * A page of the node's, served over HTTP on 127.0.0.1 and opened in headless Chromium, which
 * counts Content-Security-Policy violations in `window.__dexViolations` (an injected script or
 * handler the policy blocked is one). Shared by the review page's tests.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { EditorBrowser } from '../../dev/n8n/browser';
import { openBrowser } from '../../dev/n8n/browser';

export interface PageInChromium {
	origin: string;
	browser: EditorBrowser;
	close(): Promise<void>;
}

export async function servePagesInChromium(listener: RequestListener): Promise<PageInChromium> {
	const server: Server = createServer(listener);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const browser = await openBrowser();
	await browser.page.addInitScript("window.__dexViolations = 0; document.addEventListener('securitypolicyviolation', () => { window.__dexViolations += 1; });");
	return {
		origin,
		browser,
		async close() {
			await browser.close();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
