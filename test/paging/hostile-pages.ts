/**
 * Generated hostile lists for the paging guard's property tests: a fake service that answers a
 * paging loop from a script of pages (repeated, shrinking, overfull, without ids, with lying or
 * huge totals), and the oracle that says what a correct loop returns from what it was sent.
 * Pure: no engine, no HTTP, so a property can run hundreds of lists a second. The hostile-answers
 * suites of other loops can reuse `hostileList` and `FakeList`.
 */
import fc from 'fast-check';

/** An item of a generated list: with an id, or without one (judged by its content). */
export interface ListItem {
	id?: string;
	value: number;
}

export interface ListPage {
	items: ListItem[];
	total?: number;
}

/** What the fake service answers once its script has run out. */
export type Tail = 'empty page' | 'repeat the last page' | 'fresh full pages for ever' | 'cycle the script';

export interface HostileList {
	pageSize: number;
	maxRequests: number;
	/** The caller's Limit, or none (Return All). */
	maxItems?: number;
	/** The answers, in the order they are given (a page may repeat an earlier one). */
	script: ListPage[];
	tail: Tail;
}

const ID_POOL = 40;

const withId: fc.Arbitrary<ListItem> = fc.nat({ max: ID_POOL - 1 }).map((n) => ({ id: `f${n}`, value: n % 3 }));
const withoutId: fc.Arbitrary<ListItem> = fc.nat({ max: 2 }).map((value) => ({ value }));
const anyItem: fc.Arbitrary<ListItem> = fc.oneof({ weight: 4, arbitrary: withId }, { weight: 1, arbitrary: withoutId });

/** Totals: honest-looking small ones, lies, negative ones and huge ones. */
const total: fc.Arbitrary<number | undefined> = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(undefined) },
	{ weight: 3, arbitrary: fc.nat({ max: 60 }) },
	{ weight: 1, arbitrary: fc.integer({ min: -3, max: -1 }) },
	{ weight: 1, arbitrary: fc.constantFrom(1e12, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY) },
);

/** A page of up to pageSize + 2 items (short, full or overfull): ids only, none, or mixed. */
function page(pageSize: number): fc.Arbitrary<ListPage> {
	const items = fc.oneof(
		{ weight: 4, arbitrary: fc.array(withId, { maxLength: pageSize + 2 }) },
		{ weight: 4, arbitrary: fc.array(withId, { minLength: pageSize, maxLength: pageSize }) },
		{ weight: 1, arbitrary: fc.array(anyItem, { maxLength: pageSize + 2 }) },
		{ weight: 1, arbitrary: fc.array(withoutId, { minLength: pageSize, maxLength: pageSize }) },
	);
	return fc.record({ items, total }, { requiredKeys: ['items'] });
}

/** A script of pages where later pages often repeat earlier ones, or shrink. */
function script(pageSize: number): fc.Arbitrary<ListPage[]> {
	return fc
		.tuple(fc.array(page(pageSize), { minLength: 1, maxLength: 8 }), fc.array(fc.nat({ max: 20 }), { maxLength: 12 }))
		.map(([pages, picks]) => {
			const played = [...pages];
			for (const pick of picks) {
				const earlier = played[pick % played.length];
				// A repeat, or the same page shrunk by one item.
				played.push(pick % 2 === 0 ? earlier : { ...earlier, items: earlier.items.slice(1) });
			}
			return played;
		});
}

const tails = fc.constantFrom<Tail>('empty page', 'repeat the last page', 'fresh full pages for ever', 'cycle the script');

function listOf(pageSize: number, script: fc.Arbitrary<ListPage[]>, tail: fc.Arbitrary<Tail>): fc.Arbitrary<HostileList> {
	return fc.record(
		{
			pageSize: fc.constant(pageSize),
			maxRequests: fc.integer({ min: 1, max: 30 }),
			maxItems: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
			script,
			tail,
		},
		{ requiredKeys: ['pageSize', 'maxRequests', 'script', 'tail'] },
	);
}

/** A full first page of distinct ids, with the given total. */
function fullFirstPage(pageSize: number, firstTotal: fc.Arbitrary<number | undefined>): fc.Arbitrary<ListPage[]> {
	return firstTotal.map((firstTotal) => [
		{ items: Array.from({ length: pageSize }, (_, index) => ({ id: `first-${index}`, value: index })), total: firstTotal },
	]);
}

/**
 * A hostile list: any script (weight 4); a service that ignores `page` (its first full page for
 * ever); a first total that lies low, then fresh full pages for ever; a huge total, then fresh
 * full pages for ever; a full page of items without ids for ever.
 */
export const hostileList: fc.Arbitrary<HostileList> = fc.integer({ min: 1, max: 8 }).chain((pageSize) =>
	fc.oneof(
		{ weight: 4, arbitrary: listOf(pageSize, script(pageSize), tails) },
		{ weight: 1, arbitrary: listOf(pageSize, fullFirstPage(pageSize, total), fc.constant<Tail>('repeat the last page')) },
		{
			weight: 1,
			arbitrary: listOf(pageSize, fullFirstPage(pageSize, fc.integer({ min: pageSize + 1, max: 4 * pageSize })), fc.constant<Tail>('fresh full pages for ever')),
		},
		{ weight: 1, arbitrary: listOf(pageSize, fullFirstPage(pageSize, fc.constant(1e12)), fc.constant<Tail>('fresh full pages for ever')) },
		{
			weight: 1,
			arbitrary: listOf(
				pageSize,
				fc.array(withoutId, { minLength: pageSize, maxLength: pageSize }).map((items) => [{ items }]),
				fc.constant<Tail>('repeat the last page'),
			),
		},
	),
);

/** The fake service: answers request n (from 1) from the script, then from its tail. */
export class FakeList {
	readonly sent: ListPage[] = [];

	constructor(
		private readonly list: HostileList,
		/** Requests past which a loop is taken to be looping (the test fails instead of hanging). */
		private readonly looping: number,
	) {}

	answer(): ListPage {
		const n = this.sent.length;
		if (n >= this.looping) throw new Error(`the loop sent more than ${this.looping} requests`);
		const { script, tail, pageSize } = this.list;
		let answer: ListPage;
		if (n < script.length) answer = script[n];
		else if (tail === 'empty page') answer = { items: [] };
		else if (tail === 'repeat the last page') answer = script[script.length - 1];
		else if (tail === 'cycle the script') answer = script[n % script.length];
		else answer = { items: Array.from({ length: pageSize }, (_, index) => ({ id: `new-${n}-${index}`, value: index })) };
		this.sent.push(answer);
		return answer;
	}
}

/**
 * What a correct loop returns from the pages it was sent, and where it must have stopped: every
 * item once (the first time its id comes; an item without id each time), at most maxItems; a page
 * after the first that is judged (non-empty, or full where only full pages are judged) and brings
 * no new id, or (with items without id) is the same as the last such page, is no progress.
 */
export function oracle(
	sent: ListPage[],
	options: { pageSize: number; maxItems?: number; judge?: 'every page' | 'full pages'; alikeItemsMayRepeat?: boolean },
): { returned: ListItem[]; noProgressAt?: number } {
	const returned: ListItem[] = [];
	const ids = new Set<string>();
	let previousContent: string | undefined;
	const cap = options.maxItems ?? Number.POSITIVE_INFINITY;
	for (let index = 0; index < sent.length; index++) {
		const { items } = sent[index];
		let unseen = 0;
		for (const candidate of items) {
			if (candidate.id !== undefined && ids.has(candidate.id)) continue;
			unseen += 1;
			if (returned.length >= cap) continue;
			if (candidate.id !== undefined) ids.add(candidate.id);
			returned.push(candidate);
		}
		const judged = index > 0 && items.length > 0 && (options.judge !== 'full pages' || items.length >= options.pageSize);
		if (items.some((candidate) => candidate.id === undefined)) {
			const content = JSON.stringify(items);
			const alike = items.every((candidate) => JSON.stringify(candidate) === JSON.stringify(items[0]));
			const repeated = content === previousContent;
			previousContent = content;
			if (judged && repeated && !(options.alikeItemsMayRepeat && alike)) return { returned, noProgressAt: index + 1 };
		} else if (judged && unseen === 0) {
			return { returned, noProgressAt: index + 1 };
		}
	}
	return { returned };
}
