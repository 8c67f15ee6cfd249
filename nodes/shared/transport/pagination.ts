import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from './api';
import { apiRequestWithResponse } from './api';
import type { ApiContext } from '../run/context';
import { ANSWER_LIMITS } from '../limits';
import { PagingGuard, pagingNodeError, readPages } from '../paging';

interface PageOf {
	items: IDataObject[];
	/** Total number of items across pages, when the API says. */
	total?: number;
}

interface PaginationOptions {
	/** Reads the items (and total) of one page from a response body. */
	extract: (body: IDataObject) => PageOf;
	/** Stop after this many items; undefined returns all. */
	limit?: number;
	/** Items per request; at most the API's largest page size (ANSWER_LIMITS.pageSize). */
	pageSize?: number;
	/** What names an item, to see whether a page brings anything new (default: id, else fileId). */
	idOf?: (item: IDataObject) => string | undefined;
	/** What to do when the list passes Max List Size (default: set a Limit, narrow the list, or raise it). */
	whatToDoAtSize?: string;
}

/** Reads `body[key]` as the page items and `body.count` as the total (the API's list shape). */
export function listAt(key: string): (body: IDataObject) => PageOf {
	return (body) => ({
		items: Array.isArray(body[key]) ? (body[key] as IDataObject[]) : [],
		total: typeof body.count === 'number' && Number.isFinite(body.count) && body.count >= 0 ? body.count : undefined,
	});
}

function defaultIdOf(item: IDataObject): string | undefined {
	const id = item?.id ?? item?.fileId;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * Page/limit pagination for Return All and Limit: requests page 1, 2, … with `limit` = page size
 * until a page comes back short or empty, the total is reached, or `limit` items are collected.
 * The paging guard (nodes/shared/paging/) never trusts the service to end it: a page that brings
 * no item it has not seen (or the same content again) fails clearly; with a total, it never sends
 * more than total / page size + 1 requests; without one, at most ANSWER_LIMITS.maxPagesWithoutTotal.
 * Duplicates across pages are returned once. The answers of all its pages together read at most
 * Max List Size bytes: each page is read only up to what is left. Every check is linear in what
 * was read.
 */
export async function apiRequestAllItems(
	context: ApiContext,
	request: ApiRequest,
	options: PaginationOptions,
): Promise<IDataObject[]> {
	const pageSize = Math.max(1, Math.min(options.pageSize ?? ANSWER_LIMITS.pageSize, ANSWER_LIMITS.pageSize));
	const guard = new PagingGuard<IDataObject>({
		list: request.path,
		pageSize,
		maxRequests: ANSWER_LIMITS.maxPagesWithoutTotal,
		maxItems: options.limit,
		maxBytes: request.policy.maxListBytes,
		whatToDoAtSize:
			options.whatToDoAtSize ??
			'Turn off Return All and set a Limit, or narrow the list with its filters; or raise "Max List Size (MB)" in the node options.',
		idOf: options.idOf ?? defaultIdOf,
		whatToDo: 'Try again later, or report it to the service.',
		whatToDoAtCap: 'Turn off Return All and set a Limit, or narrow the list with its filters.',
		fail: (problem) => pagingNodeError(context.getNode(), problem, request.policy.itemIndex),
	});
	return await readPages(guard, async (page, bytesLeft) => {
		const response = await apiRequestWithResponse(context, {
			...request,
			qs: { ...(request.qs ?? {}), page, limit: pageSize },
			answerCap: { maxBytes: bytesLeft, tooLarge: () => guard.failure(guard.sizeProblem()) },
		});
		return { ...options.extract(response.body), bytes: response.bytes };
	});
}
