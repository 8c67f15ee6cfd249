/**
 * The layer rule of nodes/shared/parameters (its index.ts states it): it imports only itself,
 * credentials/, nodes/shared/run/context.ts, the ID forms (nodes/shared/ids.ts) and the table of
 * limits (nodes/shared/limits/), never the
 * API layer's entry, the request path or the run scope, so that every layer above the API layer
 * can check through it without an import circle. And the one shown() lives in
 * credentials/, which imports nothing from nodes/.
 */
import { importGraph } from '../../scripts/import-graph';

const graph = importGraph();
const PARAMETERS = 'nodes/shared/parameters/';
const ALLOWED = [PARAMETERS, 'credentials/', 'nodes/shared/run/context.ts', 'nodes/shared/ids.ts', 'nodes/shared/limits/'];

describe('nodes/shared/parameters', () => {
	it('imports only itself, credentials/, the n8n contexts, the ID forms and the table of limits', () => {
		const files = [...graph.keys()].filter((file) => file.startsWith(PARAMETERS));
		const outside = files.flatMap((file) =>
			[...(graph.get(file) ?? [])].filter((target) => !ALLOWED.some((allowed) => target.startsWith(allowed))).map((target) => `${file} -> ${target}`),
		);

		expect(files).toContain(`${PARAMETERS}index.ts`);
		expect(outside).toEqual([]);
	});

	it('what it imports outside itself imports nothing from nodes/ (no way back up)', () => {
		for (const file of ['credentials/shown.ts', 'credentials/urlPolicy.ts', 'credentials/hostKinds.ts', 'nodes/shared/ids.ts', 'nodes/shared/run/context.ts', 'nodes/shared/limits/index.ts']) {
			expect(graph.has(file)).toBe(true);
			const upward = [...(graph.get(file) ?? [])].filter((target) => target.startsWith('nodes/') && !target.startsWith('nodes/shared/limits/'));
			expect({ file, upward }).toEqual({ file, upward: [] });
		}
	});
});
