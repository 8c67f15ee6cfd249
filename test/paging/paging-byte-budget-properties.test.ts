/**
 * The paging guard's byte budget (Max List Size), over the generated hostile lists of
 * hostile-pages.ts with a generated size for every answer (empty, small, at the budget, far past
 * it). The caller reads each page only up to the guard's bytesLeft, as the API layer does, and
 * reports what it read. Whatever the service sends:
 *  - the bytes the caller was let read, in all, never pass maxBytes;
 *  - a page that would pass what is left stops the loop with "size cap reached", and so does a
 *    request when nothing is left: no request is sent after the budget is spent;
 *  - with no page past the room, the loop ends as it would without the budget (the same items).
 * Fixed seed in `npm test`; FUZZ_RUNS and FUZZ_SEED (npm run fuzz) run it longer or elsewhere.
 */
import fc from 'fast-check';

import { PagingError, PagingGuard, readPages } from '../../nodes/shared/paging';
import type { ListItem } from './hostile-pages';
import { FakeList, hostileList } from './hostile-pages';
import { fuzzParameters } from '../fuzz/runs';


const pageBytes = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 5000 })), { minLength: 1, maxLength: 40 });

function guardFor(list: { pageSize: number; maxRequests: number; maxItems?: number }, maxBytes?: number): PagingGuard<ListItem> {
	return new PagingGuard<ListItem>({
		list: 'generated',
		pageSize: list.pageSize,
		maxRequests: list.maxRequests,
		maxItems: list.maxItems,
		maxBytes,
		idOf: (item) => item.id,
		whatToDo: 'Stop.',
	});
}

it('what a list read page by page lets its caller read never passes its byte budget', async () => {
	await fc.assert(
		fc.asyncProperty(hostileList, pageBytes, fc.integer({ min: 0, max: 4000 }), async (list, sizes, maxBytes) => {
			const service = new FakeList(list, list.maxRequests + 1);
			const guard = guardFor(list, maxBytes);
			let read = 0;
			let requestsWithNothingLeft = 0;
			let problem: PagingError['problem'] | undefined;
			try {
				await readPages(guard, async (page, bytesLeft) => {
					if (bytesLeft <= 0) requestsWithNothingLeft += 1;
					const answer = service.answer();
					const size = sizes[(page - 1) % sizes.length];
					// The caller's read stops at the room left: the rest of the page is never read.
					if (size > bytesLeft) {
						read += bytesLeft;
						throw guard.failure(guard.sizeProblem());
					}
					read += size;
					return { ...answer, bytes: size };
				});
			} catch (error) {
				if (!(error instanceof PagingError)) throw error;
				problem = error.problem;
			}

			expect(read).toBeLessThanOrEqual(maxBytes);
			expect(guard.bytesRead).toBeLessThanOrEqual(maxBytes);
			expect(requestsWithNothingLeft).toBe(0);
			const pagesRead = service.sent.length;
			const passedRoom = sizes.slice(0, pagesRead).reduce((sum, size) => sum + size, 0) > maxBytes;
			if (passedRoom || (problem?.kind === 'size cap reached')) {
				expect(problem?.kind).toBe('size cap reached');
				expect(problem?.message).toMatch(/is larger than the node keeps for one list: \d+ page\(s\) brought [\d.]+ MB/);
			}
			// Without a page past the room, the budget changes nothing: the same pages as without it.
			if (problem?.kind !== 'size cap reached') {
				const again = new FakeList(list, list.maxRequests + 1);
				const unbounded = guardFor(list);
				let without: PagingError['problem'] | undefined;
				try {
					await readPages(unbounded, async () => again.answer());
				} catch (error) {
					if (!(error instanceof PagingError)) throw error;
					without = error.problem;
				}
				expect(again.sent.length).toBe(pagesRead);
				expect(unbounded.kept).toBe(guard.kept);
				expect(without?.kind).toBe(problem?.kind);
			}
		}),
		fuzzParameters(300),
	);
});
