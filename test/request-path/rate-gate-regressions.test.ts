/**
 * Counterexamples the gate's property test (rate-gate-properties.test.ts) found, each kept as a
 * named case: the smallest scenario fast-check shrank it to, run through the same invariants.
 */
import { runGateScenario } from './gate-scenarios';

describe('counterexamples of the 429 gate, kept', () => {
	it('a 429 asking for nothing usable, to an item with Max Retry Wait 0, still closes the gate for 1 s', async () => {
		// Found against the gate before issue 34: the item failed at once and the gate stayed open.
		// A second request 0.5 s later must wait for the rest of the pause instead of sending into it.
		const outcome = await runGateScenario({
			actors: [
				{ arriveAt: 0, budgetMs: 0, calls: 1 },
				{ arriveAt: 500, budgetMs: 5000, calls: 1 },
			],
			answers: [{ kind: '429', retryAfter: {} }],
		});
		expect(outcome).toEqual({ sent: 2, refused: 1, stopped: 0 });
	});

	it('a request refused at the gate (Max Retry Wait 0) gives its place back to the one behind it', async () => {
		// Found with the places never given back: the refused request left a 100 ms slot behind it,
		// and the next request waited 200 ms after the pause had ended.
		const outcome = await runGateScenario({
			actors: [
				{ arriveAt: 0, budgetMs: 5000, calls: 1 },
				{ arriveAt: 0, budgetMs: 0, calls: 1 },
			],
			answers: [{ kind: '429', retryAfter: {} }],
		});
		expect(outcome).toEqual({ sent: 2, refused: 1, stopped: 0 });
	});

	it('5,000 requests refused at the gate, then one that may wait: it waits only the pause left', async () => {
		// The shape of finding 1 of issue 34 at its full size: 5,000 refused, then a normal request.
		const refused = Array.from({ length: 5000 }, () => ({ arriveAt: 100, budgetMs: 0, calls: 1 }));
		const outcome = await runGateScenario({
			actors: [{ arriveAt: 0, budgetMs: 0, calls: 1 }, ...refused, { arriveAt: 200, budgetMs: 60_000, calls: 1 }],
			answers: [{ kind: '429', retryAfter: { body: 2 } }],
		});
		expect(outcome).toEqual({ sent: 2, refused: 5001, stopped: 0 });
	});

	it('requests stopped while held give their places back', async () => {
		const held = Array.from({ length: 40 }, () => ({ arriveAt: 10, budgetMs: 60_000, calls: 1, stopAt: 500 }));
		const outcome = await runGateScenario({
			actors: [{ arriveAt: 0, budgetMs: 60_000, calls: 1 }, ...held, { arriveAt: 600, budgetMs: 60_000, calls: 1 }],
			answers: [{ kind: '429', retryAfter: { header: '2' } }],
		});
		expect(outcome).toEqual({ sent: 3, refused: 0, stopped: 40 });
	});
});
