import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestPolicy } from '../shared/run';
import { apiKeysOf } from '../shared/run';
import type { FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import { PagingGuard, walkPages } from '../shared/paging';
import { valuesField } from '../shared/output/values';
import type { FileStream } from './files';
import { STREAMS, fileIdOf, isProcessed, stampOf } from './files';
import { triggerItem } from './items';
import type { TriggerSettings } from './settings';
import { fileFilter } from './settings';
import type { TriggerState } from './state';
import { STATE_VERSION, configOf } from './state';
import { stampAt } from './stamps';

const {
	cursorLagMs: CURSOR_LAG_MS,
	futureToleranceMs: FUTURE_TOLERANCE_MS,
	inFlightLookbackMs: IN_FLIGHT_LOOKBACK_MS,
	testEventPages: TEST_EVENT_PAGES,
	startPages: START_PAGES,
} = TRIGGER_LIMITS;

/**
 * The newest files at activation, newest first: as many pages as the cursor's lag holds (the next
 * page is read while a full page's files are all dated after the horizon), at most `startPages`,
 * through the paging guard. `more`: the list may go on past the last page read; `whole`: every
 * file dated after the horizon was read (false past the bound, or at a page that brought nothing new).
 */
async function readNewest(
	context: IPollFunctions,
	stream: FileStream,
	policy: RequestPolicy,
	horizonMs: number,
	onRequest: () => void,
): Promise<{ files: FileRecord[]; more: boolean; whole: boolean }> {
	const guard = new PagingGuard<FileRecord>({
		list: `/files (by ${stream.sortBy}, newest first)`,
		pageSize: FILE_PAGE_SIZE,
		maxRequests: START_PAGES,
		idOf: fileIdOf,
		whatToDo: 'The files read so far are the history.',
	});
	const files: FileRecord[] = [];
	for (let page = 1; ; page++) {
		if (!guard.mayRequest()) return { files, more: true, whole: false };
		guard.request();
		const answer = await listFiles(context, { sortBy: stream.sortBy, sortOrder: 'DESC', page, limit: FILE_PAGE_SIZE }, { policy });
		onRequest();
		const { count } = answer;
		if (page === 1 && count !== undefined && answer.files.length < Math.min(count, FILE_PAGE_SIZE)) {
			// Files the start did not see would later be taken for news: no start from such a page.
			throw new NodeOperationError(
				context.getNode(),
				`The API listed ${answer.files.length} of the ${count} newest files it counts (GET /files, by ${stream.sortBy}, newest first): the trigger does not start from an incomplete list`,
				{ description: 'Nothing was started or emitted; the next poll asks again. If this keeps happening, tell the service\'s operator.' },
			);
		}
		const verdict = guard.page(answer.files, { total: count });
		files.push(...verdict.fresh);
		if (verdict.problem) {
			context.logger.warn(verdict.problem.message, { node: context.getNode().name });
			return { files, more: true, whole: false };
		}
		if (verdict.last) return { files, more: false, whole: true };
		// The lag window ends on this page once a file of it is dated up to the horizon (newest first).
		if (answer.files.some((file) => (stampOf(file, stream)?.ms ?? Number.POSITIVE_INFINITY) <= horizonMs)) {
			return { files, more: true, whole: true };
		}
	}
}

/**
 * Where a newly activated trigger starts. Start From "Now" asks the API for its newest files so
 * the start point is in the service's own clock, never n8n's: a clock difference between the two
 * can then neither drop nor replay files. Files dated beyond n8n's clock plus FUTURE_TOLERANCE_MS
 * are passed over (were all of the newest page so dated, n8n's clock is the start). The cursor
 * never starts past n8n's clock minus CURSOR_LAG_MS (the horizon): the newest files dated after
 * it, read page by page to the horizon (readNewest), are remembered as handled (`early`; File
 * Processed: those in flight as pending), those without a readable timestamp as reported
 * (`unplaced`). Past START_PAGES, history is everything dated up to the oldest file read.
 * `onRequest` is told when a request is made; a start date needs no request.
 */
export async function initialState(
	this: IPollFunctions,
	settings: TriggerSettings,
	policy: RequestPolicy,
	nowMs: number,
	onRequest: () => void,
): Promise<TriggerState> {
	const base = { version: STATE_VERSION, config: configOf(settings), pending: [] as string[] };
	if (settings.startFrom === 'date' && settings.startDate !== undefined) {
		return { ...base, cursor: { at: settings.startDate, ids: [] } };
	}
	const stream = STREAMS[settings.event];
	const horizon = stampAt(nowMs - CURSOR_LAG_MS);
	const { files, more, whole } = await readNewest(this, stream, policy, horizon.ms, onRequest);
	if (files.length === 0) return { ...base, cursor: { at: null, ids: [] } };
	const latestMs = nowMs + FUTURE_TOLERANCE_MS;
	const listed = files.flatMap((file) => {
		const id = fileIdOf(file);
		return id === undefined ? [] : [{ file, id, stamp: stampOf(file, stream) }];
	});
	const unplaced = [...new Set(listed.filter(({ stamp }) => stamp === undefined).map(({ id }) => id))];
	const stamped = listed.flatMap(({ file, id, stamp }) => (stamp !== undefined && stamp.ms <= latestMs ? [{ file, id, stamp }] : []));
	const within = stamped.filter(({ stamp }) => stamp.ms <= horizon.ms);
	const newest = (entries: typeof stamped) => entries.reduce((best, entry) => (entry.stamp.ms > best.stamp.ms ? entry : best)).stamp;
	const oldest = (entries: typeof stamped) => entries.reduce((best, entry) => (entry.stamp.ms < best.stamp.ms ? entry : best)).stamp;
	// History is what is dated up to the newest file within the horizon (with none, up to the
	// horizon), and the files read dated after the horizon, each remembered in `early` (a file the
	// service adds later, dated after the horizon, is news; the cursor never passes the horizon, so
	// no file within the cursor's lag is lost). At the newest file's very millisecond, history holds
	// only the files read, so that a file added later at it is news, unless the last page read is
	// full and the oldest file read is at it (more files at it may follow past the page).
	const last = within.length > 0 ? newest(within) : undefined;
	// Past the bound, every file read is dated after the horizon: history holds all up to the oldest of them.
	const cut = !whole && last === undefined && stamped.length > 0 ? oldest(stamped) : undefined;
	const historyLimit = last ?? cut ?? horizon;
	const tieMayGoOn = last !== undefined && more && oldest(stamped).ms === last.ms;
	const historyUntil = tieMayGoOn || last === undefined ? historyLimit.text : stampAt(historyLimit.ms - 1).text;
	const atLimit = (ms: number) => settings.event === 'fileProcessed' && last !== undefined && !tieMayGoOn && ms === last.ms;
	const remember = stamped.filter(({ stamp }) => stamp.ms > horizon.ms || atLimit(stamp.ms));
	const early: Array<[string, string]> = [];
	const pending: string[] = [];
	for (const { file, id, stamp } of remember) {
		if (settings.event === 'fileProcessed' && !isProcessed(file)) pending.push(id);
		else early.push([id, stamp.text]);
	}
	const remembered = {
		...(early.length > 0 ? { early } : {}),
		...(unplaced.length > 0 ? { unplaced } : {}),
		pending: [...new Set(pending)],
	};
	if (settings.event === 'fileUpdated') {
		// The cursor starts at the newest change, holding the files changed at that very instant; when
		// more of them may follow past the page, history holds that instant too. With no file of the
		// page within the horizon, history holds the horizon's instant: a file changed at it may be
		// past a page full of later ones.
		const at = last ?? horizon;
		const ids = [...new Set(within.filter(({ stamp }) => stamp.ms === at.ms).map(({ id }) => id))];
		return { ...base, ...remembered, cursor: { at: at.text, ids }, ...(tieMayGoOn || last === undefined ? { historyUntil } : {}) };
	}
	// File Processed walks back over the last day of uploads, emitting none of them, to note
	// those still being processed at activation: they are emitted when they finish.
	const at = new Date(historyLimit.ms - IN_FLIGHT_LOOKBACK_MS).toISOString();
	return { ...base, ...remembered, cursor: { at, ids: [] }, historyUntil };
}

/**
 * "Fetch Test Event" (and the editor's Execute workflow): the newest document the event would fire
 * for that passes the filters, in the event's own order: File Processed, the most recently uploaded
 * processed document (createdAt, as the trigger emits them); File Updated, the most recently changed
 * one (updatedAt). With none, nothing fires and the run ends without output, as an active trigger
 * with nothing new does (a test run on an empty workspace is not an error). Its item is built as the
 * active trigger builds its items (items.ts).
 */
export async function fetchTestEvent(
	this: IPollFunctions,
	settings: TriggerSettings,
	policy: RequestPolicy,
): Promise<INodeExecutionData[][] | null> {
	const passes = fileFilter(settings);
	const stream = STREAMS[settings.event];
	// The pages are not trusted to end: at most TEST_EVENT_PAGES, and a full page that brings no
	// file the pages before had not (a service that ignores `page`) ends the search.
	const guard = new PagingGuard<FileRecord>({
		list: `/files (by ${stream.sortBy}, newest first)`,
		pageSize: FILE_PAGE_SIZE,
		maxRequests: TEST_EVENT_PAGES,
		idOf: (file) => String(file.fileId),
		judge: 'full pages',
		whatToDo: 'Fetch Test Event looked no further.',
	});
	let match: FileRecord | undefined;
	await walkPages(
		guard,
		async (page) => ({ items: (await listFiles(this, { sortBy: stream.sortBy, sortOrder: 'DESC', page, limit: FILE_PAGE_SIZE }, { policy })).files }),
		{
			onPage: (fresh) => {
				match = fresh.find((file) => isProcessed(file) && passes(file));
				return match !== undefined;
			},
			onProblem: (problem) => this.logger.warn(problem.message, { node: this.getNode().name }),
		},
	);
	if (match === undefined) return null;
	const extra = settings.includeValues ? await valuesField(this, String(match.fileId), policy, true) : undefined;
	return [[triggerItem(match, extra, stream, apiKeysOf(this)).item]];
}
