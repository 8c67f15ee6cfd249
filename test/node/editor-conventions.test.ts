import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { REPO_ROOT } from '../harness';
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
		// Usable as a tool, whose form adds one model-facing Description per operation.
		const tool = description.usableAsTool as { replacements: { properties: INodeProperties[] } };
		const toolDescriptions = tool.replacements.properties.filter((property) => property.name === 'toolDescription');
		const operations = description.properties.filter((property) => property.name === 'operation').flatMap((property) => property.options ?? []);
		expect(toolDescriptions).toHaveLength(operations.length);
		for (const property of toolDescriptions) {
			expect(String(property.default).length).toBeGreaterThan(80);
			expect(property.displayOptions?.show?.operation).toHaveLength(1);
		}
		expect(tool.replacements.properties.slice(0, description.properties.length)).toEqual(description.properties);
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
