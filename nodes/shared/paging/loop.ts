import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PagingGuard, PagingProblem } from './guard';

/**
 * What a loop does with the paging guard (guard.ts): the plain loop over pages, and a problem as
 * the error an n8n node throws.
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

/**
 * The plain paging loop: pages 1, 2, … until a page is short, the total is reached or the caller
 * holds its `maxItems`; throws the guard's problem (no progress, past the total, the caps). Returns
 * each item once, at most maxItems of them. `fetchPage` gets the bytes the page may bring
 * (`bytesLeft`) and reports the bytes it read.
 */
export async function readPages<T>(
	guard: PagingGuard<T>,
	fetchPage: (page: number, bytesLeft: number) => Promise<{ items: T[]; total?: number; bytes?: number }>,
): Promise<T[]> {
	const kept: T[] = [];
	for (let page = 1; !guard.satisfied; page++) {
		guard.request();
		const { items, total, bytes } = await fetchPage(page, guard.bytesLeft);
		const verdict = guard.page(items, { total, bytes });
		for (const item of verdict.fresh) kept.push(item);
		if (verdict.problem) throw guard.failure(verdict.problem);
		if (verdict.last) break;
	}
	return kept;
}
