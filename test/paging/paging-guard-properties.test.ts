/**
 * The paging guard's invariants, over generated hostile lists (hostile-pages.ts): whatever pages
 * the service sends (repeated, shrinking, overfull, without ids, lying, negative or huge totals,
 * fresh pages for ever), the loop
 *  - ends within the bound the caller set (maxRequests, and total / page size + 1 of a first total),
 *  - never returns an item twice and never holds more than the caller's cap (nor remembers more ids),
 *  - reports no progress at the first page that makes none, instead of asking again, and only there,
 *  - returns what a correct loop returns from the pages it was sent (the oracle): nothing lost.
 * Fixed seed in `npm test`; FUZZ_RUNS and FUZZ_SEED run it longer or elsewhere.
 */
import fc from 'fast-check';

import { pageDigest, PagingError, PagingGuard, readPages } from '../../nodes/shared/paging';
import type { ListItem } from './hostile-pages';
import { FakeList, hostileList, oracle } from './hostile-pages';
import { fuzzParameters } from '../fuzz/runs';


describe.each([
	['every page', false],
	['full pages', false],
	['every page', true],
] as const)('readPages with the guard judging %s (alike items may repeat: %s)', (judge, alikeItemsMayRepeat) => {
	it('ends within its bound, returns each item once within the cap, and reports no progress instead of looping', async () => {
		await fc.assert(
			fc.asyncProperty(hostileList, async (list) => {
				// One request past the cap means the loop did not stop: the fake fails it there.
				const service = new FakeList(list, list.maxRequests + 1);
				const guard = new PagingGuard<ListItem>({
					list: 'generated',
					pageSize: list.pageSize,
					maxRequests: list.maxRequests,
					maxItems: list.maxItems,
					idOf: (item) => item.id,
					judge,
					alikeItemsMayRepeat,
					whatToDo: 'Stop.',
				});
				let returned: ListItem[] | undefined;
				let problem: PagingError['problem'] | undefined;
				try {
					returned = await readPages(guard, async () => service.answer());
				} catch (error) {
					if (!(error instanceof PagingError)) throw error;
					problem = error.problem;
				}
				const sent = service.sent;

				// Within the bound the caller set.
				expect(sent.length).toBeGreaterThanOrEqual(1);
				expect(sent.length).toBeLessThanOrEqual(list.maxRequests);
				const firstTotal = sent[0].total;
				if (firstTotal !== undefined) {
					expect(sent.length).toBeLessThanOrEqual(Math.max(1, Math.ceil(firstTotal / list.pageSize) + 1));
				}

				// What a correct loop returns, and where it reports no progress.
				const expected = oracle(sent, { pageSize: list.pageSize, maxItems: list.maxItems, judge, alikeItemsMayRepeat });
				if (expected.noProgressAt !== undefined) {
					expect(problem?.kind).toBe('no progress');
					expect(sent.length).toBe(expected.noProgressAt);
				} else {
					expect(problem?.kind).not.toBe('no progress');
				}
				expect(guard.kept).toBe(expected.returned.length);
				if (returned !== undefined) expect(returned).toEqual(expected.returned);

				// Each item once, never more than the cap, and no more ids remembered than items kept.
				const ids = expected.returned.flatMap((item) => (item.id === undefined ? [] : [item.id]));
				expect(new Set(ids).size).toBe(ids.length);
				expect(guard.kept).toBeLessThanOrEqual(list.maxItems ?? Number.POSITIVE_INFINITY);
				expect(guard.remembered).toBeLessThanOrEqual(guard.kept);

				// It stopped for a reason it can name.
				if (problem?.kind === 'cap reached') expect(sent.length).toBe(list.maxRequests);
				if (problem === undefined) {
					const lastPage = sent[sent.length - 1];
					const received = sent.reduce((sum, answer) => sum + answer.items.length, 0);
					const ended =
						guard.satisfied ||
						lastPage.items.length < list.pageSize ||
						(lastPage.total !== undefined && received >= lastPage.total);
					expect(ended).toBe(true);
				}
			}),
			fuzzParameters(300),
		);
	});
});

it('a page digest tells two pages apart exactly when their JSON differs', () => {
	fc.assert(
		fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 4 }), fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 4 }), (a, b) => {
			const same = JSON.stringify(a) === JSON.stringify(b);
			expect(pageDigest(a).digest === pageDigest(b).digest).toBe(same);
			expect(pageDigest(a).digest).toBe(pageDigest(JSON.parse(JSON.stringify(a)) as unknown[]).digest);
		}),
		fuzzParameters(300),
	);
});
