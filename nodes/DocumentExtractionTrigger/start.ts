import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { RequestPolicy } from '../shared/run';
import { apiKeysOf } from '../shared/run';
import type { FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles, withoutSecrets } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import { PagingGuard } from '../shared/paging';
import { withLeadingKeys } from '../shared/output/keyOrder';
import { valuesField } from '../shared/output/values';
import { STREAMS, isProcessed, stampOf } from './files';
import type { TriggerSettings } from './settings';
import { fileFilter } from './settings';
import type { TriggerState } from './state';
import { STATE_VERSION, configOf } from './state';

const {
	futureToleranceMs: FUTURE_TOLERANCE_MS,
	inFlightLookbackMs: IN_FLIGHT_LOOKBACK_MS,
	testEventPages: TEST_EVENT_PAGES,
} = TRIGGER_LIMITS;

/**
 * Where a newly activated trigger starts. Start From "Now" asks the API for its newest files so
 * the start point is in the service's own clock, never n8n's: a clock difference between the two
 * can then neither drop nor replay files. Files dated beyond n8n's clock plus FUTURE_TOLERANCE_MS
 * are passed over (were all of the newest page so dated, n8n's clock is the start). `onRequest`
 * is told when the request is made; a start date needs no request.
 */
export async function initialState(
	this: IPollFunctions,
	settings: TriggerSettings,
	policy: RequestPolicy,
	onRequest: () => void,
): Promise<TriggerState> {
	const base = { version: STATE_VERSION, config: configOf(settings), pending: [] as string[] };
	if (settings.startFrom === 'date' && settings.startDate !== undefined) {
		return { ...base, cursor: { at: settings.startDate, ids: [] } };
	}
	const stream = STREAMS[settings.event];
	const { files } = await listFiles.call(this, { sortBy: stream.sortBy, sortOrder: 'DESC', page: 1, limit: FILE_PAGE_SIZE }, { policy });
	onRequest();
	if (files.length === 0) return { ...base, cursor: { at: null, ids: [] } };
	const latestMs = Date.now() + FUTURE_TOLERANCE_MS;
	const stamped = files
		.map((file) => ({ file, stamp: stampOf(this, file, stream) }))
		.filter(({ stamp }) => stamp.ms <= latestMs);
	const newest =
		stamped.length > 0
			? stamped.reduce((best, entry) => (entry.stamp.ms > best.stamp.ms ? entry : best)).stamp
			: { text: new Date(Date.now()).toISOString(), ms: Date.now() };
	if (settings.event === 'fileUpdated') {
		// The cursor starts at the newest change, holding the files changed at that very instant.
		const ids = [...new Set(stamped.filter(({ stamp }) => stamp.ms === newest.ms).map(({ file }) => String(file.fileId)))];
		return { ...base, cursor: { at: newest.text, ids } };
	}
	// File Processed walks back over the last day of uploads, emitting none of them, to note
	// those still being processed at activation: they are emitted when they finish.
	const at = new Date(newest.ms - IN_FLIGHT_LOOKBACK_MS).toISOString();
	return { ...base, cursor: { at, ids: [] }, historyUntil: newest.text };
}

/**
 * "Fetch Test Event" (and the editor's Execute workflow): the newest document the event would fire
 * for that passes the filters, in the event's own order: File Processed, the most recently uploaded
 * processed document (createdAt, as the trigger emits them); File Updated, the most recently changed
 * one (updatedAt). With none, nothing fires and the run ends without output, as an active trigger
 * with nothing new does (a test run on an empty workspace is not an error).
 */
export async function fetchTestEvent(
	this: IPollFunctions,
	settings: TriggerSettings,
	policy: RequestPolicy,
): Promise<INodeExecutionData[][] | null> {
	const passes = fileFilter(settings);
	// The pages are not trusted to end: at most TEST_EVENT_PAGES, and a full page that brings no
	// file the pages before had not (a service that ignores `page`) ends the search.
	const guard = new PagingGuard<FileRecord>({
		list: `/files (by ${STREAMS[settings.event].sortBy}, newest first)`,
		pageSize: FILE_PAGE_SIZE,
		maxRequests: TEST_EVENT_PAGES,
		idOf: (file) => String(file.fileId),
		judge: 'full pages',
		whatToDo: 'Fetch Test Event looked no further.',
	});
	for (let page = 1; guard.mayRequest(); page++) {
		guard.request();
		const { files } = await listFiles.call(this, {
			sortBy: STREAMS[settings.event].sortBy,
			sortOrder: 'DESC',
			page,
			limit: FILE_PAGE_SIZE,
		}, { policy });
		const match = files.find((file) => isProcessed(file) && passes(file));
		if (match) {
			const extra = settings.includeValues
				? await valuesField.call(this, String(match.fileId), policy, true)
				: {};
			return [withoutSecrets([{ json: withLeadingKeys({ ...match, ...extra }) }], apiKeysOf(this))];
		}
		const verdict = guard.page(files);
		if (verdict.problem) this.logger.warn(verdict.problem.message, { node: this.getNode().name });
		if (verdict.last || verdict.problem) break;
	}
	return null;
}
