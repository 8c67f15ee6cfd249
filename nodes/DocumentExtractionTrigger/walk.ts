import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { FilePage, FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import type { RequestPolicy } from '../shared/run';
import type { FileStream } from './files';
import { stampOf } from './files';
import type { Position } from './position';

/** List requests of one poll (pages, checks and searches together): 20,000 files looked at. */
const MAX_LIST_REQUESTS = 200;
/** A file dated later than n8n's clock plus this waits (with every file after it) until then. */
export const FUTURE_TOLERANCE_MS = 10 * 60 * 1000;
/** Restarts of a walk through files sharing one timestamp after the set shifted under it. */
const MAX_TIE_RESTARTS = 3;
/** Pages looked at, back from where it was, to find the last handled file of a large tie. */
const MAX_TIE_SEARCH_PAGES = 10;

/** Whether the walk may list once more (n8n's poll budget, Max Documents per Poll, ...). */
type MayGoOn = () => boolean;

/**
 * Handles the files of one page, in order, moving the position over each one it handled.
 * Returns false when it stopped before the end (the walk then ends).
 */
type PageHandler = (files: FileRecord[]) => Promise<boolean>;

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
 * Every walk is bounded: MAX_LIST_REQUESTS per poll, a page number never beyond the total the
 * service gives, and a page that brings no file not listed before in this walk stops it with an
 * error (a service that ignores `page`).
 */
export class Walker {
	requests = 0;

	constructor(
		private readonly context: IPollFunctions,
		private readonly policy: RequestPolicy,
		private readonly stream: FileStream,
		private readonly mayGoOn: MayGoOn,
	) {}

	private async list(anchor: string | null, page: number, limit: number): Promise<FilePage> {
		this.requests += 1;
		return await listFiles.call(
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
		return this.requests < MAX_LIST_REQUESTS && this.mayGoOn();
	}

	async walk(position: Position, handle: PageHandler): Promise<void> {
		const start = await this.startPlace(position);
		if (start === undefined) return;
		let { anchor, page, skip, answer } = start;
		let restarts = 0;
		let previousLastId: string | undefined;
		let listed = new Set<string>();
		for (;;) {
			if (answer === undefined && !this.canList()) return;
			const { files, count } = answer ?? (await this.list(anchor, page, FILE_PAGE_SIZE));
			answer = undefined;
			if (page > 1 && files.length >= FILE_PAGE_SIZE && files.every((file) => listed.has(String(file.fileId)))) {
				throw this.noProgress(anchor, page);
			}
			if (page > 1 && previousLastId !== undefined) {
				const probe = await this.list(anchor, (page - 1) * FILE_PAGE_SIZE, 1);
				if (probe.files[0]?.fileId !== previousLastId) {
					restarts += 1;
					if (restarts > MAX_TIE_RESTARTS || !this.canList()) return;
					const restart = await this.startPlace(position);
					if (restart === undefined) return;
					({ anchor, page, skip, answer } = restart);
					previousLastId = undefined;
					listed = new Set();
					continue;
				}
			}
			for (const file of files) listed.add(String(file.fileId));
			const { todo, future } = this.prepare(files.slice(skip), position);
			skip = 0;
			if (!(await handle(todo))) return;
			if (future !== undefined) {
				this.warnFuture(future);
				return;
			}
			if (files.length < FILE_PAGE_SIZE) return;
			if (count !== undefined && count <= (page - 1) * FILE_PAGE_SIZE + files.length) return;
			const firstMs = stampOf(this.context, files[0], this.stream).ms;
			const last = files[files.length - 1];
			const lastMs = stampOf(this.context, last, this.stream).ms;
			if (firstMs < lastMs && position.at !== anchor) {
				// The next request starts at the timestamp the position reached.
				anchor = position.at;
				page = 1;
				restarts = 0;
				previousLastId = undefined;
			} else {
				// A whole page at one timestamp (or a position that could not move): the next page.
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
				if (position.has(String(file.fileId))) found = index;
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
	 * so everything after it is later still).
	 */
	private prepare(files: FileRecord[], position: Position): { todo: FileRecord[]; future?: FileRecord } {
		const latestMs = Date.now() + FUTURE_TOLERANCE_MS;
		const onPage = new Set<string>();
		const todo: FileRecord[] = [];
		for (const file of files) {
			const id = String(file.fileId);
			if (onPage.has(id)) continue;
			onPage.add(id);
			const { ms } = stampOf(this.context, file, this.stream);
			if (ms > latestMs) return { todo, future: file };
			if (!position.isBehind(ms, id)) todo.push(file);
		}
		return { todo };
	}

	private warnFuture(file: FileRecord): void {
		const stamp = String(file[this.stream.sortBy]);
		this.context.logger.warn(
			`Document Extraction Trigger "${this.context.getNode().name}": file ${String(file.fileId)} has ${this.stream.sortBy} ${stamp}, more than ${FUTURE_TOLERANCE_MS / 60000} minutes ahead of this n8n's clock. The trigger emits it, and the files listed after it, once that time has come; the files before it come out as usual. Check the clocks of the service and of n8n if this is not a date the service made up.`,
			{ node: this.context.getNode().name },
		);
	}

	private noProgress(anchor: string | null, page: number): NodeApiError {
		const from = anchor === null ? 'from the first file' : `${this.stream.afterParameter} ${anchor}`;
		return new NodeApiError(
			this.context.getNode(),
			{ page, [this.stream.afterParameter]: anchor },
			{
				message: `The service answered page ${page} of its file list (${from}) with files of the pages before: it seems to ignore "page"`,
				description:
					'The trigger stopped there to avoid reading the same files again and again; it tries again from its cursor on the next poll. If this keeps happening, the service\'s GET /files does not page; tell its operator.',
			},
		);
	}
}
