import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestPolicy } from '../shared/run';
import { apiKeysOf } from '../shared/run';
import { FILE_PAGE_SIZE, listFiles, withoutSecrets } from '../shared/api';
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
/** Fetch Test Event looks at this many pages of the most recently changed files. */
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

/** "Fetch Test Event": the most recently changed processed file that passes the filters. */
export async function fetchTestEvent(
	this: IPollFunctions,
	settings: TriggerSettings,
	policy: RequestPolicy,
): Promise<INodeExecutionData[][]> {
	const passes = fileFilter(settings);
	const listed = new Set<string>();
	for (let page = 1; page <= TEST_EVENT_PAGES; page++) {
		const { files } = await listFiles.call(this, { sortBy: 'updatedAt', sortOrder: 'DESC', page, limit: FILE_PAGE_SIZE }, { policy });
		const match = files.find((file) => isProcessed(file) && passes(file));
		if (match) {
			const extra = settings.includeValues
				? await valuesField.call(this, String(match.fileId), policy, true)
				: {};
			return [withoutSecrets([{ json: withLeadingKeys({ ...match, ...extra }) }], apiKeysOf(this))];
		}
		if (files.length < FILE_PAGE_SIZE) break;
		// A page that brings no file the pages before had not: the service ignores `page`.
		if (files.every((file) => listed.has(String(file.fileId)))) break;
		for (const file of files) listed.add(String(file.fileId));
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
