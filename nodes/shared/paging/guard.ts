import { pageDigest } from './digest';

/**
 * The one paging guard. Every loop that reads a list page by page (the API layer's Return All,
 * the trigger's walk and Fetch Test Event, Query's rows, the editor's file search) asks it before
 * each request and shows it each page. It never trusts the service to end a list:
 *
 * - requests: at most `maxRequests` (an absolute cap from limits.ts), and, where the first page of
 *   a listing gives a total, at most total / page size + 1 pages of that listing;
 * - progress: a page after the first that brings no item not seen before (items with ids), or the
 *   same content as the page before (items without ids), is no progress: the loop reports it
 *   instead of asking again;
 * - memory: it remembers the ids of the items it let through, at most `maxItems` (what the caller
 *   may keep), and of a page without ids only a digest; where the caller reports the bytes of each
 *   page, their sum stays within `maxBytes` (Max List Size): the next request may read only what
 *   is left (`bytesLeft`), and none is sent once nothing is;
 * - time: each page is read once (a set lookup per id, one pass to digest content), so the work is
 *   linear in what was read, at any nesting depth.
 *
 * It is pure: no n8n context, no request of its own. A loop (or a property test) drives it with
 * `mayRequest()` / `request()` before a request and `page()` after it; `walkPages` (loop.ts) is the
 * one loop that does so for every list but the trigger's walk, `readPages` its plain form.
 */

export type PagingProblemKind = 'no progress' | 'past its total' | 'cap reached' | 'size cap reached';

export interface PagingProblem {
	kind: PagingProblemKind;
	/** The list, as the caller named it. */
	list: string;
	/** Requests sent so far (by this guard, and before it where the caller said so). */
	requests: number;
	/** The message a person reads: the list, the request count and what to do. */
	message: string;
}

export interface PagingOptions<T> {
	/** The list in a person's words, for the message: `/files`, `POST /query/execute`. */
	list: string;
	/** Items a full page holds: the page size asked for. */
	pageSize: number;
	/** The absolute cap on requests (limits.ts). */
	maxRequests: number;
	/**
	 * The most items the caller keeps (its Limit): the guard lets no more through and remembers no
	 * more ids. Default: no cap beyond the requests; the ids remembered are then those of the items
	 * the caller holds.
	 */
	maxItems?: number;
	/**
	 * The most bytes of answers the caller may hold for this list (Max List Size): it reports each
	 * page's bytes to `page()`, reads the next page only up to `bytesLeft`, and the guard sends no
	 * request once nothing is left. Default: no such bound.
	 */
	maxBytes?: number;
	/** What to do when maxBytes is reached (default: whatToDoAtCap, then whatToDo). */
	whatToDoAtSize?: string;
	/** An item's id; undefined for an item without one. Without this option every page is judged by content. */
	idOf?: (item: T) => string | undefined;
	/** Which pages are judged for progress: every page after the first (default), or only full ones. */
	judge?: 'every page' | 'full pages';
	/** Whether the total of a listing's first page bounds its pages (default true; false for a list that grows while it is read). */
	boundByTotal?: boolean;
	/**
	 * Items without ids may repeat in earnest (query rows of a column with few values): a page the
	 * same as the one before is then no progress only when its own items are not all alike.
	 */
	alikeItemsMayRepeat?: boolean;
	/** The request parameter that moves through the list (default "page"). */
	pageParameter?: string;
	/** Pages of this list read before this guard, by earlier calls (the editor's search): counted as requests and pages. */
	pagesBefore?: number;
	/** What to do, closing the message of no progress. */
	whatToDo: string;
	/** What to do when the cap is reached (default: `whatToDo`). */
	whatToDoAtCap?: string;
	/** Builds the error thrown for a problem (default: a PagingError). */
	fail?: (problem: PagingProblem) => Error;
}

export interface PageVerdict<T> {
	/** The page's items not let through before, in order, within the room left under maxItems. */
	fresh: T[];
	/** Set when the page made no progress: the loop must stop here. */
	problem?: PagingProblem;
	/** The listing is complete: a page shorter than the page size, or the total reached. */
	last: boolean;
}

/** The error of a problem when the caller gives no `fail` (the guard's own tests, generators). */
export class PagingError extends Error {
	constructor(readonly problem: PagingProblem) {
		super(problem.message);
		this.name = 'PagingError';
	}
}

export class PagingGuard<T> {
	private sent: number;
	private keptCount = 0;
	private readonly seen = new Set<string>();
	private readonly maxItems: number;
	private list: string;
	private pagesInListing: number;
	private receivedInListing: number;
	private totalBound: number | undefined;
	private previous: { digest: string; at: string } | undefined;
	private bytesCounted = 0;
	private pagesCounted = 0;

	constructor(private readonly options: PagingOptions<T>) {
		if (!(options.pageSize >= 1)) throw new Error(`A page size of at least 1 is needed, got ${options.pageSize}`);
		const pagesBefore = Math.max(0, options.pagesBefore ?? 0);
		this.sent = pagesBefore;
		this.list = options.list;
		this.pagesInListing = pagesBefore;
		this.receivedInListing = pagesBefore * options.pageSize;
		this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
	}

	/** Requests counted so far. */
	get requests(): number {
		return this.sent;
	}

	/** Items let through so far. */
	get kept(): number {
		return this.keptCount;
	}

	/** Ids remembered: never more than maxItems, nor than the items let through. */
	get remembered(): number {
		return this.seen.size;
	}

	/** Bytes of the pages read so far, as the caller reported them. */
	get bytesRead(): number {
		return this.bytesCounted;
	}

	/** How many bytes the next page may bring (maxBytes less what was read; Infinity without maxBytes). */
	get bytesLeft(): number {
		const max = this.options.maxBytes;
		return max === undefined ? Number.POSITIVE_INFINITY : Math.max(0, max - this.bytesCounted);
	}

	/**
	 * The problem when the list holds more than maxBytes: nothing is left for another page, or the
	 * page being read brought more than was left (the caller stopped reading it).
	 */
	sizeProblem(): PagingProblem {
		const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
		const max = this.options.maxBytes ?? Number.POSITIVE_INFINITY;
		return this.problem(
			'size cap reached',
			`${this.pagesCounted} page(s) brought ${mb(this.bytesCounted)}, and the next page may bring only ${mb(this.bytesLeft)} more under Max List Size (${Math.round(max / (1024 * 1024))} MB)`,
			this.options.whatToDoAtSize ?? this.options.whatToDoAtCap ?? this.options.whatToDo,
		);
	}

	/** The caller holds all it may keep (its Limit): the loop ends, without an error. */
	get satisfied(): boolean {
		return this.keptCount >= this.maxItems;
	}

	/**
	 * A new listing of the same loop (the trigger lists again from a later timestamp): page numbers,
	 * total and the page before start afresh; the ids seen are kept unless `forgetSeen`.
	 */
	newListing(listing: { list?: string; pagesBefore?: number; forgetSeen?: boolean } = {}): void {
		const pagesBefore = Math.max(0, listing.pagesBefore ?? 0);
		if (listing.list !== undefined) this.list = listing.list;
		this.pagesInListing = pagesBefore;
		this.receivedInListing = pagesBefore * this.options.pageSize;
		this.totalBound = undefined;
		this.previous = undefined;
		if (listing.forgetSeen) {
			this.seen.clear();
			this.keptCount = 0;
		}
	}

	/** Why no further request may be sent (the cap, or the pages the listing's total allows); undefined when one may. */
	refusal(): PagingProblem | undefined {
		if (this.sent >= this.options.maxRequests) {
			return this.problem(
				'cap reached',
				`it was still answering full pages after ${this.sent} request(s), the most the node sends for one list`,
				this.options.whatToDoAtCap ?? this.options.whatToDo,
			);
		}
		if (this.totalBound !== undefined && this.pagesInListing >= this.totalBound) {
			return this.problem('past its total', `it kept answering full pages past the ${this.totalBound} page(s) that its total allows`);
		}
		if (this.bytesLeft <= 0) return this.sizeProblem();
		return undefined;
	}

	mayRequest(): boolean {
		return this.refusal() === undefined;
	}

	/** Counts one request about to be sent; throws the problem instead when it would pass a bound. */
	request(): void {
		const refusal = this.refusal();
		if (refusal !== undefined) throw this.failure(refusal);
		this.sent += 1;
	}

	/** The error to throw for a problem (the caller's `fail`, else a PagingError). */
	failure(problem: PagingProblem): Error {
		return this.options.fail?.(problem) ?? new PagingError(problem);
	}

	/**
	 * Judges one page, read after `request()`. `total` is the list's length as the answer gives it;
	 * `at` names the page in the message (default "page N"); `bytes` is the size of the answer
	 * that brought it, counted against maxBytes.
	 */
	page(items: T[], answer: { total?: number; at?: string; bytes?: number } = {}): PageVerdict<T> {
		this.pagesInListing += 1;
		this.pagesCounted += 1;
		if (typeof answer.bytes === 'number' && answer.bytes > 0) this.bytesCounted += answer.bytes;
		this.receivedInListing += items.length;
		const { pageSize } = this.options;
		const at = answer.at ?? `page ${this.pagesInListing}`;
		const total = typeof answer.total === 'number' && !Number.isNaN(answer.total) ? answer.total : undefined;
		if (this.pagesInListing === 1 && total !== undefined && this.options.boundByTotal !== false) {
			this.totalBound = Math.ceil(total / pageSize) + 1;
		}
		const last = items.length < pageSize || (total !== undefined && this.receivedInListing >= total);
		const judged = this.pagesInListing > 1 && items.length > 0 && (this.options.judge !== 'full pages' || items.length >= pageSize);
		const idOf = this.options.idOf;
		const fresh: T[] = [];
		let unseen = 0;
		let withoutId = 0;
		for (const item of items) {
			const id = idOf?.(item);
			if (id === undefined) {
				// Nothing tells two such items apart: each one counts as new; the page is judged by content.
				withoutId += 1;
			} else if (this.seen.has(id)) {
				continue;
			}
			unseen += 1;
			if (this.keptCount >= this.maxItems) continue;
			if (id !== undefined) this.seen.add(id);
			this.keptCount += 1;
			fresh.push(item);
		}
		if (withoutId > 0) {
			const { digest, alike } = pageDigest(items);
			const previous = this.previous;
			this.previous = { digest, at };
			if (judged && previous?.digest === digest && !(this.options.alikeItemsMayRepeat && alike)) {
				return { fresh, last, problem: this.problem('no progress', `${at} was the same as ${previous.at}`) };
			}
		} else if (judged && unseen === 0) {
			return { fresh, last, problem: this.problem('no progress', `${at} brought no item it had not already sent`) };
		}
		return { fresh, last };
	}

	private problem(kind: PagingProblemKind, why: string, whatToDo = this.options.whatToDo): PagingProblem {
		const parameter = this.options.pageParameter ?? 'page';
		const message =
			kind === 'cap reached'
				? `The API's list ${this.list} was not at its end: ${why}. ${whatToDo}`
				: kind === 'size cap reached'
					? `The API's list ${this.list} is larger than the node keeps for one list: ${why}. ${whatToDo}`
					: `The API's list ${this.list} made no progress: ${why}. Stopped after ${this.sent} request(s) instead of asking again and again; the service may be ignoring the "${parameter}" parameter. ${whatToDo}`;
		return { kind, list: this.list, requests: this.sent, message };
	}
}
