import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { REPO_ROOT } from '../../dev/harness';
import { loadBuiltPackage } from './support';

let description: INodeTypeDescription;

beforeAll(async () => {
	const loaded = await loadBuiltPackage();
	const nodeType = Object.entries(loaded.nodeTypes).find(([name]) => name.endsWith('.documentExtraction'))?.[1];
	description = (nodeType as { description: INodeTypeDescription }).description;
});

function operationSelectors(): Array<{ resource: string; options: INodePropertyOptions[] }> {
	return description.properties
		.filter((property) => property.name === 'operation')
		.map((property) => ({
			resource: String(property.displayOptions?.show?.resource?.[0]),
			options: property.options as INodePropertyOptions[],
		}));
}

describe('Document Extraction node in the editor', () => {
	it('offers every resource of the API, each with its operation selector', () => {
		const resource = description.properties.find((property) => property.name === 'resource') as INodeProperties;
		const resources = (resource.options as INodePropertyOptions[]).map((option) => option.value);
		expect(resources).toEqual(['directory', 'file', 'fileType', 'query', 'schema', 'workflow', 'workspace']);
		expect(operationSelectors().map((selector) => selector.resource).sort()).toEqual([...resources].sort());
	});

	it('gives every operation an action label and a description', () => {
		for (const { resource, options } of operationSelectors()) {
			expect(options.length).toBeGreaterThan(0);
			for (const option of options) {
				expect({ resource, operation: option.value, action: option.action }).toEqual({
					resource,
					operation: option.value,
					action: expect.stringMatching(/^[A-Z].{5,}/),
				});
				expect(option.description).toEqual(expect.any(String));
			}
		}
	});

	it('has the subtitle, tool use and themed icons', () => {
		expect(description.subtitle).toBe('={{ $parameter["operation"] + ": " + $parameter["resource"] }}');
		// Usable as a tool, whose form (n8n's generated documentExtractionTool, `@tool`) has one
		// model-facing Description per operation, in the node's own properties: n8n 2.41 builds the
		// tool type that runs from those, not from usableAsTool replacements.
		expect(description.usableAsTool).toBe(true);
		const toolDescriptions = description.properties.filter((property) => property.name === 'toolDescription');
		const operations = description.properties.filter((property) => property.name === 'operation').flatMap((property) => property.options ?? []);
		expect(toolDescriptions).toHaveLength(operations.length);
		for (const property of toolDescriptions) {
			expect(String(property.default).length).toBeGreaterThan(80);
			expect(property.displayOptions?.show?.operation).toHaveLength(1);
			expect(property.displayOptions?.show?.['@tool']).toEqual([true]);
		}
		// n8n's loader turns `icon: { light, dark }` (file: paths) into iconUrl icons/<package>/<path>.
		const icon = description.iconUrl as { light: string; dark: string };
		expect(icon.light).not.toEqual(icon.dark);
		const read = (url: string) =>
			readFileSync(join(REPO_ROOT, url.replace(/^icons\/n8n-nodes-document-extraction\//, '')), 'utf8');
		expect(read(icon.light)).toContain('<svg');
		expect(read(icon.dark)).toContain('<svg');
		expect(read(icon.light)).not.toEqual(read(icon.dark));
	});

	it('ships a codex with categories and documentation links', () => {
		const codex = JSON.parse(
			readFileSync(join(REPO_ROOT, 'dist/nodes/DocumentExtraction/DocumentExtraction.node.json'), 'utf8'),
		);
		expect(codex.node).toBe('n8n-nodes-document-extraction.documentExtraction');
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(/^https:\/\//);
	});

	it('checks 24-hex ids in By ID modes and lets optional ones stay empty', () => {
		const parent = description.properties.find((property) => property.name === 'parentDirectory') as INodeProperties;
		const mode = parent.modes?.find((candidate) => candidate.name === 'id');
		const regex = new RegExp(String((mode?.validation?.[0] as unknown as { properties: { regex: string } }).properties.regex));
		expect(regex.test('6650a00000000000000e0001')).toBe(true);
		expect(regex.test('')).toBe(true);
		expect(regex.test('6650a00000000000000e000')).toBe(false);
		expect(regex.test('not-an-id')).toBe(false);
	});
});

/**
 * n8n's nodes panel (editor-ui 2.41, useActionsGenerator.generateMergedNodesAndActions) merges a
 * trigger whose type name is another node's plus "Trigger" into that node's entry and gives the
 * entry the trigger's description. Built-in pairs read so: "Gmail: Fetches emails from Gmail and
 * starts the workflow on specified polling intervals.", "Airtable: Starts the workflow when
 * Airtable events occur" (seen in the editor, docs/screenshots/nodes-panel.png for ours).
 */
describe('Document Extraction in the nodes panel', () => {
	let trigger: INodeTypeDescription;
	let action: INodeTypeDescription;
	let types: string[];

	beforeAll(async () => {
		const loaded = await loadBuiltPackage();
		types = Object.keys(loaded.nodeTypes);
		const find = (name: string) => (Object.entries(loaded.nodeTypes).find(([type]) => type.endsWith(`.${name}`))?.[1] as { description: INodeTypeDescription }).description;
		trigger = find('documentExtractionTrigger');
		action = find('documentExtraction');
	});

	it('the trigger merges into the node entry (its type name is the node type name plus "Trigger")', () => {
		const triggerType = types.find((type) => type.endsWith('.documentExtractionTrigger')) as string;
		expect(types).toContain(triggerType.replace('Trigger', ''));
		expect(trigger.displayName.replace('Trigger', '').trimEnd()).toBe(action.displayName);
	});

	it('the entry shows the trigger description, in n8n trigger wording and as short as the built-in ones', () => {
		expect(trigger.description).toBe('Starts the workflow when the Document Extraction Service processes or changes a document');
		// Gmail's, the longest of the two built-in examples, has 82 characters: two lines in the panel.
		expect(trigger.description.length).toBeLessThanOrEqual(90);
	});

	// n8n's panel drops a node whose codex names the AI category, unless it is an AI root node, from
	// every search outside the AI view (editor-ui useViewStacks filterOutAiNodes): the Callback
	// Trigger was not found so. The browser proves the panel (test/e2e/nodes-panel-suite.ts).
	it('no codex names the AI category, which would hide the node from the panel\'s searches', () => {
		const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
		const categories = packageJson.n8n.nodes.map((file) => {
			const codex = JSON.parse(readFileSync(join(REPO_ROOT, file.replace(/\.js$/, '.json')), 'utf8')) as { categories: string[]; subcategories?: Record<string, string[]> };
			return { file, ai: codex.categories.includes('AI') && !codex.subcategories?.AI?.includes('Root Nodes') };
		});
		expect(categories).toEqual(packageJson.n8n.nodes.map((file) => ({ file, ai: false })));
	});

	it("the node's own description (its AI tool's entry) says what it does, in Airtable's verb-list style", () => {
		expect(action.description).toBe('Upload documents, then read, correct and query their extracted values');
		expect(action.description).not.toMatch(/^Starts the workflow/);
	});
});
