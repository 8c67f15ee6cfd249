/**
 * The one place where every property-based suite (`*-properties.test.ts`, under test/fuzz,
 * test/paging, test/request-path, test/node) gets its seed and its runs. `npm test` runs each
 * property a fixed number of times from DEFAULT_SEED (the same cases every run, in seconds);
 * `npm run fuzz` (scripts/fuzz.ts) sets FUZZ_RUNS (default 5000) for a long run, and FUZZ_SEED when
 * given another seed. fast-check prints the seed and the path of any counterexample, and each one
 * found becomes a named regression test.
 *
 *   FUZZ_RUNS=20000 FUZZ_SEED=7 npm run fuzz
 */
import type { Parameters } from 'fast-check';

/** The seed of every property in `npm test`. */
export const DEFAULT_SEED = 34;

function positiveInteger(text: string | undefined): number | undefined {
	const value = Number(text);
	return text !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * fast-check's parameters for one property: `defaultRuns` in `npm test`; under FUZZ_RUNS, that
 * many runs times `share` (a property that runs the n8n engine per case takes a share of the runs).
 */
export function fuzzParameters<T>(defaultRuns: number, share = 1): Parameters<T> {
	const asked = positiveInteger(process.env.FUZZ_RUNS);
	const numRuns = asked === undefined ? defaultRuns : Math.max(defaultRuns, Math.round(asked * share));
	return { seed: positiveInteger(process.env.FUZZ_SEED) ?? DEFAULT_SEED, numRuns };
}

/** Whether this is a long run (npm run fuzz): jest's timeout must then allow it. */
export const LONG_RUN = positiveInteger(process.env.FUZZ_RUNS) !== undefined;

/** Jest's timeout for a property of `defaultRuns` runs of about `msPerRun` each, scaled as fuzzParameters scales the runs. */
export function fuzzTimeout(defaultRuns: number, msPerRun: number, share = 1): number {
	const runs = fuzzParameters(defaultRuns, share).numRuns ?? defaultRuns;
	return Math.max(60_000, runs * msPerRun * 3);
}
