/**
 * Retry-After in every shape a service may send, in the body (`retryAfter`) and in the header,
 * and the documented pause each one asks for (docs/reliability.md, "After a 429"), written apart
 * from the code so the property tests can hold the code to it.
 */
import fc from 'fast-check';

import { WAIT_LIMITS } from '../../nodes/shared/limits';

export interface RetryAfterShape {
	/** The problem body's retryAfter (absent when undefined). */
	body?: unknown;
	/** The Retry-After header's text (absent when undefined). */
	header?: string;
}

const bodyValues: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer({ min: -10, max: 120 }),
	fc.double({ min: -5, max: 90, noNaN: true }),
	fc.constantFrom(0, 0.2, 1e9, -1e9, Number.MAX_SAFE_INTEGER),
	fc.constantFrom('2', '0.2', ' 3 ', '1e3', 'soon', '', '-4', 'Infinity', '0x10', '5s'),
	fc.constantFrom(null, true, [], {}, { seconds: 3 }, [2]),
);

const headerTexts: fc.Arbitrary<string> = fc.oneof(
	fc.integer({ min: -10, max: 120 }).map(String),
	fc.constantFrom('0', '-5', '2.5', '1e3', '1e400', 'soon', '', ' 5', '5, 6', 'Infinity', 'NaN', '0x10', '٣'),
	// HTTP dates: past, a little ahead, far ahead, and not quite dates.
	fc.integer({ min: -86_400, max: 600 }).map((seconds) => new Date(Date.now() + seconds * 1000).toUTCString()),
	fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Mon, 32 Foo 2026 99:99:99 GMT'),
	// Longer than the 100 characters read: ignored.
	fc.integer({ min: 101, max: 400 }).map((length) => '9'.repeat(length)),
	fc.string({ maxLength: 30 }),
);

export const retryAfterShapes: fc.Arbitrary<RetryAfterShape> = fc.record(
	{ body: bodyValues, header: headerTexts },
	{ requiredKeys: [] },
);

/**
 * The pause the request path must take for a 429 that asked `askedMs` (as parsed), being the
 * `count`-th 429 of its call: what was asked when usable (at least the 1 s floor), else 1 s, 2 s,
 * 4 s … up to 30 s. `gate` adds the gate's own cap (an hour).
 */
export function documentedPauseMs(askedMs: number | undefined, count: number, gate: boolean): number {
	const usable = askedMs !== undefined && Number.isFinite(askedMs) && askedMs >= WAIT_LIMITS.rateLimitFloorMs;
	const pause = usable ? Math.ceil(askedMs) : Math.min(WAIT_LIMITS.rateLimitBackoffCapMs, WAIT_LIMITS.rateLimitFloorMs * 2 ** (count - 1));
	return gate ? Math.min(pause, WAIT_LIMITS.rateGateMaxHoldMs) : pause;
}
