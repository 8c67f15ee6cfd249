import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PagingGuard, PagingProblem } from './guard';

/**
 * What a loop does with the paging guard (guard.ts): the one loop over pages (walkPages, and
 * readPages, its plain form), and a problem as the error an n8n node throws.
 */

/** A problem as the n8n error a node throws: the same message in its title and description. */
export function pagingNodeError(node: INode, problem: PagingProblem, itemIndex?: number): NodeApiError {
	const reason =
		problem.kind === 'cap reached'
			? 'list longer than the node reads'
			: problem.kind === 'size cap reached'
				? 'list larger than the node keeps'
				: 'pagination made no progress';
	const error = new NodeApiError(node, { reason, list: problem.list, requests: problem.requests }, {
		message: problem.message,
		description: problem.message,
		itemIndex,
	});
	error.message = problem.message;
	return error;
}

/** One page as a loop's fetch returns it: its items, the list's total, the answer's bytes, how the message names it. */
export interface PageAnswer<T> {
	items: T[];
	total?: number;
	bytes?: number;
	/** The page in a message (default "page N"), e.g. "the page at offset 200". */
	at?: string;
}

/** What a walk does besides reading: where it starts, what it does with each page, whether a problem fails it. */
export interface PageWalk<T> {
	/** The number of the first page (default 1; the editor's search goes on where its last call stopped). */
	firstPage?: number;
	/** Sees each page's fresh items (each item once, in order); true ends the walk after this page. */
	onPage?: (fresh: T[], page: number) => boolean | void;
	/**
	 * Given, the walk never fails: a request the guard refuses ends it, and a page's problem is
	 * handed here, then ends it (the editor's search and Fetch Test Event answer with what they
	 * found). Without it, both throw the guard's failure.
	 */
	onProblem?: (problem: PagingProblem) => void;
}

/** Why a walk ended: the list's last page, the caller's onPage, its Limit, a refused request, a problem (onProblem). */
export type WalkEnd = 'last page' | 'stopped' | 'satisfied' | 'refused' | 'problem';

/**
 * The one loop around the paging guard: pages `firstPage`, `firstPage` + 1, … until a page is the
 * list's last (short, or the total reached), the caller holds its `maxItems`, or `onPage` asks to
 * stop. Before each request the guard counts it (and refuses it past a cap); after each page it
 * judges it. A page's problem wins over `onPage`'s stop, the last page over both. `fetchPage` gets
 * the bytes the page may bring (`bytesLeft`) and reports the bytes it read.
 */
export async function walkPages<T>(
	guard: PagingGuard<T>,
	fetchPage: (page: number, bytesLeft: number) => Promise<PageAnswer<T>>,
	walk: PageWalk<T> = {},
): Promise<WalkEnd> {
	for (let page = walk.firstPage ?? 1; ; page++) {
		if (guard.satisfied) return 'satisfied';
		if (walk.onProblem && !guard.mayRequest()) return 'refused';
		guard.request();
		const { items, total, bytes, at } = await fetchPage(page, guard.bytesLeft);
		const verdict = guard.page(items, { total, bytes, at });
		const stop = walk.onPage?.(verdict.fresh, page) === true;
		if (verdict.problem) {
			if (!walk.onProblem) throw guard.failure(verdict.problem);
			walk.onProblem(verdict.problem);
			return 'problem';
		}
		if (verdict.last) return 'last page';
		if (stop) return 'stopped';
	}
}

/**
 * The plain walk: every page from 1 to the end; throws the guard's problem (no progress, past the
 * total, the caps). Returns each item once, at most maxItems of them.
 */
export async function readPages<T>(
	guard: PagingGuard<T>,
	fetchPage: (page: number, bytesLeft: number) => Promise<PageAnswer<T>>,
): Promise<T[]> {
	const kept: T[] = [];
	await walkPages(guard, fetchPage, {
		onPage: (fresh) => {
			for (const item of fresh) kept.push(item);
		},
	});
	return kept;
}
