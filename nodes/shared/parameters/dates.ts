import { IANAZone } from 'luxon';

import type { ApiContext } from '../run/context';
import { given } from './text';
import { invalidParameter } from './message';

/** Date parameters, read in the workflow's time zone (luxon knows the zones' offsets). */

const ZONE_SUFFIX = /(Z|[+-]\d{2}:?\d{2})$/i;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** The date and time at the start of an ISO 8601 text, whatever follows. */
const ISO_START = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/**
 * Whether the ISO date and time a text starts with exist on the calendar (month 1-12, a day the
 * month has, 00:00:00 to 23:59:59). JavaScript's parsers roll 2026-02-30 over to 2 March and
 * 24:00 to the next day instead of refusing them. Text in another form passes (it is judged by
 * the parser).
 */
function isRealCalendarTime(text: string): boolean {
	const match = ISO_START.exec(text);
	if (!match) return true;
	const [, year, month, day, hour = '0', minute = '0', second = '0'] = match;
	const daysInMonth = new Date(Date.UTC(+year, +month, 0)).getUTCDate();
	return +month >= 1 && +month <= 12 && +day >= 1 && +day <= daysInMonth && +hour <= 23 && +minute <= 59 && +second <= 59;
}

/**
 * The instant a wall-clock time (its fields read as if UTC, in ms) names in `zone`; luxon knows the
 * zone's offsets. The offset is the zone's at the wall time read as UTC, corrected once: exact
 * outside the hour a daylight-saving change skips or repeats, and for that hour the same answer
 * whenever the code runs. (luxon's DateTime.fromObject starts from the offset in force at the
 * moment it runs, so its answer for those hours changes with the season.)
 */
function instantOfWallTime(wallMs: number, zone: IANAZone): number {
	const guess = wallMs - zone.offset(wallMs) * 60_000;
	return wallMs - zone.offset(guess) * 60_000;
}

/**
 * The instant (ms since the epoch) a date parameter names, or undefined when it names none.
 * A value with a zone (`Z`, `+02:00`) is taken as is; a wall time without one (what n8n's date
 * picker gives) is read in `timeZone` (the workflow's). Dates, epoch milliseconds and Luxon
 * DateTimes (from expressions such as `{{ $now }}`) are accepted too.
 */
export function parseDateTime(value: unknown, timeZone: string): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (value && typeof value === 'object' && typeof (value as { toMillis?: unknown }).toMillis === 'function') {
		const ms = (value as { toMillis: () => number }).toMillis();
		return Number.isFinite(ms) ? ms : undefined;
	}
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (!isRealCalendarTime(text)) return undefined;
	if (ZONE_SUFFIX.test(text)) {
		const ms = Date.parse(text);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const match = WALL_TIME.exec(text);
	if (!match) return undefined;
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = match;
	const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, +fraction.padEnd(3, '0'));
	if (Number.isNaN(wall)) return undefined;
	return instantOfWallTime(wall, IANAZone.isValidZone(timeZone) ? IANAZone.create(timeZone) : IANAZone.create('UTC'));
}

/** The furthest instant a Date holds, either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

const DATE_EXPECTED = 'a date and time such as 2026-01-31T00:00:00Z (without a zone, the workflow time zone applies)';

/** A date parameter that must be given, as the API wants it: ISO 8601 in UTC. */
export function requireTimestamp(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): string {
	const ms = parseDateTime(value, context.getTimezone());
	// Beyond ±8.64e15 ms (a number from an expression) there is no Date, hence no ISO text.
	if (ms === undefined || Math.abs(ms) > MAX_DATE_MS) throw invalidParameter(context, itemIndex, parameter, value, DATE_EXPECTED);
	return new Date(ms).toISOString();
}

/** An optional date parameter: undefined when empty, else as requireTimestamp. */
export function optionalTimestamp(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): string | undefined {
	return given(value) ? requireTimestamp(context, itemIndex, parameter, value) : undefined;
}
