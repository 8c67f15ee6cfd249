import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the workflow's static data: the keys of the callbacks it handled
 * (`u:<uploadId>` for an upload's outcome, `s:<uploadId>:<step>` for a step), oldest first, at
 * most History Size of them (about 41 bytes each). n8n reads it when a call starts and saves it
 * after the call returns, before the execution starts; it carries the keys across restarts and
 * to other n8n processes (queue mode), sequentially. Concurrent calls each read it before the
 * others save, and the last save wins: the memory of the process (memory.ts) covers that, and each
 * save writes what this process remembers too.
 */
export const HISTORY_VERSION = 1;

/** The longest key: "s:" + a UUID + ":" + a step name. */
const MAX_KEY_LENGTH = 2 + 36 + 1 + 64;

/** The keys kept, oldest first; none when the static data is not ours (then it is started afresh). */
export function readHistory(staticData: IDataObject): string[] {
	const { version, handled } = staticData;
	if (version !== HISTORY_VERSION || !Array.isArray(handled)) return [];
	return handled.filter((key): key is string => typeof key === 'string' && key.length <= MAX_KEY_LENGTH);
}

/**
 * Writes the keys handled: those read at the start of this call, then those this process
 * remembers (a key met again moves to the end), the newest `limit` kept.
 */
export function writeHistory(staticData: IDataObject, read: string[], remembered: string[], limit: number): void {
	const keys = new Set<string>();
	for (const key of [...read, ...remembered]) {
		keys.delete(key);
		keys.add(key);
	}
	const handled = [...keys].slice(Math.max(0, keys.size - limit));
	for (const key of Object.keys(staticData)) delete staticData[key];
	staticData.version = HISTORY_VERSION;
	staticData.handled = handled;
}
