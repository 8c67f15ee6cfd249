/**
 * The package's one bounded memory (nodes/shared/recentlyUsed.ts), used by the callback scopes,
 * remembered answers, handled keys, waiting executions, reviews sent and rate gates. Invariants
 * over generated sequences of uses (fixed seed):
 * - bounded: after each use and trim, at most `max` entries (plus those `canDrop` spares);
 * - most recently used kept: the entries left are the last `max` distinct keys used, in the order
 *   of their last use, with their last values;
 * - spared entries stay: an entry `canDrop` refuses is never dropped.
 */
import * as fc from 'fast-check';

import { dropOldest, touch } from '../../nodes/shared/recentlyUsed';

const uses = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer()), { maxLength: 300 });

test('bounded, and what is left is the most recently used, in order, with the last values', () => {
	fc.assert(
		fc.property(uses, fc.integer({ min: 0, max: 12 }), (sequence, max) => {
			const map = new Map<number, number>();
			for (const [key, value] of sequence) {
				touch(map, key, value);
				dropOldest(map, max);
				expect(map.size).toBeLessThanOrEqual(max);
			}
			const lastUse = new Map<number, number>();
			sequence.forEach(([key, value]) => {
				lastUse.delete(key);
				lastUse.set(key, value);
			});
			const expected = [...lastUse].slice(Math.max(0, lastUse.size - max));
			expect([...map]).toEqual(expected);
		}),
		{ seed: 41, numRuns: 300 },
	);
});

test('an entry canDrop spares is never dropped; the others go oldest first', () => {
	fc.assert(
		fc.property(uses, fc.integer({ min: 0, max: 8 }), (sequence, max) => {
			const map = new Map<number, number>();
			const spared = (value: number) => value % 5 === 0;
			for (const [key, value] of sequence) {
				const before = [...map].filter(([, kept]) => spared(kept)).map(([k]) => k);
				touch(map, key, value);
				dropOldest(map, max, (kept) => !spared(kept));
				for (const k of before) if (k !== key) expect(map.has(k)).toBe(true);
				const droppable = [...map].filter(([, kept]) => !spared(kept)).length;
				// Over the bound only by spared entries.
				if (map.size > max) expect(droppable).toBe(0);
			}
		}),
		{ seed: 42, numRuns: 300 },
	);
});

test('a lowered bound trims in one call; an empty map and a zero bound are fine', () => {
	const map = new Map([1, 2, 3, 4, 5].map((key) => [key, key]));
	dropOldest(map, 2);
	expect([...map.keys()]).toEqual([4, 5]);
	dropOldest(map, 0);
	expect(map.size).toBe(0);
	dropOldest(new Map(), 3);
});
