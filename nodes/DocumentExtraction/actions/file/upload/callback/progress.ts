import type { UploadProgress } from '../../../../../shared/uploadStatus';
import { CALLBACK_WAIT_LIMITS } from '../../../../../shared/limits';
import { dropOldest, touch } from '../../../../../shared/recentlyUsed';
import type { WaitItem } from './state';

/**
 * What one n8n process knows of an execution that waits for callbacks: which uploads the API has
 * confirmed as finished (with the status it answered), the checks under way, and whether this
 * process resumed it. In memory only, because nothing a webhook() call writes into n8n is saved
 * unless it resumes the execution (docs/dev/callback-wait.md); a process that meets a waiting
 * execution without this record (after a restart, another webhook process, or when it was
 * forgotten) looks at every unconfirmed upload once. Bounded: at most
 * CALLBACK_WAIT_LIMITS.maxTrackedExecutions executions, the least recently used forgotten first.
 */

/** What a check of one upload said. */
export type Verdict = 'finished' | 'unfinished' | 'unavailable';

export interface WaitProgress {
	/** Set at once, before anything is awaited, by the call that resumes: no other call of this process resumes. */
	resumed: boolean;
	/** Items whose processing the API confirmed as ended, with that answer (undefined: ended before the wait, read again for the results). */
	finished: Map<number, UploadProgress | undefined>;
	/** When a check last found the item unfinished, or could not ask (callbacks within CALLBACK_WAIT_LIMITS.verifySpacingMs are not checked again). */
	unfinishedAt: Map<number, number>;
	/** When this process last asked the API for an item, for whatever reason. */
	askedAt: Map<number, number>;
	/** Checks under way, one per item: a concurrent callback for the same item waits for it instead of asking again. */
	checking: Map<number, Promise<Verdict>>;
	/** The first look at the execution (every unconfirmed upload), shared by the callbacks that arrive meanwhile. */
	firstLook?: Promise<void>;
	/** Whether the first look has ended (a callback after it does not take its answers as its own). */
	firstLookDone: boolean;
	/** What the first look found for each upload it asked for: a callback that waited for it uses its item's answer. */
	firstVerdicts: Map<number, Verdict>;
	/** Every item's record of the wait, read once. */
	items?: WaitItem[];
}

const tracked = new Map<string, WaitProgress>();

function fresh(): WaitProgress {
	return { resumed: false, finished: new Map(), unfinishedAt: new Map(), askedAt: new Map(), checking: new Map(), firstLookDone: false, firstVerdicts: new Map() };
}

/** The record of a waiting execution, created when missing (`created` tells), marked as most recently used. */
export function progressOf(key: string): { progress: WaitProgress; created: boolean } {
	const known = tracked.get(key);
	const progress = known ?? fresh();
	touch(tracked, key, progress);
	dropOldest(tracked, CALLBACK_WAIT_LIMITS.maxTrackedExecutions);
	return { progress, created: known === undefined };
}

/** Whether this process already resumed the execution (then only a marker is kept). */
export function resumedHere(key: string): boolean {
	return tracked.get(key)?.resumed === true;
}

/** After the resume: the uploads' answers are dropped, the marker stays (a late duplicate is answered, not resumed again). */
export function forgetAfterResume(key: string): void {
	const marker = fresh();
	marker.resumed = true;
	tracked.set(key, marker);
}
