/**
 * The package's one way to keep a bounded memory in a process (callback scopes, remembered answers,
 * handled keys, waiting executions, reviews sent, rate gates): a Map in the order of last use,
 * where `touch` moves an entry to the newest end and `dropOldest` trims from the oldest end. Each
 * insertion is followed by a trim, so a map holds at most its bound (plus the entries `canDrop`
 * spares: work in flight, which has bounds of its own) and one call drops at most what it added,
 * unless the bound was lowered.
 */

/** Sets `key` to `value` as the most recently used entry. */
export function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
	map.delete(key);
	map.set(key, value);
}

/** Drops the oldest entries that `canDrop` allows until at most `max` are left. */
export function dropOldest<K, V>(map: Map<K, V>, max: number, canDrop: (value: V) => boolean = () => true): void {
	if (map.size <= max) return;
	for (const [key, value] of map) {
		if (map.size <= max) return;
		if (canDrop(value)) map.delete(key);
	}
}
