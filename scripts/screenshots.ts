/**
 * `npm run screenshots`: pictures of the editor as a person sees it, taken by a real browser
 * (Debian's chromium, driven headless by playwright-core) from the real n8n with this package:
 *   docs/screenshots/node-parameters.png     the Document Extraction node's parameter panel
 *   docs/screenshots/credential.png          the credential dialog
 *   docs/screenshots/executed-workflow.png   an executed example workflow (folder extraction)
 *   docs/screenshots/executed-node-output.png the node's output after that run
 *   docs/screenshots/nodes-panel-callback-trigger.png a new workflow's trigger panel searched for "callback"
 *   docs/screenshots/nodes-panel.png         the next-step panel searched for "Document Extraction"
 *   docs/screenshots/nodes-panel-actions.png its first entry opened: the trigger's and the node's actions
 *   docs/screenshots/upload-callback-waiting-canvas.png, upload-callback-waiting.png: Upload waiting
 *                                            for the service's callbacks, the canvas and the node's panel
 *   docs/screenshots/upload-output-table.png the first example (upload-and-extract.json) run, its
 *                                            output in the Table view (file name, status, values first)
 *   docs/screenshots/agent-workflow.png      the AI agent example after a run with the scripted model
 *   docs/screenshots/agent-tool-node.png     its Get file values tool: $fromAI file id, Description
 *   docs/screenshots/update-values-mapper.png Update Values (typeVersion 2) on the seeded Purchase Order:
 *                                            the field mapper with a field of every kind; then the time
 *                                            a node whose list holds 2,000 fields takes to open is printed
 *   docs/screenshots/update-values-mapper-expression.png the same with File from an expression that has
 *                                            no value in the editor: the mapping kept, the notice in words
 *   docs/screenshots/callback-trigger-listening.png, callback-trigger-test-url.png: the Callback
 *                                            Trigger's panel listening on its test URL, then fired by a
 *                                            call for the upload just made
 *   docs/screenshots/credential-test-*.png   the credential dialog after Test, one per failure a user
 *                                            meets: offline sandbox, unknown host (Default instance,
 *                                            a network whose DNS answers nothing), refused, untrusted
 *                                            certificate, rejected key (401), inactive key (403)
 *
 * SCREENSHOTS_ONLY=agent-workflow.png,agent-tool-node.png writes only the pictures named.
 *
 * Needs /usr/bin/chromium (`apt-get install -y chromium`); CHROMIUM=/path overrides it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { chatModelCredential, startOfflineChatModel } from '../dev/model/chat-model';
import { SEEDED_KEYS, addGeneratedFileType, startEmulator } from '../dev/emulator';
import { uploadToEmulator } from '../dev/emulator/client';
import { resourceMapperFields, valuesToUpdate } from '../dev/n8n/resource-mapper';
import { PURCHASE_ORDER_FILE_NAME, purchaseOrderText } from '../dev/purchase-order';
import { dnsBlockedEnv } from '../dev/n8n/n8n-env';
import { dismissPopups, openBrowser, openNodesPanel, openNodesPanelEntry, searchNodesPanel, signIn } from '../dev/n8n/browser';
import { startN8n, type N8nInstance } from '../dev/n8n/n8n-launcher';
import {
	CREDENTIAL_TYPE,
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	REPOSITORY_ROOT,
	executionOutput,
	runWorkflow,
	startStack,
	waitForExecution,
	type Stack,
} from '../dev/n8n/n8n-stack';
import { startSelfSignedHttps } from '../dev/self-signed-https';
import { onlineCommand } from '../dev/start-message';

const OUTPUT_DIR = path.join(REPOSITORY_ROOT, 'docs', 'screenshots');
const DISK_WORKFLOW_ID = 'dexExDiskUpload1';
const NODE_NAME = 'Upload, wait and read values';
const UPLOAD_WORKFLOW_ID = 'dexExUploadOne01';
const UPLOAD_NODE_NAME = 'Upload and extract';
const AGENT_WORKFLOW_ID = 'dexExAgentQs0001';
const CALLBACK_WORKFLOW_ID = 'dexExCallback001';
const CALLBACK_NODE_NAME = 'Upload and wait for the service';
const CALLBACK_TRIGGER_WORKFLOW_ID = 'dexExCallbackT01';
const CALLBACK_TRIGGER_NODE_NAME = 'When the service calls back';
const CALLBACK_TRIGGER_WEBHOOK_ID = '8e3b2f6a-4c1d-4a7e-9b5f-0d2c6e8a1f35';
const ONLY = process.env.SCREENSHOTS_ONLY ? new Set(process.env.SCREENSHOTS_ONLY.split(',')) : undefined;

function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

/** Runs an example through the server and waits for its end; throws when it did not succeed. */
async function runExample(stack: Stack, workflowId: string, trigger: string, what: string) {
	const id = await runWorkflow(stack.n8n, workflowId, trigger);
	const execution = await waitForExecution(stack.n8n, id);
	if (execution.status !== 'success') throw new Error(`${what} failed: ${JSON.stringify(execution.data?.resultData.error)}`);
	return { id, execution };
}

/** The canvas node named `name`. */
function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"], [data-name="${name}"]`).first();
}

/** Waits for a canvas node to show, then closes the pop-ups that would cover it. */
async function shown(page: Page, node: Locator): Promise<Locator> {
	await node.waitFor({ timeout: 30_000 });
	await dismissPopups(page);
	return node;
}

/** Opens a node's panel (NDV) with a double click. */
async function openPanel(page: Page, node: Locator): Promise<void> {
	await node.dblclick();
	await page.locator('[data-test-id="ndv"], .ndv-wrapper').first().waitFor({ timeout: 30_000 });
}

async function shoot(page: Page, name: string): Promise<string> {
	await page.waitForTimeout(800);
	const file = path.join(OUTPUT_DIR, name);
	if (ONLY && !ONLY.has(name)) return file;
	await page.screenshot({ path: file });
	say(`  ${path.relative(REPOSITORY_ROOT, file)}`);
	return file;
}

/**
 * Update Values' field mapper on the seeded Purchase Order (a field of every kind), then how long a
 * node whose saved list holds 2,000 fields (1,715 shown) takes to open, printed.
 */
async function mapperShots(page: Page, stack: Stack): Promise<void> {
	const credential = { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME };
	const uploadId = await uploadToEmulator(stack.emulator, SEEDED_KEYS.readWrite, PURCHASE_ORDER_FILE_NAME, Buffer.from(purchaseOrderText()));
	await stack.emulator.idle();
	const fileId = [...stack.emulator.state.files.values()].find((file) => file.uploadId === uploadId)!.fileId;
	const fileLocator = { __rl: true, mode: 'id', value: fileId };
	const order = await resourceMapperFields(stack.n8n, { fieldsFrom: 'file', fileId: fileLocator }, credential);
	const { fileTypeId } = addGeneratedFileType(stack.emulator, 2000, { name: 'Two thousand fields' });
	const typeLocator = { __rl: true, mode: 'id', value: fileTypeId };
	const big = await resourceMapperFields(stack.n8n, { fieldsFrom: 'fileType', fileType: typeLocator }, credential);
	const updateNode = (id: string, name: string, y: number, parameters: Record<string, unknown>) => ({
		id,
		name,
		type: NODE_TYPE,
		typeVersion: 2,
		position: [260, y],
		parameters: { resource: 'file', operation: 'updateValues', fileId: fileLocator, options: {}, ...parameters },
		credentials: { documentExtractionApi: credential },
	});
	const values = { 'PO Number': 'PO-1001', 'Order Date': '2024-06-03T00:00:00', 'Order Total': 1480, Approved: true, Priority: 'Urgent', 'Ship To': '{ "street": "1 Main Street", "city": "Springfield" }', 'Order Lines': '[{ "Item": "Steel bolts", "Quantity": 400 }]' };
	const created = await stack.n8n.publicApi<{ id: string }>('/workflows', {
		method: 'POST',
		body: {
			name: 'Update Values with the field mapper',
			nodes: [
				{ id: 'u1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				updateNode('u2', 'Update the order', 0, { columns: valuesToUpdate(values, order.fields, ['Document Reference']) }),
				updateNode('u3', 'Two thousand fields', 200, { fieldsFrom: 'fileType', fileType: typeLocator, columns: valuesToUpdate({}, big.fields) }),
				// File from an expression with no value in the editor (no input yet): the mapping kept, the notice in words.
				updateNode('u4', 'Update the file from the input', 400, {
					fileId: { __rl: true, mode: 'id', value: '={{ $json.fileId }}' },
					columns: valuesToUpdate({ 'Order Total': 1480, Approved: true }, order.fields),
				}),
			],
			connections: { Start: { main: [[{ node: 'Update the order', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
	});
	await page.goto(`${stack.n8n.url}/workflow/${created.id}`);
	await openPanel(page, await shown(page, canvasNode(page, 'Update the order')));
	const mapper = page.locator('[data-test-id="resource-mapper-container"]').first();
	await mapper.waitFor({ timeout: 60_000 });
	// Tall enough to show the panel whole: File, Define Values, Fields From and every field.
	await page.setViewportSize({ width: 1440, height: 1520 });
	await shoot(page, 'update-values-mapper.png');
	await page.setViewportSize({ width: 1440, height: 900 });
	await page.keyboard.press('Escape');
	await page.getByText('Back to canvas').first().click({ timeout: 3000 }).catch(() => undefined);
	await openPanel(page, await shown(page, canvasNode(page, 'Update the file from the input')));
	await page.locator('[data-test-id="resource-mapper-container"]').first().waitFor({ timeout: 60_000 });
	await page.setViewportSize({ width: 1440, height: 1100 });
	await shoot(page, 'update-values-mapper-expression.png');
	const notice = await page.locator('[data-test-id="resource-mapper-container"]').first().innerText();
	say(`    File from an expression, no input yet: ${notice.replace(/\s+/g, ' ').slice(0, 200)}`);
	await page.setViewportSize({ width: 1440, height: 900 });
	await page.keyboard.press('Escape');
	await page.getByText('Back to canvas').first().click({ timeout: 3000 }).catch(() => undefined);
	const started = Date.now();
	await openPanel(page, await shown(page, canvasNode(page, 'Two thousand fields')));
	await page.locator('[data-test-id="add-fields-select"], [data-test-id="mapping-fields-container"]').first().waitFor({ timeout: 180_000 });
	say(`    a node whose field list holds ${big.fields.length} fields (of 2,000; answer ${big.bytes} bytes in ${big.ms} ms) opened in ${Date.now() - started} ms`);
	await page.keyboard.press('Escape');
}

/**
 * The nodes panel: a new workflow's trigger panel searched for "callback" (the Callback Trigger's
 * own entry); then, beside the first example's nodes, "Document Extraction": the entry n8n merges
 * from the node and its polling trigger and the Callback Trigger's, then the first entry opened.
 */
async function nodesPanelShots(page: Page, stack: Stack): Promise<void> {
	await page.goto(`${stack.n8n.url}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"], [data-test-id="node-creator-search-bar"]').first().waitFor({ timeout: 30_000 });
	await dismissPopups(page);
	await openNodesPanel(page);
	say(`    trigger panel, "callback": ${(await searchNodesPanel(page, 'callback')).join(', ')}`);
	await shoot(page, 'nodes-panel-callback-trigger.png');

	await page.goto(`${stack.n8n.url}/workflow/${UPLOAD_WORKFLOW_ID}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 30_000 });
	await dismissPopups(page);
	await page.locator('.vue-flow__pane').first().click({ position: { x: 700, y: 650 } });
	await openNodesPanel(page);
	say(`    next-step panel, "Document Extraction": ${(await searchNodesPanel(page, 'Document Extraction')).join(', ')}`);
	await shoot(page, 'nodes-panel.png');
	say(`    its first entry: ${(await openNodesPanelEntry(page, 'Document Extraction')).length} actions`);
	await shoot(page, 'nodes-panel-actions.png');
	await page.keyboard.press('Escape');
}

/**
 * Upload waiting for the service's callbacks (upload-and-wait-for-callback.json run from the
 * editor, the emulator's processing slowed so that the wait lasts): the node's panel, whose output
 * says "Waiting for input" and, under it, the node's waitingNodeTooltip. Then the run is stopped.
 */
async function callbackWaitShots(page: Page, stack: Stack): Promise<void> {
	stack.emulator.setProcessingDelay(10 * 60_000);
	try {
		await page.goto(`${stack.n8n.url}/workflow/${CALLBACK_WORKFLOW_ID}`);
		await shown(page, canvasNode(page, CALLBACK_NODE_NAME));
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${CALLBACK_NODE_NAME}"].waiting`).first().waitFor({ timeout: 120_000 });
		await shoot(page, 'upload-callback-waiting-canvas.png');
		await openPanel(page, canvasNode(page, CALLBACK_NODE_NAME));
		const waiting = page.getByText('Waiting for the Document Extraction Service to call back', { exact: false }).first();
		await waiting.waitFor({ timeout: 30_000 });
		await shoot(page, 'upload-callback-waiting.png');
		say(`    ${(await waiting.innerText()).trim()}`);
		await page.keyboard.press('Escape');
		await page.locator('[data-test-id="stop-execution-button"]').first().click({ timeout: 5000 }).catch(() => undefined);
	} finally {
		stack.emulator.setProcessingDelay(300);
	}
}

/**
 * The Callback Trigger's test URL (callback-trigger-on-processed-files.json): its panel listening
 * after Execute step, then a call naming an upload that has finished processing, sent as the docs
 * show; the panel with the item it fired.
 */
async function callbackTestUrlShots(page: Page, stack: Stack): Promise<void> {
	const uploadId = await uploadToEmulator(stack.emulator, SEEDED_KEYS.readWrite, PURCHASE_ORDER_FILE_NAME, Buffer.from(purchaseOrderText()));
	await stack.emulator.idle();
	await page.goto(`${stack.n8n.url}/workflow/${CALLBACK_TRIGGER_WORKFLOW_ID}`);
	await openPanel(page, await shown(page, canvasNode(page, CALLBACK_TRIGGER_NODE_NAME)));
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	await page.getByText('Stop Listening', { exact: false }).first().waitFor({ timeout: 30_000 });
	await shoot(page, 'callback-trigger-listening.png');
	const answer = await fetch(`${stack.n8n.url}/webhook-test/${CALLBACK_TRIGGER_WEBHOOK_ID}/callback`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ status: 'completed', step: 'processing_finished', uploadId }),
	});
	say(`    test call for the upload just made: ${answer.status} ${await answer.text()}`);
	await page.getByText(PURCHASE_ORDER_FILE_NAME, { exact: false }).first().waitFor({ timeout: 60_000 });
	await shoot(page, 'callback-trigger-test-url.png');
	await page.keyboard.press('Escape');
}

/** A key that looks real (never sent anywhere: the sandbox is offline, or DNS answers nothing). */
const REAL_LOOKING_KEY = 'dex_live_0123456789abcdef0123456789abcdef';

/**
 * Saves a credential with `data` in `n8n`, opens its dialog (the editor tests a saved credential
 * when its dialog opens), opens "More details" and takes the picture once the dialog shows
 * `expected`, the start of the message.
 */
async function credentialTestShot(page: Page, n8n: N8nInstance, name: string, data: Record<string, string>, expected: string, file: string): Promise<void> {
	const { id } = await n8n.rest<{ id: string }>('/credentials', { body: { name, type: CREDENTIAL_TYPE, data } });
	await page.goto(`${n8n.url}/home/credentials/${id}`);
	await page.locator('[data-test-id="editCredential-modal"], .el-dialog').first().waitFor({ timeout: 30_000 });
	await dismissPopups(page);
	const details = page.getByText(/More details/i).first();
	await details.waitFor({ timeout: 30_000 });
	await details.click();
	await page.getByText(expected, { exact: false }).first().waitFor({ timeout: 15_000 });
	await shoot(page, file);
	say(`    ${(await page.getByText(expected, { exact: false }).first().innerText()).trim()}`);
	await page.keyboard.press('Escape');
}

/** The credential dialog after Test, for each failure a user meets; the offline ones in the stack's n8n. */
async function credentialTestShots(page: Page, stack: Stack): Promise<void> {
	const stopped = await startEmulator({ processingDelayMs: 0 });
	const stoppedUrl = stopped.apiUrl;
	await stopped.close();
	const untrusted = await startSelfSignedHttps();
	try {
		const n8n = stack.n8n;
		await credentialTestShot(page, n8n, 'Document Extraction (real service)', { apiKey: REAL_LOOKING_KEY, instance: 'default' }, 'The sandbox is offline', 'credential-test-offline.png');
		await credentialTestShot(page, n8n, 'Emulator, stopped', { apiKey: SEEDED_KEYS.readWrite, baseUrl: stoppedUrl }, 'the connection was refused', 'credential-test-refused.png');
		await credentialTestShot(page, n8n, 'Proxy with its own certificate', { apiKey: SEEDED_KEYS.readWrite, baseUrl: untrusted.url }, 'its TLS certificate is not trusted', 'credential-test-untrusted-certificate.png');
		await credentialTestShot(page, n8n, 'Emulator, mistyped key', { apiKey: 'dex_test_wsA_mistyped_0000000000000', baseUrl: stack.emulator.apiUrl }, 'The API key was rejected', 'credential-test-rejected-key.png');
		await credentialTestShot(page, n8n, 'Emulator, inactive key', { apiKey: SEEDED_KEYS.inactive, baseUrl: stack.emulator.apiUrl }, 'The API key is inactive', 'credential-test-inactive-key.png');
	} finally {
		await untrusted.close();
	}
	// Online, on a network whose DNS answers nothing: the same folder, n8n restarted without the loopback guard.
	await stack.n8n.stop();
	const online = await startN8n({ userFolder: stack.userFolder, runtime: stack.runtime, online: true, env: { ...stack.env, ...dnsBlockedEnv() } });
	try {
		await signIn(page, online.url);
		await credentialTestShot(page, online, 'Document Extraction (real service, no DNS)', { apiKey: REAL_LOOKING_KEY, instance: 'default' }, 'its host name could not be looked up', 'credential-test-unknown-host.png');
	} finally {
		await online.stop();
	}
}

async function main(): Promise<void> {
	fs.mkdirSync(OUTPUT_DIR, { recursive: true });
	say('Starting n8n with the package, the emulator and the examples...');
	const chatModel = await startOfflineChatModel();
	// The loopback guard names npm start's online command, as in the sandbox a user runs.
	const stack = await startStack({
		log: () => undefined,
		credentials: () => [chatModelCredential(chatModel.baseUrl)],
		n8n: { env: { LOOPBACK_GUARD_ONLINE_HINT: onlineCommand('npm start') } },
	});
	try {
		say('Running the folder extraction example...');
		const { id: executionId, execution } = await runExample(stack, DISK_WORKFLOW_ID, 'Run the example', 'the example');
		say(`  execution ${executionId}: ${executionOutput(execution, NODE_NAME).length} items`);
		say('Running the first example (upload-and-extract.json)...');
		const { id: uploadExecutionId, execution: uploadExecution } = await runExample(stack, UPLOAD_WORKFLOW_ID, "When clicking 'Execute workflow'", 'the first example');
		const uploaded = executionOutput(uploadExecution, UPLOAD_NODE_NAME);
		say(`  execution ${uploadExecutionId}: ${uploaded.length} item, first keys ${Object.keys(uploaded[0] ?? {}).slice(0, 4).join(', ')}`);
		say('Asking the AI agent example its question (scripted model)...');
		const { id: agentExecutionId, execution: agentExecution } = await runExample(stack, AGENT_WORKFLOW_ID, 'Ask the example question', 'the agent example');
		say(`  execution ${agentExecutionId}: ${String(executionOutput(agentExecution, 'AI Agent')[0]?.output)}`);

		const browser = await openBrowser();
		try {
			const { page } = browser;
			await signIn(page, stack.n8n.url);
			say('Taking screenshots:');

			// The node's parameter panel, on the saved workflow.
			await page.goto(`${stack.n8n.url}/workflow/${DISK_WORKFLOW_ID}`);
			await openPanel(page, await shown(page, canvasNode(page, NODE_NAME)));
			await shoot(page, 'node-parameters.png');
			// Its Docs link as n8n built it: the README's section, without n8n's tracking query after it.
			const docs = await page.locator('a', { hasText: /^\s*Docs\s*$/ }).first().getAttribute('href', { timeout: 5000 }).catch(() => null);
			say(`    the node's Docs link: ${docs ?? '(not found)'}`);
			await page.keyboard.press('Escape');

			// The credential dialog.
			await page.goto(`${stack.n8n.url}/home/credentials/${EMULATOR_CREDENTIAL_ID}`);
			await page.locator('[data-test-id="editCredential-modal"], .el-dialog').first().waitFor({ timeout: 30_000 });
			await dismissPopups(page);
			await shoot(page, 'credential.png');
			await page.keyboard.press('Escape');

			// The executed example: the canvas of that execution, then the node's output.
			await page.goto(`${stack.n8n.url}/workflow/${DISK_WORKFLOW_ID}/executions/${executionId}`);
			const executedNode = await shown(page, canvasNode(page, NODE_NAME));
			await shoot(page, 'executed-workflow.png');

			await openPanel(page, executedNode);
			// The output as JSON (seven items with nested values); the Table view is taken of the first example below.
			await page.getByText('JSON', { exact: true }).last().click();
			await shoot(page, 'executed-node-output.png');
			await page.keyboard.press('Escape');

			// The first example's output in the Table view: the file name, status and values lead.
			await page.goto(`${stack.n8n.url}/workflow/${UPLOAD_WORKFLOW_ID}/executions/${uploadExecutionId}`);
			await openPanel(page, await shown(page, canvasNode(page, UPLOAD_NODE_NAME)));
			await page.getByText('Table', { exact: true }).last().click();
			await shoot(page, 'upload-output-table.png');
			const headers = await page.locator('table th').allInnerTexts();
			say(`    table columns: ${headers.slice(0, 6).map((text) => text.trim()).join(' | ')}`);
			await page.keyboard.press('Escape');

			await nodesPanelShots(page, stack);

			// The AI agent example after its run, then its Get file values tool.
			await page.goto(`${stack.n8n.url}/workflow/${AGENT_WORKFLOW_ID}/executions/${agentExecutionId}`);
			await page.waitForTimeout(8000);
			await dismissPopups(page);
			await shoot(page, 'agent-workflow.png');
			await page.goto(`${stack.n8n.url}/workflow/${AGENT_WORKFLOW_ID}`);
			await openPanel(page, await shown(page, page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Get file values' }).first()));
			await shoot(page, 'agent-tool-node.png');
			await page.keyboard.press('Escape');

			// Upload waiting for the service's callbacks: what the editor says meanwhile.
			await callbackWaitShots(page, stack);

			// Update Values' field mapper (typeVersion 2), and the time a 2,000-field list takes to open.
			await mapperShots(page, stack);

			// The Callback Trigger's test URL, fired by a call for the upload just made.
			await callbackTestUrlShots(page, stack);

			// Last: it restarts n8n online (without the loopback guard) for the unknown-host picture.
			await credentialTestShots(page, stack);
		} finally {
			await browser.close();
		}
	} finally {
		await stack.stop();
		await chatModel.close();
		fs.rmSync(stack.userFolder, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
