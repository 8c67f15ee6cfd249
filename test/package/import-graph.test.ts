/**
 * The shape of the repository's imports (scripts/import-graph.ts walks them): every layer rule of
 * scripts/import-rules.ts holds on the whole repository (nodes/, credentials/, dev/, scripts/,
 * test/, bench/ and the root's config files), each rule refuses the import chain it gives as its
 * example, docs/dev/architecture.md names every rule, and `npm start` / `npm run start:queue` run
 * from dev/ and reach nothing outside it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	REPOSITORY_ROOT,
	chainGraph,
	folderPicture,
	importCircles,
	importGraph,
	matchesGlobs,
	npmScriptEntry,
	reachedFrom,
	ruleViolations,
} from '../../scripts/import-graph';
import { IMPORT_RULES } from '../../scripts/import-rules';

const graph = importGraph();
const rules = IMPORT_RULES.map((rule) => [rule.name, rule] as const);

describe('the import graph', () => {
	it('reads the whole repository, worker and preload files and the root config files included', () => {
		expect(graph.size).toBeGreaterThan(250);
		expect(graph.get('dev/emulator/extraction.ts')).toContain('dev/emulator/pdf-text-worker.mjs');
		expect(graph.get('dev/n8n/n8n-env.ts')).toContain('dev/n8n/host-guard.cjs');
		expect(graph.get('jest.e2e.config.js')).toContain('jest.real-n8n.js');
	});

	it.each(rules)('keeps the rule "%s"', (_name, rule) => {
		expect(ruleViolations(graph, rule)).toEqual([]);
	});

	it.each(rules)('the rule "%s" refuses the import chain it gives as its example', (name, rule) => {
		const violations = ruleViolations(chainGraph(rule.offending), rule);

		expect(violations).not.toEqual([]);
		for (const violation of violations) expect(violation).toContain(`"${name}"`);
	});

	it('has one line per rule, each with a unique name and a reason', () => {
		expect(new Set(IMPORT_RULES.map((rule) => rule.name)).size).toBe(IMPORT_RULES.length);
		for (const rule of IMPORT_RULES) expect(rule.why.length).toBeGreaterThan(20);
	});

	it('docs/dev/architecture.md names every rule', () => {
		const architecture = readFileSync(join(REPOSITORY_ROOT, 'docs', 'dev', 'architecture.md'), 'utf8');

		expect(IMPORT_RULES.map((rule) => rule.name).filter((name) => !architecture.includes(name))).toEqual([]);
	});

	it.each(['start', 'start:queue'])('npm run %s runs from dev/ and reaches only files under dev/', (script) => {
		const entry = npmScriptEntry(script);
		const reached = reachedFrom(graph, [entry]);

		expect(entry).toMatch(/^dev\//);
		expect(reached).toContain('dev/emulator/index.ts');
		expect(reached.filter((file) => !file.startsWith('dev/'))).toEqual([]);
	});

	it('the parts of nodes/shared/ (its files and folders) import each other in no circle', () => {
		expect(folderPicture(graph, 'nodes/shared').circles).toEqual([]);
	});

	it("docs/dev/architecture.md draws nodes/shared/'s floors as npm run check:imports finds them", () => {
		const architecture = readFileSync(join(REPOSITORY_ROOT, 'docs', 'dev', 'architecture.md'), 'utf8');
		const drawn = /```\n(nodes\/shared\/: \d+ parts[^`]*)```/.exec(architecture)?.[1];
		const { floors } = folderPicture(graph, 'nodes/shared');

		expect(drawn).toBeDefined();
		expect(drawn).toContain(`${floors.length} floors, 0 circles`);
		expect((drawn ?? '').split('\n').filter((line) => /^\s+\d+ {2}/.test(line)).map((line) => line.trim().split(/\s+/).slice(1))).toEqual(floors);
	});

	it('finds two folders that import each other, and their floors', () => {
		const picture = folderPicture(
			chainGraph(['nodes/shared/output/typed.ts', 'nodes/shared/schema/fields.ts', 'nodes/shared/output/simplify.ts', 'nodes/shared/limits.ts']),
			'nodes/shared',
		);

		expect(picture.circles).toEqual([['output/', 'schema/']]);
		expect(picture.floors).toEqual([['output/ + schema/'], ['limits.ts']]);
	});

	it('finds a circle when there is one', () => {
		const circular = new Map([
			['a.ts', new Set(['b.ts'])],
			['b.ts', new Set(['c.ts'])],
			['c.ts', new Set(['a.ts'])],
			['d.ts', new Set(['a.ts'])],
		]);

		expect(importCircles(circular)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
	});

	it('matches globs by whole folder names, with ! taking files out', () => {
		expect(matchesGlobs(['**'], 'gulpfile.js')).toBe(true);
		expect(matchesGlobs(['test/**'], 'test/node/support.ts')).toBe(true);
		expect(matchesGlobs(['test/**'], 'testing/node.ts')).toBe(false);
		expect(matchesGlobs(['test/**'], 'bench/test/x.ts')).toBe(false);
		expect(matchesGlobs(['**', '!test/**'], 'bench/table.ts')).toBe(true);
		expect(matchesGlobs(['**', '!test/**'], 'test/node/support.ts')).toBe(false);
		expect(matchesGlobs(['nodes/*/index.ts'], 'nodes/shared/index.ts')).toBe(true);
		expect(matchesGlobs(['nodes/*/index.ts'], 'nodes/shared/api/index.ts')).toBe(false);
		expect(matchesGlobs(['nodes/DocumentExtraction/**', '!nodes/DocumentExtraction/transport/**'], 'nodes/DocumentExtraction/transport/index.ts')).toBe(false);
		expect(matchesGlobs(['nodes/DocumentExtraction/**', '!nodes/DocumentExtraction/transport/**'], 'nodes/DocumentExtractionTrigger/poll.ts')).toBe(false);
		expect(matchesGlobs(['!test/**'], 'bench/table.ts')).toBe(false);
	});
});
