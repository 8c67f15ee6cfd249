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

/** Offset (ms) of `timeZone` from UTC at the instant `utcMs`. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wall - Math.floor(utcMs / 1000) * 1000;
}

function knownZone(timeZone: string): string {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return timeZone;
	} catch {
		return 'UTC';
	}
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
	const zone = knownZone(timeZone);
	const guess = wall - zoneOffsetMs(wall, zone);
	return wall - zoneOffsetMs(guess, zone);
}
