/**
 * File > Review Values in the real n8n (2.41.1, or N8N_E2E_VERSION, e.g. 1.123.81) with headless Chromium (docs/dev/review-values.md):
 * a production execution gets its review link (Get Review Link), waits in Review Values; a person
 * opens the link, sees the document and its fields, corrects two values and approves; the same
 * link opened afterwards; a rejection; the Wait Limit passing (n8n's wait tracker, up to 60 s
 * late). Screenshots into docs/screenshots/ (review-page.png, review-sent.png).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { startEmulator, type Emulator } from '../../dev/emulator';
import type { EditorBrowser } from '../../dev/n8n/browser';
import { openBrowser } from '../../dev/n8n/browser';
import { n8nCli } from '../../dev/n8n/n8n-cli';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import type { ExecutionRecord, PreparedFolder } from '../../dev/n8n/n8n-stack';
import { REPOSITORY_ROOT, executionOutput, importCredentialsAndWorkflows, prepareUserFolder, waitForExecution } from '../../dev/n8n/n8n-stack';
import { REVIEW_LINK_NODE, REVIEW_NODE, reviewWorkflow } from '../../dev/n8n/review-workflows';
import { uploadAndGetFile } from '../emulator/test-helpers';
import { e2eN8nVersion, e2eRuntime, versionEnv, waitFor } from './helpers';

const LINK = REVIEW_LINK_NODE;
const REVIEW = REVIEW_NODE;
const SCREENSHOTS = path.join(REPOSITORY_ROOT, 'docs', 'screenshots');

const REVIEWED = { id: 'dexReviewE2e0001', path: 'dex-review', webhookId: '2c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e101' };
const EXPIRES = { id: 'dexReviewE2e0002', path: 'dex-review-expires', webhookId: '2c7b2f4e-7a0c-4a57-9a6e-11b0c0a1e102' };

describe(`File > Review Values in the real n8n ${e2eN8nVersion()} with Chromium`, () => {
	let prepared: PreparedFolder;
	let emulator: Emulator;
	let n8n: N8nInstance;
	let browser: EditorBrowser;

	beforeAll(async () => {
		const runtime = await e2eRuntime();
		prepared = await prepareUserFolder({ build: false, runtime });
		const env = { ...prepared.env, ...versionEnv(runtime) };
		emulator = await startEmulator();
		const workflows = [
			reviewWorkflow({ id: REVIEWED.id, name: `e2e: review values (${REVIEWED.path})`, webhookPath: REVIEWED.path, webhookId: REVIEWED.webhookId, waitHours: 72, files: 'one' }),
			reviewWorkflow({ id: EXPIRES.id, name: `e2e: review values (${EXPIRES.path})`, webhookPath: EXPIRES.path, webhookId: EXPIRES.webhookId, waitHours: 0.01, files: 'one' }),
		];
		const cli = n8nCli({ userFolder: prepared.userFolder, env, runtime });
		await importCredentialsAndWorkflows(cli, emulator, workflows);
		for (const workflow of workflows) await cli.publishWorkflow(workflow.id!);
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env });
		browser = await openBrowser();
		await browser.page.setViewportSize({ width: 1280, height: 900 });
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await emulator?.close();
		if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
	});

	/**
	 * The workflow's waiting executions, as the editor's Executions list finds them (`/rest/executions`
	 * with a status filter). Not the public API's list: n8n 1.x keeps a waiting execution among its
	 * active executions (ActiveExecutions.add keeps an entry whose status is 'waiting', for its
	 * response), and the public API's GET /executions leaves active executions out unless asked for
	 * status=running, so on 1.x it never lists one that waits (GET /executions/<id> does).
	 */
	async function waitingExecutionIds(workflowId: string): Promise<string[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['waiting'] }));
		const page = await n8n.rest<{ results: Array<{ id: string; status: string }> }>(`/executions?filter=${filter}&limit=100`);
		return page.results.filter((execution) => execution.status === 'waiting').map((execution) => String(execution.id));
	}

	/** Starts an execution for one file; resolves with its id and review link once it waits. */
	async function startReview(workflow: { id: string; path: string }, fileId: string): Promise<{ executionId: string; url: string }> {
		const before = new Set(await waitingExecutionIds(workflow.id));
		await waitFor(
			'the webhook to answer',
			async () => {
				const response = await fetch(`${n8n.url}/webhook/${workflow.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fileId }) });
				await response.arrayBuffer();
				return response.status === 200 ? true : undefined;
			},
			60_000,
			1000,
		);
		const executionId = await waitFor('the execution to wait', async () => (await waitingExecutionIds(workflow.id)).find((id) => !before.has(id)), 120_000);
		const [linked] = executionOutput(await n8n.publicApi<ExecutionRecord>(`/executions/${executionId}?includeData=true`), LINK);
		return { executionId, url: String(linked.reviewUrl) };
	}

	async function seed(): Promise<{ fileId: string }> {
		return (await uploadAndGetFile(emulator, INVOICE_FILE_NAME, invoiceText(), { fileType: 'text/plain' })) as { fileId: string };
	}

	test('a person opens the link, sees the document and the fields, corrects two values and a table (a row removed, a row added) and approves; the link afterwards; a stale tab; a rejection', async () => {
		const { fileId } = await seed();
		const { executionId, url } = await startReview(REVIEWED, fileId);
		const { page } = browser;

		// A second tab on the same link, opened before the review is sent: it goes stale.
		const staleTab = await browser.context.newPage();
		await staleTab.goto(url);
		await staleTab.locator('h2', { hasText: INVOICE_FILE_NAME }).waitFor();

		await page.goto(url);
		await page.locator('h2', { hasText: INVOICE_FILE_NAME }).waitFor();
		expect(await page.locator('.doc iframe').count()).toBe(1);
		await page.locator('label:has-text("Vendor Name") + input').fill('Initech');
		await page.locator('label:has-text("Total Amount") + input').fill('999.5');
		// The table: the second row removed, a row added.
		const lineItems = page.locator('label:has-text("Line Items") + div.wrap table');
		await lineItems.locator('tr[data-row]').nth(1).locator('input[data-remove]').check();
		await page.getByRole('button', { name: 'Add row' }).click();
		const added = lineItems.locator('tr[data-new] [data-cell]');
		for (const [index, cell] of ['Widget B', '2', '25', '50'].entries()) await added.nth(index).fill(cell);
		await page.getByLabel('Approve').check();
		await page.locator('textarea[data-note]').fill('Vendor and total corrected');
		await page.evaluate('window.scrollTo(0, 0)');
		await page.screenshot({ path: path.join(SCREENSHOTS, 'review-page.png'), fullPage: false });
		await page.getByRole('button', { name: 'Send review' }).click();
		await page.getByText('the review has been sent').waitFor();
		await page.screenshot({ path: path.join(SCREENSHOTS, 'review-sent.png') });

		const ended = await waitForExecution(n8n, executionId);
		const [item] = executionOutput(ended, REVIEW);
		expect(item).toMatchObject({
			fileId,
			decision: 'approved',
			note: 'Vendor and total corrected',
			values: { 'Vendor Name': 'Initech', 'Total Amount': 999.5, Currency: 'USD' },
		});
		const changes = item.changes as Array<{ field: string; before?: unknown; after?: unknown }>;
		expect(changes.map((change) => change.field).sort()).toEqual(['Line Items', 'Total Amount', 'Vendor Name']);
		expect(changes.find((change) => change.field === 'Vendor Name')).toMatchObject({ before: 'ACME Supplies Ltd.', after: 'Initech' });
		expect(changes.find((change) => change.field === 'Total Amount')).toMatchObject({ after: 999.5 });
		const rowsAfter = [
			{ Description: 'Widget A', Quantity: 10 },
			{ Description: 'Widget B', Quantity: 2, 'Unit Price': 25, Amount: 50 },
		];
		expect(changes.find((change) => change.field === 'Line Items')).toMatchObject({ after: rowsAfter });
		expect((changes.find((change) => change.field === 'Line Items')?.before as unknown[]).length).toBe(2);
		expect((item.values as Record<string, unknown>)['Line Items']).toMatchObject(rowsAfter);
		expect(emulator.requests.filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/values'))).toHaveLength(1);

		// A second person opens the same link: n8n itself answers for an ended execution; nothing is written again.
		const again = await fetch(url);
		const againText = await again.text();
		process.stderr.write(`[review e2e] the link after the review: ${again.status} ${againText.slice(0, 200)}\n`);
		expect(again.status).toBe(409);
		expect(againText).toContain('finished already');
		// The stale tab sends its own review: n8n answers 409 for the ended execution, the page says
		// the review is no longer open, and nothing is written again.
		await staleTab.locator('label:has-text("Vendor Name") + input').fill('Globex');
		await staleTab.getByLabel('Reject').check();
		await staleTab.getByRole('button', { name: 'Send review' }).click();
		await staleTab.getByRole('heading', { name: 'Review no longer open' }).waitFor();
		expect(await staleTab.getByText('Nothing was changed by this attempt').count()).toBe(1);
		expect(await staleTab.locator('form').count()).toBe(0);
		await staleTab.close();
		expect(emulator.requests.filter((entry) => entry.method === 'PATCH' && entry.path.endsWith('/values'))).toHaveLength(1);

		// The rejection is sent from a phone's screen: the document and the fields stack, nothing is
		// wider than the screen, and the controls are reachable.
		const rejected = await startReview(REVIEWED, fileId);
		await page.setViewportSize({ width: 390, height: 844 });
		try {
			await page.goto(rejected.url);
			await page.locator('h2', { hasText: INVOICE_FILE_NAME }).waitFor();
			const layout = (await page.evaluate(`(() => {
				const doc = document.querySelector('.doc').getBoundingClientRect();
				const fields = document.querySelector('.fields').getBoundingClientRect();
				return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, fieldsBelowDocument: fields.top >= doc.bottom, fieldsWidth: fields.width };
			})()`)) as { scrollWidth: number; innerWidth: number; fieldsBelowDocument: boolean; fieldsWidth: number };
			process.stderr.write(`[review e2e] on a 390 px wide screen: ${JSON.stringify(layout)}\n`);
			expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
			expect(layout.fieldsBelowDocument).toBe(true);
			await page.screenshot({ path: path.join(SCREENSHOTS, 'review-page-phone.png') });
			await page.getByLabel('Reject').check();
			await page.getByRole('button', { name: 'Send review' }).click();
			await page.getByText('the review has been sent').waitFor();
		} finally {
			await page.setViewportSize({ width: 1280, height: 900 });
		}
		const [rejection] = executionOutput(await waitForExecution(n8n, rejected.executionId), REVIEW);
		expect(rejection).toMatchObject({ fileId, decision: 'rejected', changes: [] });
	});

	test('past the Wait Limit n8n passes the input items through: no decision', async () => {
		const { fileId } = await seed();
		const { executionId } = await startReview(EXPIRES, fileId);
		const ended = await waitForExecution(n8n, executionId, 240_000);
		const [item] = executionOutput(ended, REVIEW);
		expect(item.decision).toBeUndefined();
		expect((item.body as { fileId?: string }).fileId).toBe(fileId);
		expect(typeof item.reviewUrl).toBe('string');
	});
});
