/**
 * The n8n editor in a real browser: Debian's chromium driven headless by playwright-core, on
 * n8n 2.41.1 and 1.123.81 alike. Used by `npm run screenshots` and the end-to-end tests that look
 * at the editor as a person does (test/e2e/nodes-panel-suite.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

import { DEFAULT_OWNER, type Owner } from './n8n-env';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The flags this machine needs: no sandbox as root, no background connections.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface EditorBrowser {
	context: BrowserContext;
	page: Page;
	/** Closes the browser and removes its profile. */
	close(): Promise<void>;
}

/** Chromium with a fresh profile and one page at 1440x900. Throws when chromium is not installed. */
export async function openBrowser(): Promise<EditorBrowser> {
	if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get update && apt-get install -y chromium (CHROMIUM=/path names another)`);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: { width: 1440, height: 900 },
	});
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		async close() {
			await context.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Signs in with the owner's email and password (the same form on n8n 1.x and 2.x). */
export async function signIn(page: Page, url: string, owner: Owner = DEFAULT_OWNER): Promise<void> {
	await page.goto(`${url}/signin`);
	await page.locator('input[type="email"]').fill(owner.email);
	await page.locator('input[type="password"]').fill(owner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** Closes toasts and pop-ups the editor shows on first visits, so they do not cover what follows. */
export async function dismissPopups(page: Page): Promise<void> {
	for (const selector of ['.el-notification__closeBtn', '[data-test-id="close-button"]']) {
		for (const element of await page.locator(selector).all()) await element.click({ timeout: 1000 }).catch(() => undefined);
	}
}

/** The search field of the nodes panel (the node creator). */
export function nodesPanelSearch(page: Page): Locator {
	return page.locator('[data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator"] input[placeholder*="Search"]').first();
}

/**
 * Opens the nodes panel on the workflow shown, as a user does: an empty canvas's "Add first step"
 * (n8n 2.x opens the panel by itself there), else the canvas' + button, else the Tab key.
 */
export async function openNodesPanel(page: Page): Promise<void> {
	const search = nodesPanelSearch(page);
	if (await search.isVisible()) return;
	for (const selector of ['[data-test-id="canvas-add-button"]', '[data-test-id="node-creator-plus-button"]', '[data-test-id="canvas-plus-button"]']) {
		const button = page.locator(selector).first();
		if (await button.isVisible()) {
			await button.click();
			break;
		}
	}
	if (!(await search.isVisible())) await page.keyboard.press('Tab');
	await search.waitFor({ timeout: 15_000 });
}

/** The names the nodes panel lists now (entries, or an opened entry's actions), once two reads a moment apart agree. */
async function listedNames(page: Page, unlike?: string): Promise<string[]> {
	const names = page.locator('[data-test-id="node-creator-item-name"]');
	let shown = '';
	for (let read = 0; read < 60; read++) {
		await page.waitForTimeout(250);
		const now = JSON.stringify((await names.allInnerTexts()).map((name) => name.replace(/\s+/g, ' ').trim()));
		if (read > 0 && now === shown && now !== unlike) break;
		shown = now;
	}
	return JSON.parse(shown) as string[];
}

/** The nodes panel's entries (node and app names, as shown) after typing `text` into its search. */
export async function searchNodesPanel(page: Page, text: string): Promise<string[]> {
	await nodesPanelSearch(page).fill(text);
	return await listedNames(page);
}

/** Opens the listed entry named `name` (a click, as a user does); what the panel lists then: the entry's actions. */
export async function openNodesPanelEntry(page: Page, name: string): Promise<string[]> {
	const before = JSON.stringify(await listedNames(page));
	const exact = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
	await page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: exact }).first().click();
	return await listedNames(page, before);
}
