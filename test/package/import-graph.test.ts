/**
 * The shape of the repository's imports (scripts/import-graph.ts walks them): `npm start` and
 * `npm run start:queue` run from the development home dev/ and reach nothing under test/; dev/
 * imports only itself; no import circle anywhere (nodes/, credentials/, dev/, scripts/, test/,
 * bench/); the credential never reaches up into nodes/.
 */
import { importCircles, importGraph, npmScriptEntry, reachedFrom } from '../../scripts/import-graph';

const graph = importGraph();

describe('the import graph', () => {
	it('reads the whole repository, worker and preload files included', () => {
		expect(graph.size).toBeGreaterThan(250);
		expect(graph.get('dev/emulator/extraction.ts')).toContain('dev/emulator/pdf-text-worker.mjs');
		expect(graph.get('dev/n8n/n8n-env.ts')).toContain('dev/n8n/host-guard.cjs');
	});

	it.each(['start', 'start:queue'])('npm run %s runs from dev/ and reaches only files under dev/', (script) => {
		const entry = npmScriptEntry(script);
		const reached = reachedFrom(graph, [entry]);

		expect(entry).toMatch(/^dev\//);
		expect(reached).toContain('dev/emulator/index.ts');
		expect(reached.filter((file) => !file.startsWith('dev/'))).toEqual([]);
	});

	it('nothing under dev/ imports from outside dev/ (test/, bench/, scripts/, nodes/)', () => {
		const outward = [...graph].flatMap(([file, targets]) => (file.startsWith('dev/') ? [...targets].filter((target) => !target.startsWith('dev/')).map((target) => `${file} -> ${target}`) : []));

		expect(outward).toEqual([]);
	});

	it('has no import circle', () => {
		expect(importCircles(graph)).toEqual([]);
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

	it('credentials/ imports nothing from nodes/', () => {
		const upward = [...graph].flatMap(([file, targets]) => (file.startsWith('credentials/') ? [...targets].filter((target) => target.startsWith('nodes/')) : []));

		expect(upward).toEqual([]);
	});
});
