import type { IDataObject } from 'n8n-workflow';

import type { TriggerSettings } from './settings';

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

function readCursor(value: unknown): Cursor | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const { at, ids, count } = value as IDataObject;
	if ((at !== null && typeof at !== 'string') || !isStringArray(ids)) return undefined;
	if (count === undefined) return { at, ids: [...ids] };
	if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < ids.length) return undefined;
	return { at, ids: [...ids], count };
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
	const { version, config, historyUntil, pending, ahead } = staticData;
	if (version !== STATE_VERSION || config !== configOf(settings)) return undefined;
	const cursor = readCursor(staticData.cursor);
	if (cursor === undefined) return undefined;
	if (historyUntil !== undefined && typeof historyUntil !== 'string') return undefined;
	if (pending !== undefined && !isStringArray(pending)) return undefined;
	const frontier = staticData.frontier === undefined ? undefined : readCursor(staticData.frontier);
	if (staticData.frontier !== undefined && frontier === undefined) return undefined;
	if (ahead !== undefined && !isStringArray(ahead)) return undefined;
	return {
		version: STATE_VERSION,
		config,
		cursor,
		...(historyUntil === undefined ? {} : { historyUntil }),
		pending: pending ? [...pending] : [],
		...(frontier === undefined ? {} : { frontier, ahead: ahead ? [...ahead] : [] }),
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
