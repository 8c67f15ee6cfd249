import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiKeysOf, withoutSecrets } from '../DocumentExtraction/transport';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import { withLeadingKeys } from '../shared/output/keyOrder';
import { valuesField } from '../shared/output/values';
import { STREAMS, isProcessed, stampOf } from './files';
import type { TriggerSettings } from './settings';
import { fileFilter } from './settings';
import type { TriggerState } from './state';
import { STATE_VERSION, configOf } from './state';
import { FUTURE_TOLERANCE_MS } from './walk';

/** Start From "Now": files uploaded this long before activation are checked for being in flight. */
const IN_FLIGHT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Fetch Test Event looks at this many pages of the newest files, in the event's order. */
const TEST_EVENT_PAGES = 5;

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
): Promise<INodeExecutionData[][] | null> {
	const passes = fileFilter(settings);
	const listed = new Set<string>();
	for (let page = 1; page <= TEST_EVENT_PAGES; page++) {
		const { files } = await listFiles.call(this, {
			sortBy: STREAMS[settings.event].sortBy,
			sortOrder: 'DESC',
			page,
			limit: FILE_PAGE_SIZE,
		});
		const match = files.find((file) => isProcessed(file) && passes(file));
		if (match) {
			const extra = settings.includeValues
				? await valuesField.call(this, String(match.fileId), undefined, true)
				: {};
			return [withoutSecrets([{ json: withLeadingKeys({ ...match, ...extra }) }], apiKeysOf(this))];
		}
		if (files.length < FILE_PAGE_SIZE) break;
		// A page that brings no file the pages before had not: the service ignores `page`.
		if (files.every((file) => listed.has(String(file.fileId)))) break;
		for (const file of files) listed.add(String(file.fileId));
	}
	return null;
}
