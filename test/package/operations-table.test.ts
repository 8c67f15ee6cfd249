/**
 * README.md's operations table is what the built node describes (`npm run docs:operations`,
 * scripts/operations-table.ts): every resource of the Resource selector, each with the options of
 * its Operation selector, their action labels and descriptions. The generator reads only the built
 * node that package.json names, so it does not depend on how nodes/ is laid out.
 */
import * as fs from 'node:fs';
import type { INodeTypeDescription } from 'n8n-workflow';

import { ensureBuilt } from '../../dev/harness';
import {
	BEGIN_MARKER,
	END_MARKER,
	README,
	currentBlock,
	loadActionNodeDescription,
	markedBlock,
	operationRows,
	operationsTable,
	withBlock,
} from '../../scripts/operations-table';

let description: INodeTypeDescription;

beforeAll(async () => {
	await ensureBuilt();
	description = loadActionNodeDescription();
});

describe('the operations table of README.md', () => {
	it('is what the built node\'s description generates (run npm run docs:operations after changing an operation)', () => {
		const readme = fs.readFileSync(README, 'utf8');

		expect(currentBlock(readme)).toBe(markedBlock(operationsTable(description)));
	});

	it('has one row per option of every resource\'s Operation selector, none left out', () => {
		const resourceSelector = description.properties.find((property) => property.name === 'resource');
		const operationSelectors = description.properties.filter(
			(property) => property.name === 'operation' && property.displayOptions?.show?.['@tool'] === undefined,
		);
		const rows = operationRows(description);

		expect(new Set(rows.map((row) => row.resource))).toEqual(new Set((resourceSelector?.options ?? []).map((option) => option.name)));
		expect(rows).toHaveLength(operationSelectors.reduce((count, selector) => count + (selector.options ?? []).length, 0));
		for (const row of rows) {
			expect(row.action).not.toBe('');
			expect(row.description).not.toBe('');
		}
	});

	it('the check notices a table that differs: a changed description changes the block', () => {
		const readme = fs.readFileSync(README, 'utf8');
		const changed: INodeTypeDescription = {
			...description,
			properties: description.properties.map((property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'workflow'
					? { ...property, options: (property.options ?? []).map((option) => ({ ...option, description: 'Something else' })) }
					: property,
			),
		};
		const regenerated = markedBlock(operationsTable(changed));

		expect(regenerated).not.toBe(currentBlock(readme));
		expect(currentBlock(withBlock(readme, regenerated))).toBe(regenerated);
		expect(withBlock(readme, regenerated).startsWith(readme.slice(0, readme.indexOf(BEGIN_MARKER)))).toBe(true);
		expect(withBlock(readme, regenerated).endsWith(readme.slice(readme.indexOf(END_MARKER) + END_MARKER.length))).toBe(true);
	});

	it('a pipe in a description is escaped so the table keeps its columns', () => {
		const piped: INodeTypeDescription = {
			...description,
			properties: description.properties.map((property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'workflow'
					? { ...property, options: (property.options ?? []).map((option) => ({ ...option, description: 'a | b' })) }
					: property,
			),
		};
		const line = operationsTable(piped).split('\n').find((row) => row.startsWith('| Workflow |'));

		expect(line).toContain('a \\| b');
	});
});
