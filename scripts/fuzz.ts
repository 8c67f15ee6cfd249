/**
 * Long runs of every property-based suite (the files named `*-properties.test.ts` under test/):
 * the same invariants `npm test` checks with a fixed seed and a few hundred runs, with many more
 * generated cases. Exits with jest's status.
 *
 *   npm run fuzz                          FUZZ_RUNS (default 5000) runs each
 *   npm run fuzz -- --runs 20000          more
 *   npm run fuzz -- --seed 42             another seed (default: FUZZ_SEED, else DEFAULT_SEED of test/fuzz/runs.ts)
 *   npm run fuzz -- --only request-path   only the suites whose path contains the text
 *
 * Every suite takes its seed and runs from test/fuzz/runs.ts (fuzzParameters); suites that drive the n8n
 * engine over HTTP run a share of FUZZ_RUNS (a tenth, or a half).
 */
import { spawnSync } from 'node:child_process';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

const runs = option('runs') ?? process.env.FUZZ_RUNS ?? '5000';
if (!/^\d+$/.test(runs) || Number(runs) < 1) {
	console.error(`--runs expects a whole number of runs, got "${runs}"`);
	process.exit(2);
}
const seed = option('seed') ?? process.env.FUZZ_SEED;
const only = option('only');
const pattern = only ? `${only.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*-properties\\.test\\.ts$` : '-properties\\.test\\.ts$';

console.error(`[fuzz] FUZZ_RUNS=${runs}${seed ? ` FUZZ_SEED=${seed}` : ''}: every suite matching ${pattern}`);
const result = spawnSync('npx', ['jest', '--runInBand', `--testPathPattern=${pattern}`], {
	stdio: 'inherit',
	env: { ...process.env, FUZZ_RUNS: runs, ...(seed ? { FUZZ_SEED: seed } : {}) },
});
process.exit(result.status ?? 1);
