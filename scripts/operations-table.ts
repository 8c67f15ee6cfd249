/**
 * `npm run docs:operations`: the operations table of README.md, generated from the built node's
 * own description, so that the table says what the editor offers.
 *
 * It reads only what n8n reads: package.json's `n8n.nodes` (the built node files), the node whose
 * properties have a `resource` selector, that selector's options and, for each resource, the
 * `operation` selector shown for it (its options' name, action label and description). Nothing
 * here knows how the sources under nodes/ are laid out.
 *
 *   npm run docs:operations              builds, then rewrites the table between the markers
 *   npx tsx scripts/operations-table.ts --check   exits 1 when README.md's table differs
 *
 * test/package/operations-table.test.ts fails when README.md's table is not what this generates.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodePropertyOptions, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..');
export const README = path.join(REPOSITORY_ROOT, 'README.md');
export const BEGIN_MARKER = '<!-- operations:begin -->';
export const END_MARKER = '<!-- operations:end -->';

export interface OperationRow {
	resource: string;
	operation: string;
	action: string;
	description: string;
}

/** The description of every node package.json's `n8n.nodes` names, loaded from the built files. */
export function loadBuiltNodeDescriptions(packageDir: string = REPOSITORY_ROOT): INodeTypeDescription[] {
	const packageJson = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { n8n?: { nodes?: string[] } };
	const files = packageJson.n8n?.nodes ?? [];
	return files.map((file) => {
		const absolute = path.join(packageDir, file);
		if (!fs.existsSync(absolute)) throw new Error(`${file} does not exist: run npm run build first`);
		// The built file is loaded as n8n loads it (a CommonJS module named at run time).
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = require(absolute) as Record<string, unknown>;
		const descriptions = Object.values(exported)
			.filter((value): value is new () => { description: INodeTypeDescription } => typeof value === 'function')
			.map((NodeClass) => new NodeClass().description)
			.filter((description) => description && Array.isArray(description.properties));
		if (descriptions.length !== 1) throw new Error(`${file} exports ${descriptions.length} node types, expected 1`);
		return descriptions[0];
	});
}

/** The node with a Resource selector (the action node), from the built package. */
export function loadActionNodeDescription(packageDir: string = REPOSITORY_ROOT): INodeTypeDescription {
	const withResources = loadBuiltNodeDescriptions(packageDir).filter((description) =>
		description.properties.some((property) => property.name === 'resource' && property.type === 'options'),
	);
	if (withResources.length !== 1) throw new Error(`expected one node with a Resource selector, found ${withResources.length}`);
	return withResources[0];
}

function optionsOf(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []).filter((option): option is INodePropertyOptions => 'value' in option);
}

/** Shown for exactly this resource and not only in the AI tool form. */
function isOperationSelectorOf(property: INodeProperties, resource: string): boolean {
	const show = property.displayOptions?.show ?? {};
	return (
		property.name === 'operation' &&
		property.type === 'options' &&
		show['@tool'] === undefined &&
		Array.isArray(show.resource) &&
		show.resource.length === 1 &&
		show.resource[0] === resource
	);
}

/** One row per operation: resources in the selector's order, operations in their selector's order. */
export function operationRows(description: INodeTypeDescription): OperationRow[] {
	const resourceSelector = description.properties.find((property) => property.name === 'resource' && property.type === 'options');
	if (!resourceSelector) throw new Error(`${description.displayName} has no Resource selector`);
	return optionsOf(resourceSelector).flatMap((resource) => {
		const selectors = description.properties.filter((property) => isOperationSelectorOf(property, String(resource.value)));
		if (selectors.length !== 1) throw new Error(`resource "${resource.name}" has ${selectors.length} operation selectors, expected 1`);
		return optionsOf(selectors[0]).map((operation) => ({
			resource: resource.name,
			operation: operation.name,
			action: operation.action ?? '',
			description: operation.description ?? '',
		}));
	});
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
	return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** The Markdown table, without the markers. */
export function operationsTable(description: INodeTypeDescription): string {
	const lines = [
		'| Resource | Operation | Action (as the nodes panel lists it) | What it does |',
		'|---|---|---|---|',
		...operationRows(description).map((row) => `| ${cell(row.resource)} | ${cell(row.operation)} | ${cell(row.action)} | ${cell(row.description)} |`),
	];
	return lines.join('\n');
}

/** The block between the markers, markers included. */
export function markedBlock(table: string): string {
	return [
		BEGIN_MARKER,
		'<!-- Generated from the built node\'s description by `npm run docs:operations`; edit the operations, not this table. -->',
		table,
		END_MARKER,
	].join('\n');
}

/** The text between the markers (markers included) in `text`; throws when the markers are missing. */
export function currentBlock(text: string): string {
	const begin = text.indexOf(BEGIN_MARKER);
	const end = text.indexOf(END_MARKER);
	if (begin < 0 || end < begin) throw new Error(`README.md has no ${BEGIN_MARKER} ... ${END_MARKER} block`);
	return text.slice(begin, end + END_MARKER.length);
}

/** `text` with its marked block replaced by `block`. */
export function withBlock(text: string, block: string): string {
	return text.replace(currentBlock(text), () => block);
}

function main(argv: string[]): number {
	const block = markedBlock(operationsTable(loadActionNodeDescription()));
	const readme = fs.readFileSync(README, 'utf8');
	if (argv.includes('--check')) {
		if (currentBlock(readme) === block) {
			process.stdout.write('README.md: the operations table is what the node describes\n');
			return 0;
		}
		process.stderr.write('README.md: the operations table differs from the built node\'s description; run npm run docs:operations\n');
		return 1;
	}
	const updated = withBlock(readme, block);
	if (updated === readme) {
		process.stdout.write('README.md: the operations table is already current\n');
	} else {
		fs.writeFileSync(README, updated);
		process.stdout.write(`README.md: operations table written (${operationRows(loadActionNodeDescription()).length} operations)\n`);
	}
	return 0;
}

if (require.main === module) {
	try {
		process.exitCode = main(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exitCode = 1;
	}
}
