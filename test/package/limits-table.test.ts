/**
 * docs/reliability.md's "Every bound, in one table" names every bound and default of
 * nodes/shared/limits/ (its index.ts and the tables it re-exports), and names nothing that is not there: a bound added to limits/ without
 * a row (or a renamed one) fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { REPOSITORY_ROOT } from '../../scripts/import-graph';
import * as limits from '../../nodes/shared/limits';
import { returnAllParameters } from '../../nodes/DocumentExtraction/descriptions/common';

/** The section of the bounds table, up to the next heading. */
function boundsTable(): string {
	const text = readFileSync(join(REPOSITORY_ROOT, 'docs/reliability.md'), 'utf8');
	const start = text.indexOf('## Every bound, in one table');
	const end = text.indexOf('\n## ', start + 1);
	expect(start).toBeGreaterThan(-1);
	return text.slice(start, end === -1 ? undefined : end);
}

/** Every exported bound: `GROUP.key` of each table, or the name of an exported number. */
function exportedBounds(): string[] {
	return Object.entries(limits as Record<string, unknown>).flatMap(([name, value]) =>
		value !== null && typeof value === 'object' ? Object.keys(value).map((key) => `${name}.${key}`) : [name],
	);
}

describe("docs/reliability.md's table of bounds", () => {
	it('names every bound and default of limits/', () => {
		const table = boundsTable();
		const bounds = exportedBounds();

		expect(bounds.length).toBeGreaterThan(60);
		expect(bounds.filter((bound) => !table.includes(`\`${bound}\``))).toEqual([]);
	});

	it('names no bound that limits/ does not have', () => {
		const named = [...boundsTable().matchAll(/`([A-Z][A-Z_]*(?:\.[A-Za-z]+)?)`/g)].map((match) => match[1]);
		const bounds = new Set(exportedBounds());

		expect(named.length).toBeGreaterThan(60);
		expect(named.filter((name) => !bounds.has(name))).toEqual([]);
	});

	it('reads every table of limits/: each file of the folder is re-exported by its index', async () => {
		const folder = join(REPOSITORY_ROOT, 'nodes/shared/limits');
		const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
		const modules = await Promise.all(files.map(async (file) => ({ file, exported: Object.keys((await import(join(folder, file))) as object) })));
		const notReExported = modules.flatMap(({ file, exported }) => exported.filter((name) => !(name in limits)).map((name) => `${name} (${file})`));

		expect(files).toEqual(expect.arrayContaining(['triggers.ts', 'upload.ts']));
		expect(notReExported).toEqual([]);
	});

	it("a default n8n's lint wants as a literal in the description is the one of limits/ (Limit)", () => {
		expect(returnAllParameters.find((parameter) => parameter.name === 'limit')?.default).toBe(limits.ITEM_LIMITS.defaultLimit);
	});
});
