/**
 * The trigger's invariants over generated hostile histories (trigger-world.ts), each run a
 * sequence of listings, status flips, corrupted records, failing or reshaped answers, polls
 * (n8n's classic static data, or its durable poll cursors where an execution that cannot be
 * stored drops the poll's items and cursor) and moves of n8n's clock, through n8n-core's poll
 * context against the emulator:
 *  - every poll: static data under TRIGGER_LIMITS.maxStaticDataBytes, holding only file ids and
 *    short RFC 3339 timestamps; a poll that fails leaves it as it was; at most the requests and
 *    waits of its budget; queries carry only file ids and RFC 3339 timestamps; items carry file
 *    ids only, no value deeper than the limit, never the API key;
 *  - once the service answers sanely again: every processed file emitted exactly once (File
 *    Updated: every last version once, no version twice); files the service hid behind a
 *    malformed id, dated before the cursor's lag, deleted or failed at most once; history never.
 * Fixed seed and runs in `npm test`; `npm run fuzz` (FUZZ_RUNS / 2 runs, FUZZ_SEED) runs it longer. Each
 * counterexample found is a named test in test/trigger/property-regressions.test.ts.
 */
import fc from 'fast-check';

import { useFakeWaitClock, useEmulator } from '../node/support';
import { fuzzParameters, fuzzTimeout } from './runs';
import { InvariantBroken, TriggerWorld, scenario } from './trigger-world';

const emulator = useEmulator();
const clock = useFakeWaitClock();

const RUNS = 300;
const MS_PER_RUN = 250;
/** Under `npm run fuzz`, half of FUZZ_RUNS: each run polls the engine over HTTP a dozen times (about 40 ms). */
const SHARE = 0.5;

it(
	'the trigger never loses or repeats a file, stays within its bounds, and never throws after its state moved',
	async () => {
		await fc.assert(
			fc.asyncProperty(scenario, async (generated) => {
				const world = new TriggerWorld(emulator, clock, generated);
				try {
					await world.run();
				} catch (error) {
					if (error instanceof InvariantBroken) throw new Error(`${error.message}\n${world.journal.join('\n')}`);
					throw error;
				}
			}),
			fuzzParameters(RUNS, SHARE),
		);
	},
	fuzzTimeout(RUNS, MS_PER_RUN, SHARE),
);
