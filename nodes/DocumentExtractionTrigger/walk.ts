import type { IPollFunctions } from 'n8n-workflow';

import { shown } from '../../credentials/shown';
import type { FilePage, FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import { PagingGuard, pagingNodeError } from '../shared/paging';
import type { RequestPolicy } from '../shared/run';
import type { FileStream, Listed } from './files';
import { fileIdOf, stampOf } from './files';
import type { Position } from './position';

const {
	maxListRequestsPerPoll: MAX_LIST_REQUESTS,
	futureToleranceMs: FUTURE_TOLERANCE_MS,
	maxTieRestarts: MAX_TIE_RESTARTS,
	maxTieSearchPages: MAX_TIE_SEARCH_PAGES,
} = TRIGGER_LIMITS;

/** A timestamp from the service, short enough for a message. */
function shortStamp(text: string): string {
	return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Whether the walk may list once more (n8n's poll budget, Max Documents per Poll, ...). */
type MayGoOn = () => boolean;

/**
 * Handles the files of one page, in order, moving the position over each one it handled.
 * Returns false when it stopped before the end (the walk then ends).
 */
type PageHandler = (files: Listed[]) => Promise<boolean>;

/** What the walk reads from n8n's clock, once per poll. */
export interface WalkClock {
	/** n8n's clock, in ms. */
	nowMs: number;
}

/**
 * How the paging guard tells files apart. A file id of the API as it is; anything else (an id of
 * 20 KB, "..") by its length and first characters, so that the ids the guard remembers for one
 * poll stay small whatever the service sends.
 */
function guardIdOf(file: FileRecord): string {
	const id = fileIdOf(file);
	if (id !== undefined) return id;
	const text = String(file.fileId);
	return `not an id:${text.length}:${text.slice(0, 64)}`;
}

interface Place {
	anchor: string | null;
	page: number;
	/** The page's first files already handled (found by position inside a large tie). */
	skip: number;
	/** The answer for this page, already read while looking for the place. */
	answer?: FilePage;
}

/**
 * Walks a stream of files from a position: lists "on or after" the position's timestamp, hands
 * each page (without files already handled, repeated or dated in the future) to the handler,
 * then lists again from the timestamp the position reached (never page 2 of a set that may have
 * changed). Only when a whole page shares one timestamp does it read the next page number, and
 * then it first checks that the previous page's last file has not moved.
 *
 * Every walk is bounded by the paging guard: MAX_LIST_REQUESTS per poll (pages, checks and
 * searches alike), a page number never beyond the total the service gives, and a full page that
 * brings no file not listed before in this walk stops it with an error (a service that ignores
 * `page`). The guard remembers the ids listed in this walk, at most one full page per request.
 */
export class Walker {
	private readonly guard: PagingGuard<FileRecord>;

	/** Files listed in this poll whose id is not a file id of the API: skipped, reported once per poll. */
	readonly badIds: string[] = [];
	badIdCount = 0;
	private readonly latestMs: number;

	constructor(
		private readonly context: IPollFunctions,
		private readonly policy: RequestPolicy,
		private readonly stream: FileStream,
		private readonly mayGoOn: MayGoOn,
		clock: WalkClock,
	) {
		this.latestMs = clock.nowMs + FUTURE_TOLERANCE_MS;
		this.guard = new PagingGuard<FileRecord>({
			list: this.listName(null),
			pageSize: FILE_PAGE_SIZE,
			maxRequests: MAX_LIST_REQUESTS,
			maxItems: MAX_LIST_REQUESTS * FILE_PAGE_SIZE,
			idOf: guardIdOf,
			// Only a full page is judged, and totals bound nothing: the stream grows while it is read.
			judge: 'full pages',
			boundByTotal: false,
			whatToDo:
				'The trigger emits the files it handled before and tries again from its cursor on the next poll; if this keeps happening, its GET /files seems to ignore "page": tell the service\'s operator.',
			fail: (problem) => pagingNodeError(context.getNode(), problem),
		});
	}

	/** List requests of this poll so far. */
	get requests(): number {
		return this.guard.requests;
	}

	private listName(anchor: string | null): string {
		const from = anchor === null ? 'from the first file' : `${this.stream.afterParameter} ${shortStamp(anchor)}`;
		return `/files (${from}, by ${this.stream.sortBy})`;
	}

	private async list(anchor: string | null, page: number, limit: number): Promise<FilePage> {
		this.guard.request();
		return await listFiles(
			this.context,
			{
				...(anchor === null ? {} : { [this.stream.afterParameter]: anchor }),
				sortBy: this.stream.sortBy,
				sortOrder: 'ASC',
				page,
				limit,
			},
			{ policy: this.policy },
		);
	}

	private canList(): boolean {
		return this.guard.mayRequest() && this.mayGoOn();
	}

	/** A listing from `anchor`, its first page being `page`; a restart forgets the files listed. */
	private startListing(anchor: string | null, page: number, forgetSeen: boolean): void {
		this.guard.newListing({ list: this.listName(anchor), pagesBefore: page - 1, forgetSeen });
	}

	async walk(position: Position, handle: PageHandler): Promise<void> {
		const start = await this.startPlace(position);
		if (start === undefined) return;
		let { anchor, page, skip, answer } = start;
		let restarts = 0;
		let previousLastId: string | undefined;
		this.startListing(anchor, page, true);
		for (;;) {
			if (answer === undefined && !this.canList()) return;
			const { files, count } = answer ?? (await this.list(anchor, page, FILE_PAGE_SIZE));
			answer = undefined;
			const verdict = this.guard.page(files, { total: count, at: `page ${page}` });
			if (verdict.problem) throw this.guard.failure(verdict.problem);
			if (page > 1 && previousLastId !== undefined) {
				// The check of the file before this page is a request of the poll like any other.
				if (!this.guard.mayRequest()) return;
				const probe = await this.list(anchor, (page - 1) * FILE_PAGE_SIZE, 1);
				if (probe.files[0]?.fileId !== previousLastId) {
					restarts += 1;
					if (restarts > MAX_TIE_RESTARTS || !this.canList()) return;
					const restart = await this.startPlace(position);
					if (restart === undefined) return;
					({ anchor, page, skip, answer } = restart);
					previousLastId = undefined;
					this.startListing(anchor, page, true);
					continue;
				}
			}
			const { todo, future } = this.prepare(files.slice(skip), position);
			skip = 0;
			if (!(await handle(todo))) return;
			if (future !== undefined) {
				this.warnFuture(future);
				return;
			}
			if (verdict.last) return;
			const placed = files.map((file) => stampOf(file, this.stream)).filter((stamp) => stamp !== undefined);
			const last = files[files.length - 1];
			if (placed.length > 0 && placed[0].ms < placed[placed.length - 1].ms && position.at !== anchor) {
				// The next request starts at the timestamp the position reached.
				anchor = position.at;
				page = 1;
				restarts = 0;
				previousLastId = undefined;
				this.startListing(anchor, page, false);
			} else {
				// A whole page at one timestamp (or a position that could not move: files dated after
				// the cursor's limit, files without a readable timestamp): the next page.
				previousLastId = String(last.fileId);
				page += 1;
			}
		}
	}

	/**
	 * Where a walk from `position` starts: page 1 from its timestamp, or, when more files at that
	 * timestamp were handled than one page holds, the page where the last handled one is now
	 * (looking back up to MAX_TIE_SEARCH_PAGES pages, as files that moved away shift the rest).
	 * Relies on the API listing files with equal timestamps in a stable order. Undefined when the
	 * poll may not list any more.
	 */
	private async startPlace(position: Position): Promise<Place | undefined> {
		const anchor = position.at;
		if (anchor === null || position.count <= FILE_PAGE_SIZE) return { anchor, page: 1, skip: 0 };
		const expected = Math.floor((position.count - 1) / FILE_PAGE_SIZE) + 1;
		for (let page = expected; page >= 1 && page > expected - MAX_TIE_SEARCH_PAGES; page--) {
			if (!this.canList()) return undefined;
			const answer = await this.list(anchor, page, FILE_PAGE_SIZE);
			let found = -1;
			answer.files.forEach((file, index) => {
				// A handled file that is still at the cursor's timestamp: one that changed since (File
				// Updated lists it later) tells nothing about the place in the group.
				if (position.has(String(file.fileId)) && stampOf(file, this.stream)?.ms === position.ms) found = index;
			});
			if (found >= 0) {
				position.placeAt((page - 1) * FILE_PAGE_SIZE + found + 1);
				// Files known by id are skipped by id; beyond the ids kept, by their place.
				return { anchor, page, skip: position.knowsAll ? 0 : found + 1, answer };
			}
		}
		if (position.knowsAll) return { anchor, page: 1, skip: 0 };
		this.context.logger.warn(
			`Document Extraction Trigger "${this.context.getNode().name}": the ${position.count} files at ${anchor} are no longer listed in the order the trigger read them; it reads that timestamp again from its first file, so some of them may come a second time.`,
			{ node: this.context.getNode().name },
		);
		position.restartTie();
		return { anchor, page: 1, skip: 0 };
	}

	/**
	 * The files of a page the handler gets: each id once, none already handled, and none from the
	 * first file dated beyond n8n's clock plus FUTURE_TOLERANCE_MS on (the list is in time order,
	 * so everything after it is later still). A file whose id is not a file id of the API is
	 * skipped and counted (reported once per poll; never kept nor sent back); a file without a
	 * readable timestamp goes to the handler without one (it cannot be placed, so it cannot stop
	 * the stream either).
	 */
	private prepare(files: FileRecord[], position: Position): { todo: Listed[]; future?: FileRecord } {
		const onPage = new Set<string>();
		const todo: Listed[] = [];
		for (const file of files) {
			const key = guardIdOf(file);
			if (onPage.has(key)) continue;
			onPage.add(key);
			const id = fileIdOf(file);
			if (id === undefined) {
				this.noteBadId(file);
				continue;
			}
			const stamp = stampOf(file, this.stream);
			if (stamp !== undefined && stamp.ms > this.latestMs) return { todo, future: file };
			if (stamp === undefined || !position.isBehind(stamp.ms, id)) todo.push({ file, id, stamp });
		}
		return { todo };
	}

	private noteBadId(file: FileRecord): void {
		this.badIdCount += 1;
		if (this.badIds.length < 3) this.badIds.push(shown(file.fileId));
	}

	private warnFuture(file: FileRecord): void {
		const stamp = shown(file[this.stream.sortBy]);
		this.context.logger.warn(
			`Document Extraction Trigger "${this.context.getNode().name}": file ${shown(file.fileId)} has ${this.stream.sortBy} ${stamp}, more than ${FUTURE_TOLERANCE_MS / 60000} minutes ahead of this n8n's clock. The trigger emits it, and the files listed after it, once that time has come; the files before it come out as usual. Check the clocks of the service and of n8n if this is not a date the service made up.`,
			{ node: this.context.getNode().name },
		);
	}
}
