/**
 * The key's 429 gate, shared by concurrent items and executions, over generated hostile answers.
 * The real retry policy (withRetries) and gate (RateLimitGate) run on a virtual clock on which
 * concurrent waits overlap as in real time; the fake API answers each attempt from a generated
 * script: 200, or 429 with a Retry-After in any shape (body, header, both, neither). Requests
 * ("actors") arrive at generated times with their own Max Retry Wait (0 to 90 s), make one to
 * three calls, and some are stopped part-way. Invariants:
 *  1. no request is sent strictly inside a pause a 429 announced before it (every 429 closes the
 *     gate for every user of the key, whatever the item that received it does next);
 *  2. every wait at the gate is at most the pause left plus one spacing per request really
 *     waiting (itself included), and only requests really waiting hold a place: a refused or
 *     stopped request gives its place back;
 *  3. every call ends within its documented bound: its waits never pass its Max Retry Wait, and it
 *     makes at most 1 + Max Retry Wait / 1 s attempts (each retry after a 429 waits at least 1 s);
 *  4. a stopped request sends nothing after its stop;
 *  5. once every request has ended, a new one waits at most the pause left plus one spacing.
 * Fixed seed in `npm test`; FUZZ_RUNS / FUZZ_SEED (npm run fuzz) for long runs.
 */
import fc from 'fast-check';

import { LONG_RUN, fuzzParameters } from '../fuzz/runs';
import { gateScenarios, runGateScenario } from './gate-scenarios';

describe('the 429 gate shared by concurrent requests, over generated answers', () => {
	it('never lets a request into an announced pause, never holds longer than the pause plus spacing, and bounds every call', async () => {
		const seen = { sent: 0, refused: 0, stopped: 0 };
		await fc.assert(
			fc.asyncProperty(gateScenarios, async (scenario) => {
				const counts = await runGateScenario(scenario);
				seen.sent += counts.sent;
				seen.refused += counts.refused;
				seen.stopped += counts.stopped;
			}),
			fuzzParameters(300),
		);
		// The generator reaches every path: requests sent, refused at the gate or by their budget, and stopped.
		expect(seen.sent).toBeGreaterThan(0);
		expect(seen.refused).toBeGreaterThan(0);
		expect(seen.stopped).toBeGreaterThan(0);
		if (process.env.FUZZ_STATS) console.log(seen);
	}, LONG_RUN ? 3_600_000 : 120_000);
});
