import type { IDataObject } from 'n8n-workflow';

import { isId } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import type { TriggerSettings } from './settings';
import { parseStamp } from './stamps';

const { maxTieIds: MAX_TIE_IDS, maxPending: MAX_PENDING, maxAhead: MAX_AHEAD, maxEarly: MAX_EARLY, maxUnplaced: MAX_UNPLACED } =
	TRIGGER_LIMITS;

/**
 * What the trigger keeps between polls, in the workflow's static data (never in module state:
 * in queue mode any instance may run the next poll).
 *
 * - `cursor`: a keyset position in a stream of files ordered by one timestamp (createdAt for
 *   File Processed, updatedAt for File Updated): every file whose timestamp is before `cursor.at`,
 *   or equal to it and listed in `cursor.ids`, has been handled. `at` is the API's own string
 *   (server time); null means "from the first file". When more files share `at` than the ids
 *   kept (position.ts), `count` says how many of them, in the API's order, were handled.
 * - `historyUntil`: Start From "Now" only. Files at or before this server timestamp existed
 *   when the trigger was activated: they are walked over, never emitted.
 * - `pending`: File Processed only. Ids of files the trigger passed while they were still being
 *   processed; each poll asks for them again and emits those that have finished.
 * - `frontier` and `ahead`: File Processed only, while `pending` is full. The cursor waits in
 *   front of the first file in flight that found no room; the walk goes on from `frontier` and
 *   emits the processed files it finds there, keeping their ids in `ahead` so that the cursor
 *   passes over them when it comes that far.
 * - `early`: files the trigger handled (emitted, or passed as history at activation) while they
 *   were dated after n8n's clock minus TRIGGER_LIMITS.cursorLagMs, which the cursor never passes:
 *   `[id, timestamp]` pairs, dropped once the cursor passes them.
 * - `unplaced`: ids of files listed with a timestamp that is not RFC 3339 text, each reported
 *   (emitted, or remembered as in flight or as history) once; the oldest forgotten beyond
 *   TRIGGER_LIMITS.maxUnplaced.
 *
 * Every id kept is a file id of the API (a UUID) and every timestamp short RFC 3339 text
 * (stamps.ts), each list bounded in count (TRIGGER_LIMITS): the static data is bounded in bytes,
 * whatever the service sends (TRIGGER_LIMITS.maxStaticDataBytes), and nothing else goes back into
 * a query.
 */
export interface Cursor {
	at: string | null;
	ids: string[];
	count?: number;
}

export interface TriggerState {
	version: typeof STATE_VERSION;
	/** The parameters the cursor was built for; another value starts the trigger afresh. */
	config: string;
	cursor: Cursor;
	historyUntil?: string;
	pending: string[];
	frontier?: Cursor;
	ahead?: string[];
	early?: Array<[id: string, at: string]>;
	unplaced?: string[];
}

export const STATE_VERSION = 1 as const;

/** Fingerprint of the parameters that decide where the trigger starts and what it follows. */
export function configOf(settings: TriggerSettings): string {
	const start = settings.startFrom === 'date' ? `date:${settings.startDate}` : 'now';
	return `${settings.event}|${start}`;
}

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

/** The file ids of a stored list, at most `max` (the last ones): anything that is not a file id is dropped. */
function fileIds(list: string[], max: number): string[] {
	return list.filter((id) => isId(id, 'uuid')).slice(-max);
}

function isStamp(value: unknown): value is string {
	return parseStamp(value) !== undefined;
}

function readCursor(value: unknown): Cursor | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const { at, ids, count } = value as IDataObject;
	if ((at !== null && !isStamp(at)) || !isStringArray(ids)) return undefined;
	const kept = fileIds(ids, MAX_TIE_IDS);
	if (count === undefined) return { at, ids: kept };
	if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < ids.length) return undefined;
	return { at, ids: kept, count };
}

function readEarly(value: unknown): Array<[string, string]> | undefined {
	if (!Array.isArray(value)) return undefined;
	const pairs = value.filter(
		(entry): entry is [string, string] => Array.isArray(entry) && entry.length === 2 && isId(entry[0], 'uuid') && isStamp(entry[1]),
	);
	return pairs.slice(-MAX_EARLY);
}

function copyCursor(cursor: Cursor): IDataObject {
	const data: IDataObject = { at: cursor.at, ids: [...cursor.ids] };
	if (cursor.count !== undefined) data.count = cursor.count;
	return data;
}

/**
 * The stored state, or undefined when there is none yet, it is unreadable, or it was built for
 * other parameters (another event or start point): the trigger then initialises again.
 */
export function readState(staticData: IDataObject, settings: TriggerSettings): TriggerState | undefined {
	const { version, config, historyUntil, pending, ahead, unplaced } = staticData;
	if (version !== STATE_VERSION || config !== configOf(settings)) return undefined;
	const cursor = readCursor(staticData.cursor);
	if (cursor === undefined) return undefined;
	if (historyUntil !== undefined && !isStamp(historyUntil)) return undefined;
	if (pending !== undefined && !isStringArray(pending)) return undefined;
	const frontier = staticData.frontier === undefined ? undefined : readCursor(staticData.frontier);
	if (staticData.frontier !== undefined && frontier === undefined) return undefined;
	if (ahead !== undefined && !isStringArray(ahead)) return undefined;
	const early = staticData.early === undefined ? undefined : readEarly(staticData.early);
	if (staticData.early !== undefined && early === undefined) return undefined;
	if (unplaced !== undefined && !isStringArray(unplaced)) return undefined;
	return {
		version: STATE_VERSION,
		config,
		cursor,
		...(historyUntil === undefined ? {} : { historyUntil }),
		pending: pending ? fileIds(pending, MAX_PENDING) : [],
		...(frontier === undefined ? {} : { frontier, ahead: ahead ? fileIds(ahead, MAX_AHEAD) : [] }),
		...(early === undefined || early.length === 0 ? {} : { early }),
		...(unplaced === undefined || unplaced.length === 0 ? {} : { unplaced: fileIds(unplaced, MAX_UNPLACED) }),
	};
}

function serialise(state: TriggerState): IDataObject {
	const data: IDataObject = {
		version: state.version,
		config: state.config,
		cursor: copyCursor(state.cursor),
		pending: [...state.pending],
	};
	if (state.historyUntil !== undefined) data.historyUntil = state.historyUntil;
	if (state.frontier !== undefined) {
		data.frontier = copyCursor(state.frontier);
		data.ahead = [...(state.ahead ?? [])];
	}
	if (state.early !== undefined && state.early.length > 0) data.early = state.early.map(([id, at]) => [id, at]);
	if (state.unplaced !== undefined && state.unplaced.length > 0) data.unplaced = [...state.unplaced];
	return data;
}

/** Replaces the node's static data with `state`; leaves it untouched when nothing changed. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const next = serialise(state);
	const current: IDataObject = {};
	for (const key of Object.keys(staticData)) current[key] = staticData[key];
	if (JSON.stringify(current) === JSON.stringify(next)) return;
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, next);
}
