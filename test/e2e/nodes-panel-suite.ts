/**
 * Every node of the package can be found in n8n's nodes panel, as a user finds it: a real browser
 * (Debian's chromium, dev/n8n/browser.ts) opens the editor of the real n8n with the package
 * installed as a community package and types into the panel's search, for the n8n that
 * N8N_E2E_VERSION picks: test/e2e/nodes-panel.test.ts (2.41.1) and
 * test/e2e-n8n1/nodes-panel.test.ts (1.123.81) both run it.
 *
 * The nodes are the package's as n8n loaded them (`/types/nodes.json`), the generated AI tool
 * included. Where each should show follows n8n's own rules (editor-ui's node creator,
 * useActionsGeneration.ts): a trigger whose name is an action node's name plus "Trigger" is merged
 * into that node's entry and found by opening it; an AI tool shows once the canvas holds an AI
 * node; every other node is an entry of its own. The Callback Trigger was missing from every
 * search while its codex named the AI category (n8n drops such a node outside the AI view).
 */
import { withScratchFile } from '../../dev/n8n/n8n-cli';
import { dismissPopups, openBrowser, openNodesPanel, openNodesPanelEntry, searchNodesPanel, signIn, type EditorBrowser } from '../../dev/n8n/browser';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { PACKAGE_NAME, prepareUserFolder, type PreparedFolder, type WorkflowJson } from '../../dev/n8n/n8n-stack';
import { e2eRuntime, versionEnv } from './helpers';

interface LoadedNodeType {
	name: string;
	displayName: string;
	group: string[];
	properties: Array<{ name: string; displayName: string; options?: Array<{ name: string; value: unknown; action?: string }> }>;
	codex?: { categories?: string[]; subcategories?: Record<string, string[]>; alias?: string[] };
}

const AGENT_WORKFLOW: WorkflowJson = {
	id: 'dexE2eNodesPanel',
	name: 'e2e: the nodes panel beside an AI agent',
	nodes: [
		{ id: 'p1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'p2', name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 2.2, position: [260, 0], parameters: {} },
	],
	connections: { Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

/** The words a user types looking for a document extraction node, besides the nodes' names. */
const USER_WORDS = ['document extraction', 'extract', 'invoice', 'receipt', 'ocr'];

/** n8n's entry name for a node: a trigger shows without its trailing " Trigger" in the trigger view. */
function shownName(displayName: string): string {
	return displayName.replace(/ Trigger$/, '');
}

/** What the trigger view lists once a trigger's entry is opened: its Event options as "On <event>". */
function triggerActions(node: LoadedNodeType): string[] {
	const events = node.properties.find((property) => ['event', 'events', 'trigger on'].includes(property.displayName.toLowerCase()));
	return (events?.options ?? []).map((option) => option.action ?? `On ${option.name.toLowerCase()}`);
}

export function describeNodesPanelInRealN8n(): void {
	describe(`the nodes panel of n8n ${process.env.N8N_E2E_VERSION || '2.41.1'} finds every node of the package (chromium)`, () => {
		let prepared: PreparedFolder;
		let n8n: N8nInstance;
		let browser: EditorBrowser;
		let nodes: LoadedNodeType[];

		const isTrigger = (node: LoadedNodeType) => node.group.includes('trigger');
		const isAiTool = (node: LoadedNodeType) => node.codex?.subcategories?.AI?.includes('Tools') === true;
		/** The action node a trigger is merged into (n8n: the trigger's name without "Trigger"). */
		const mergedInto = (trigger: LoadedNodeType) => nodes.find((node) => !isTrigger(node) && node.name === trigger.name.replace('Trigger', ''));

		beforeAll(async () => {
			prepared = await prepareUserFolder({ build: false, runtime: await e2eRuntime() });
			await withScratchFile(prepared.userFolder, 'workflows.json', JSON.stringify([AGENT_WORKFLOW]), (file) => prepared.cli.run(['import:workflow', `--input=${file}`]));
			n8n = await startN8n({ userFolder: prepared.userFolder, runtime: prepared.runtime, env: { ...prepared.env, ...versionEnv(prepared.runtime) } });
			const loaded = (await (await n8n.request('/types/nodes.json')).json()) as LoadedNodeType[];
			nodes = loaded.filter((node) => node.name.startsWith(`${PACKAGE_NAME}.`));
			browser = await openBrowser();
			await signIn(browser.page, n8n.url);
		}, 300_000);

		afterAll(async () => {
			await browser?.close();
			await n8n?.stop();
		});

		it('n8n loaded the three nodes and the generated AI tool', () => {
			expect(nodes.map((node) => node.displayName).sort()).toEqual(['Document Extraction', 'Document Extraction Callback Trigger', 'Document Extraction Tool', 'Document Extraction Trigger']);
		});

		/** The entry a trigger is found under: its action node's when n8n merges them, else its own. */
		const triggerEntry = (trigger: LoadedNodeType) => mergedInto(trigger)?.displayName ?? shownName(trigger.displayName);

		it('a new workflow\'s trigger panel finds each trigger by its name and by the words a user types', async () => {
			const { page } = browser;
			await page.goto(`${n8n.url}/workflow/new`);
			await page.locator('[data-test-id="canvas-add-button"], [data-test-id="node-creator-search-bar"]').first().waitFor({ timeout: 60_000 });
			await dismissPopups(page);
			await openNodesPanel(page);
			const triggers = nodes.filter(isTrigger);
			const entries = triggers.map(triggerEntry);
			expect(entries.sort()).toEqual(['Document Extraction', 'Document Extraction Callback']);
			const found: Record<string, string[]> = {};
			for (const term of [...triggers.map((node) => node.displayName), ...USER_WORDS]) found[term] = await searchNodesPanel(page, term);
			found.callback = await searchNodesPanel(page, 'callback');
			const missing = Object.entries(found).flatMap(([term, names]) => {
				const named = triggers.find((node) => node.displayName === term);
				const wanted = term === 'callback' ? ['Document Extraction Callback'] : named ? [triggerEntry(named)] : entries;
				return wanted.filter((entry) => !names.includes(entry)).map((entry) => `"${term}" does not list ${entry} (it lists ${names.slice(0, 8).join(', ') || 'nothing'})`);
			});
			expect(missing).toEqual([]);
		});

		it('opening a trigger\'s entry lists its events; choosing one puts the trigger on the canvas', async () => {
			const { page } = browser;
			for (const trigger of nodes.filter(isTrigger)) {
				await searchNodesPanel(page, trigger.displayName);
				const actions = await openNodesPanelEntry(page, triggerEntry(trigger));
				expect({ trigger: trigger.displayName, missing: triggerActions(trigger).filter((action) => !actions.includes(action)) }).toEqual({ trigger: trigger.displayName, missing: [] });
				await page.keyboard.press('Escape');
				await openNodesPanel(page);
			}
			const callback = nodes.find((node) => isTrigger(node) && !mergedInto(node))!;
			await searchNodesPanel(page, 'callback');
			const [first] = await openNodesPanelEntry(page, triggerEntry(callback));
			await page.locator('[data-test-id="node-creator-item-name"]').filter({ hasText: first }).first().click();
			const name = callback.displayName;
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"], [data-test-id="canvas-node"][data-name="${name}"], [data-name="${name}"]`).first().waitFor({ state: 'attached', timeout: 30_000 });
		});

		it('beside an AI agent, the next-step panel finds the action node and the AI tool by their names and the words a user types, and the Callback Trigger by "callback"', async () => {
			const { page } = browser;
			await page.goto(`${n8n.url}/workflow/${AGENT_WORKFLOW.id}`);
			await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
			await dismissPopups(page);
			await openNodesPanel(page);
			const others = nodes.filter((node) => !isTrigger(node));
			const entries = others.map((node) => node.displayName);
			const tool = others.find(isAiTool)!;
			const found: Record<string, string[]> = {};
			for (const term of [...entries, ...USER_WORDS]) found[term] = await searchNodesPanel(page, term);
			found.callback = await searchNodesPanel(page, 'callback');
			// n8n makes the tool from the action node; 1.x gives it no aliases ("invoice" finds it on 2.x only).
			const findsTool = (term: string) => [tool.displayName, ...(tool.codex?.alias ?? [])].some((words) => words.toLowerCase().includes(term));
			const missing = Object.entries(found).flatMap(([term, names]) => {
				const wanted = term === 'callback' ? ['Document Extraction Callback'] : entries.includes(term) ? [term] : entries.filter((entry) => entry !== tool.displayName || findsTool(term));
				return wanted.filter((entry) => !names.includes(entry)).map((entry) => `"${term}" does not list ${entry} (it lists ${names.slice(0, 8).join(', ') || 'nothing'})`);
			});
			expect(missing).toEqual([]);
		});

		it('opening the action node\'s entry lists every operation by its action', async () => {
			const { page } = browser;
			const action = nodes.find((node) => !isTrigger(node) && !isAiTool(node))!;
			const operations = action.properties.filter((property) => property.name === 'operation').flatMap((property) => (property.options ?? []).map((option) => option.action ?? option.name));
			expect(operations.length).toBeGreaterThanOrEqual(18);
			await searchNodesPanel(page, action.displayName);
			const listed = await openNodesPanelEntry(page, action.displayName);
			expect(operations.filter((operation) => !listed.includes(operation))).toEqual([]);
		});
	});
}
