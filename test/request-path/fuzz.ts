/**
 * Seeds and run counts of the request path's property tests. `npm test` runs each suite with its
 * fixed seed and its own small number of runs; `npm run fuzz` (scripts/fuzz.ts) sets FUZZ_RUNS
 * (default 5000) and, optionally, FUZZ_SEED. Suites that drive the n8n engine over HTTP cost about
 * a hundred times more per run than the pure ones, so they run FUZZ_RUNS / 10 of them.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261126);

/** Runs for a suite: its default in `npm test`, FUZZ_RUNS (divided by `cost`) under `npm run fuzz`. */
export function fuzzRuns(defaultRuns: number, cost = 1): number {
	const asked = process.env.FUZZ_RUNS;
	if (asked === undefined || asked === '') return defaultRuns;
	return Math.max(defaultRuns, Math.ceil(Number(asked) / cost));
}

/** Whether this is a long run (npm run fuzz): jest's timeout must then allow it. */
export const LONG_RUN = process.env.FUZZ_RUNS !== undefined && process.env.FUZZ_RUNS !== '';
