import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiRequest } from './api';
import { apiRequest } from './api';
import type { ApiContext } from '../run/context';
import { ANSWER_LIMITS } from '../limits';

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
	/** Items per request; the API's default and maximum page size is 100. */
	pageSize?: number;
	/** What names an item, to see whether a page brings anything new (default: id, else fileId). */
	idOf?: (item: IDataObject) => string | undefined;
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

/** A page's identity when its items carry no ids: a digest of its content (linear in its size). */
function pageDigest(items: IDataObject[]): string {
	return createHash('sha256').update(JSON.stringify(items) ?? '').digest('hex');
}

function noProgressError(context: ApiContext, request: ApiRequest, page: number, why: string, itemIndex?: number): NodeApiError {
	const message = `The API's list ${request.path} made no progress: ${why}. Stopped after ${page} request(s) instead of asking again and again; the service may be ignoring the "page" parameter. Try again later, or report it to the service.`;
	const error = new NodeApiError(context.getNode(), { reason: 'pagination made no progress' }, {
		message,
		description: message,
		itemIndex,
	});
	error.message = message;
	return error;
}

/**
 * Page/limit pagination for Return All and Limit: requests page 1, 2, … with `limit` = page size
 * until a page comes back short or empty, the total is reached, or `limit` items are collected.
 * It never trusts the service to end it: a page that brings no item it has not seen (or the same
 * content again) fails clearly; with a total, it never sends more than total / page size + 1
 * requests; without one, at most ANSWER_LIMITS.maxPagesWithoutTotal. Duplicates across pages are
 * returned once. Every check is linear in what was read.
 */
export async function apiRequestAllItems(
	this: ApiContext,
	request: ApiRequest,
	options: PaginationOptions,
): Promise<IDataObject[]> {
	const pageSize = Math.max(1, Math.min(options.pageSize ?? 100, 100));
	const idOf = options.idOf ?? defaultIdOf;
	const seen = new Set<string>();
	const results: IDataObject[] = [];
	let maxPages: number = ANSWER_LIMITS.maxPagesWithoutTotal;
	let previousDigest: string | undefined;
	for (let page = 1; ; page++) {
		const wanted = options.limit === undefined ? Number.POSITIVE_INFINITY : options.limit - results.length;
		if (wanted <= 0) break;
		if (page > maxPages) {
			throw noProgressError(this, request, page - 1, `it kept answering full pages past the ${maxPages} page(s) that its total allows`, request.policy.itemIndex);
		}
		const body = await apiRequest.call(this, {
			...request,
			qs: { ...(request.qs ?? {}), page, limit: pageSize },
		});
		const { items, total } = options.extract(body);
		if (page === 1 && total !== undefined) maxPages = Math.min(maxPages, Math.ceil(total / pageSize) + 1);

		let fresh = 0;
		let withoutId = 0;
		for (const item of items) {
			const id = idOf(item);
			if (id === undefined) {
				withoutId += 1;
				if (results.length < (options.limit ?? Number.POSITIVE_INFINITY)) results.push(item);
				continue;
			}
			if (seen.has(id)) continue;
			seen.add(id);
			fresh += 1;
			if (results.length < (options.limit ?? Number.POSITIVE_INFINITY)) results.push(item);
		}
		if (withoutId > 0) {
			const digest = pageDigest(items);
			if (page > 1 && digest === previousDigest) {
				throw noProgressError(this, request, page, `page ${page} was the same as page ${page - 1}`, request.policy.itemIndex);
			}
			previousDigest = digest;
		} else if (page > 1 && items.length > 0 && fresh === 0) {
			throw noProgressError(this, request, page, `page ${page} brought no item it had not already sent`, request.policy.itemIndex);
		}
		if (items.length < pageSize) break;
		if (total !== undefined && page * pageSize >= total) break;
	}
	return results;
}
