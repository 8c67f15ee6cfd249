import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiKeysOf } from '../shared/run';
import type { FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import { PagingGuard } from '../shared/paging';
import { valuesField } from '../shared/output/values';
import { STREAMS, fileIdOf, isProcessed, stampOf } from './files';
import { buildItem } from './items';
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
} = TRIGGER_LIMITS;

/**
 * Where a newly activated trigger starts. Start From "Now" asks the API for its newest files so
 * the start point is in the service's own clock, never n8n's: a clock difference between the two
 * can then neither drop nor replay files. Files dated beyond n8n's clock plus FUTURE_TOLERANCE_MS
 * are passed over (were all of the newest page so dated, n8n's clock is the start). The cursor
 * never starts past n8n's clock minus CURSOR_LAG_MS (the horizon): the newest files dated after
 * it are remembered as handled (`early`; File Processed: those in flight as pending), those
 * without a readable timestamp as reported (`unplaced`). `onRequest` is told when the request is
 * made; a start date needs no request.
 */
export async function initialState(
	this: IPollFunctions,
	settings: TriggerSettings,
	nowMs: number,
	onRequest: () => void,
): Promise<TriggerState> {
	const base = { version: STATE_VERSION, config: configOf(settings), pending: [] as string[] };
	if (settings.startFrom === 'date' && settings.startDate !== undefined) {
		return { ...base, cursor: { at: settings.startDate, ids: [] } };
	}
	const stream = STREAMS[settings.event];
	const { files } = await listFiles.call(this, {
		sortBy: stream.sortBy,
		sortOrder: 'DESC',
		page: 1,
		limit: FILE_PAGE_SIZE,
	});
	onRequest();
	if (files.length === 0) return { ...base, cursor: { at: null, ids: [] } };
	const horizon = stampAt(nowMs - CURSOR_LAG_MS);
	const latestMs = nowMs + FUTURE_TOLERANCE_MS;
	const listed = files.flatMap((file) => {
		const id = fileIdOf(file);
		return id === undefined ? [] : [{ file, id, stamp: stampOf(file, stream) }];
	});
	const unplaced = [...new Set(listed.filter(({ stamp }) => stamp === undefined).map(({ id }) => id))];
	const stamped = listed.flatMap(({ file, id, stamp }) => (stamp !== undefined && stamp.ms <= latestMs ? [{ file, id, stamp }] : []));
	const within = stamped.filter(({ stamp }) => stamp.ms <= horizon.ms);
	const beyond = stamped.filter(({ stamp }) => stamp.ms > horizon.ms);
	const newest = (entries: typeof stamped) => entries.reduce((best, entry) => (entry.stamp.ms > best.stamp.ms ? entry : best)).stamp;
	const oldest = (entries: typeof stamped) => entries.reduce((best, entry) => (entry.stamp.ms < best.stamp.ms ? entry : best)).stamp;
	// The newest file up to the horizon; with none, the horizon, or, when the whole page lies beyond
	// it, the oldest file of the page (files older than it are history too).
	const last = within.length > 0 ? newest(within) : undefined;
	const historyLimit = last ?? (files.length >= FILE_PAGE_SIZE && beyond.length > 0 ? oldest(beyond) : horizon);
	const early: Array<[string, string]> = [];
	const pending: string[] = [];
	for (const { file, id, stamp } of beyond) {
		if (settings.event === 'fileProcessed' && !isProcessed(file)) pending.push(id);
		else early.push([id, stamp.text]);
	}
	const remembered = {
		...(early.length > 0 ? { early } : {}),
		...(unplaced.length > 0 ? { unplaced } : {}),
		pending: [...new Set(pending)],
	};
	if (settings.event === 'fileUpdated') {
		// The cursor starts at the newest change, holding the files changed at that very instant.
		const at = last ?? horizon;
		const ids = [...new Set(within.filter(({ stamp }) => stamp.ms === at.ms).map(({ id }) => id))];
		const historyUntil = last === undefined && historyLimit !== horizon ? { historyUntil: historyLimit.text } : {};
		return { ...base, ...remembered, cursor: { at: at.text, ids }, ...historyUntil };
	}
	// File Processed walks back over the last day of uploads, emitting none of them, to note
	// those still being processed at activation: they are emitted when they finish.
	const at = new Date(Math.min(historyLimit.ms, horizon.ms) - IN_FLIGHT_LOOKBACK_MS).toISOString();
	return { ...base, ...remembered, cursor: { at, ids: [] }, historyUntil: historyLimit.text };
}

/** "Fetch Test Event": the most recently changed processed file that passes the filters. */
export async function fetchTestEvent(
	this: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	const passes = fileFilter(settings);
	// The pages are not trusted to end: at most TEST_EVENT_PAGES, and a full page that brings no
	// file the pages before had not (a service that ignores `page`) ends the search.
	const guard = new PagingGuard<FileRecord>({
		list: '/files (by updatedAt, newest first)',
		pageSize: FILE_PAGE_SIZE,
		maxRequests: TEST_EVENT_PAGES,
		idOf: (file) => String(file.fileId),
		judge: 'full pages',
		whatToDo: 'Fetch Test Event looked no further.',
	});
	for (let page = 1; guard.mayRequest(); page++) {
		guard.request();
		const { files } = await listFiles.call(this, {
			sortBy: 'updatedAt',
			sortOrder: 'DESC',
			page,
			limit: FILE_PAGE_SIZE,
		});
		const match = files.find((file) => isProcessed(file) && passes(file));
		if (match) {
			const extra = settings.includeValues
				? await valuesField.call(this, String(match.fileId), undefined, true)
				: undefined;
			return [[buildItem(match, extra, STREAMS[settings.event], apiKeysOf(this)).item]];
		}
		const verdict = guard.page(files);
		if (verdict.problem) this.logger.warn(verdict.problem.message, { node: this.getNode().name });
		if (verdict.last || verdict.problem) break;
	}
	const filtered = settings.fileClasses.length > 0 || settings.schemaIds.length > 0;
	throw new NodeOperationError(
		this.getNode(),
		filtered
			? 'No processed document matches the filters yet'
			: 'No processed document in this workspace yet',
		{
			description: `The trigger looked at the ${TEST_EVENT_PAGES * FILE_PAGE_SIZE} most recently changed files. Upload a document (for example with the Document Extraction node), wait until it is processed, then fetch again${filtered ? ', or widen the filters' : ''}.`,
		},
	);
}
