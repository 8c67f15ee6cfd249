/**
 * The paging guard by example: each rule once, with the message a person reads. The invariants over
 * generated lists are in paging-guard-properties.test.ts.
 */
import { pageDigest, PagingError, PagingGuard, readPages } from '../../nodes/shared/paging';
import type { PagingOptions } from '../../nodes/shared/paging';

interface Item {
	id?: string;
	n?: number;
	nested?: unknown;
}

function guard(options: Partial<PagingOptions<Item>> = {}): PagingGuard<Item> {
	return new PagingGuard<Item>({
		list: '/things',
		pageSize: 2,
		maxRequests: 10,
		idOf: (item) => item.id,
		whatToDo: 'Try again later.',
		...options,
	});
}

const ids = (...names: string[]): Item[] => names.map((id) => ({ id }));

/** Requests then judges each page in turn; the verdicts, or the error that stopped the loop. */
function run(paging: PagingGuard<Item>, pages: Array<{ items: Item[]; total?: number }>) {
	return pages.map(({ items, total }) => {
		paging.request();
		return paging.page(items, { total });
	});
}

describe('requests', () => {
	it('at the cap, no further request: mayRequest says no and request() throws a message naming the list, the count and what to do', () => {
		const paging = guard({ maxRequests: 3, whatToDoAtCap: 'Set a Limit.' });
		run(paging, [{ items: ids('a', 'b') }, { items: ids('c', 'd') }, { items: ids('e', 'f') }]);

		expect(paging.mayRequest()).toBe(false);
		expect(() => paging.request()).toThrow(
			'The API\'s list /things was not at its end: it was still answering full pages after 3 request(s), the most the node sends for one list. Set a Limit.',
		);
		expect(paging.requests).toBe(3);
	});

	it('the first page\'s total allows total / page size + 1 pages; a service that keeps sending full pages past them is stopped', () => {
		const paging = guard();
		run(paging, [{ items: ids('a', 'b'), total: 3 }, { items: ids('c', 'd') }, { items: ids('e', 'f') }]);

		const error = (() => {
			try {
				paging.request();
			} catch (caught) {
				return caught as PagingError;
			}
			return undefined;
		})();
		expect(error).toBeInstanceOf(PagingError);
		expect(error?.problem.kind).toBe('past its total');
		expect(error?.message).toBe(
			'The API\'s list /things made no progress: it kept answering full pages past the 3 page(s) that its total allows. Stopped after 3 request(s) instead of asking again and again; the service may be ignoring the "page" parameter. Try again later.',
		);
	});

	it('a list that grows while it is read is bounded by the cap only, when totals do not bound it', () => {
		const paging = guard({ boundByTotal: false });
		run(paging, [{ items: ids('a', 'b'), total: 3 }, { items: ids('c', 'd'), total: 5 }, { items: ids('e', 'f'), total: 7 }]);
		expect(paging.mayRequest()).toBe(true);
	});

	it('pages read by earlier calls count (the editor\'s search resumes at a page)', () => {
		const paging = guard({ maxRequests: 10, pagesBefore: 9 });
		expect(paging.requests).toBe(9);
		paging.request();
		expect(paging.mayRequest()).toBe(false);
	});
});

describe('progress', () => {
	it('a page after the first with no item not seen before is no progress', () => {
		const [first, second] = run(guard(), [{ items: ids('a', 'b') }, { items: ids('b', 'a') }]);

		expect(first.problem).toBeUndefined();
		expect(second.problem?.kind).toBe('no progress');
		expect(second.problem?.message).toBe(
			'The API\'s list /things made no progress: page 2 brought no item it had not already sent. Stopped after 2 request(s) instead of asking again and again; the service may be ignoring the "page" parameter. Try again later.',
		);
	});

	it('one new item is progress; the items seen before are not returned again', () => {
		const [, second] = run(guard(), [{ items: ids('a', 'b') }, { items: ids('b', 'c') }]);
		expect(second.problem).toBeUndefined();
		expect(second.fresh).toEqual(ids('c'));
	});

	it('the same item twice in one page is returned once', () => {
		const [first] = run(guard({ pageSize: 3 }), [{ items: ids('a', 'a', 'b') }]);
		expect(first.fresh).toEqual(ids('a', 'b'));
	});

	it('items without ids: a page the same as the one before is no progress', () => {
		const paging = guard({ idOf: undefined });
		const [, second] = run(paging, [{ items: [{ n: 1 }, { n: 2 }] }, { items: [{ n: 1 }, { n: 2 }] }]);
		expect(second.problem?.message).toContain('made no progress: page 2 was the same as page 1.');
	});

	it('items without ids: a different page is progress, and every item is returned', () => {
		const [, second] = run(guard({ idOf: undefined }), [{ items: [{ n: 1 }, { n: 2 }] }, { items: [{ n: 1 }, { n: 3 }] }]);
		expect(second.problem).toBeUndefined();
		expect(second.fresh).toEqual([{ n: 1 }, { n: 3 }]);
	});

	it('alike items may repeat in earnest: a page of one row over and over goes on; a varied page repeated does not', () => {
		const alike = run(guard({ idOf: undefined, alikeItemsMayRepeat: true }), [{ items: [{ n: 1 }, { n: 1 }] }, { items: [{ n: 1 }, { n: 1 }] }]);
		expect(alike[1].problem).toBeUndefined();
		const varied = run(guard({ idOf: undefined, alikeItemsMayRepeat: true }), [{ items: [{ n: 1 }, { n: 2 }] }, { items: [{ n: 1 }, { n: 2 }] }]);
		expect(varied[1].problem?.kind).toBe('no progress');
	});

	it('judging full pages only, a short page of items seen before ends the list without a problem', () => {
		const [, second] = run(guard({ judge: 'full pages' }), [{ items: ids('a', 'b') }, { items: ids('a') }]);
		expect(second.problem).toBeUndefined();
		expect(second.last).toBe(true);
		const [, strict] = run(guard(), [{ items: ids('a', 'b') }, { items: ids('a') }]);
		expect(strict.problem?.kind).toBe('no progress');
	});

	it('a new listing starts its pages afresh and keeps the ids seen, unless told to forget them', () => {
		const paging = guard();
		run(paging, [{ items: ids('a', 'b') }]);
		paging.newListing();
		const [again] = run(paging, [{ items: ids('a', 'b') }]);
		expect(again.problem).toBeUndefined();
		expect(again.fresh).toEqual([]);
		paging.newListing({ forgetSeen: true });
		expect(run(paging, [{ items: ids('a', 'b') }])[0].fresh).toEqual(ids('a', 'b'));
	});

	it('a page nested 20,000 levels deep is judged without overflowing the stack', () => {
		let deep: unknown = 'bottom';
		for (let level = 0; level < 20_000; level++) deep = { nested: deep };
		const paging = guard({ idOf: undefined, pageSize: 1 });
		const verdicts = run(paging, [{ items: [{ nested: deep }] }, { items: [{ nested: deep }] }]);
		expect(verdicts[1].problem?.kind).toBe('no progress');
		expect(() => JSON.stringify(deep)).toThrow(RangeError);
	});
});

describe('memory and the end of a list', () => {
	it('never lets more than maxItems through, nor remembers more ids; then the caller is satisfied', () => {
		const paging = guard({ pageSize: 3, maxItems: 4 });
		const [first, second] = run(paging, [{ items: ids('a', 'b', 'c') }, { items: ids('d', 'e', 'f') }]);
		expect([...first.fresh, ...second.fresh]).toEqual(ids('a', 'b', 'c', 'd'));
		expect(paging.remembered).toBe(4);
		expect(paging.satisfied).toBe(true);
	});

	it('a short page, or the total reached, is the last page', () => {
		expect(run(guard(), [{ items: ids('a') }])[0].last).toBe(true);
		expect(run(guard(), [{ items: ids('a', 'b'), total: 2 }])[0].last).toBe(true);
		expect(run(guard(), [{ items: ids('a', 'b'), total: 3 }])[0].last).toBe(false);
	});
});

describe('readPages', () => {
	it('reads pages 1, 2, … to a short page and returns each item once', async () => {
		const pages = [ids('a', 'b'), ids('b', 'c'), ids('d')];
		const asked: number[] = [];
		const items = await readPages(guard(), async (page) => {
			asked.push(page);
			return { items: pages[page - 1] };
		});
		expect(asked).toEqual([1, 2, 3]);
		expect(items).toEqual(ids('a', 'b', 'c', 'd'));
	});

	it('stops at maxItems without asking for another page', async () => {
		let asked = 0;
		const items = await readPages(guard({ maxItems: 2 }), async () => {
			asked += 1;
			return { items: ids(`x${asked}`, `y${asked}`) };
		});
		expect(items).toHaveLength(2);
		expect(asked).toBe(1);
	});

	it('throws the caller\'s error for a service that ignores page, after the second request', async () => {
		let asked = 0;
		const failing = guard({ fail: (problem) => new Error(`caller's error: ${problem.kind} after ${problem.requests}`) });
		await expect(
			readPages(failing, async () => {
				asked += 1;
				return { items: ids('a', 'b') };
			}),
		).rejects.toThrow("caller's error: no progress after 2");
		expect(asked).toBe(2);
	});
});

it('a page digest is the same for equal content and differs otherwise; alike says whether all items are equal', () => {
	expect(pageDigest([{ a: 1 }, { a: 1 }])).toEqual({ digest: pageDigest([{ a: 1 }, { a: 1 }]).digest, alike: true });
	expect(pageDigest([{ a: 1 }]).digest).not.toBe(pageDigest([{ a: '1' }]).digest);
	expect(pageDigest([{ a: 1 }, { b: 2 }]).alike).toBe(false);
	expect(pageDigest([[1, 2]]).digest).not.toBe(pageDigest([1, 2]).digest);
});
