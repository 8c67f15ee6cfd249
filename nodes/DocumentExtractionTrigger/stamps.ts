import { TRIGGER_LIMITS } from '../shared/limits';

const { maxStampLength: MAX_STAMP_LENGTH } = TRIGGER_LIMITS;

/** A timestamp from the service: its text as the API wrote it, and its instant in ms. */
export interface Stamp {
	text: string;
	ms: number;
}

/**
 * RFC 3339 date-time (section 5.6), as the API writes `createdAt` and `updatedAt`: date, `T`,
 * time with seconds, an optional fraction of 1 to 9 digits, and `Z` or an offset. Fixed-width
 * fields and no nested quantifier: one linear pass, on text already cut to MAX_STAMP_LENGTH.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
	if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
	return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The instant of an RFC 3339 timestamp the service sent, or undefined for anything else: text
 * longer than MAX_STAMP_LENGTH characters (e.g. a date with a comment, which Date.parse accepts),
 * a date that does not exist (February 30), a second 60 (a leap second is no instant this
 * trigger can order), a zone without a colon, or no text at all. Only such a timestamp is kept in
 * the trigger's state and sent back in a query.
 */
export function parseStamp(value: unknown): Stamp | undefined {
	if (typeof value !== 'string' || value.length > MAX_STAMP_LENGTH) return undefined;
	const match = RFC_3339.exec(value);
	if (match === null) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const fraction = match[7] ?? '';
	if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	let offsetMinutes = 0;
	if (match[8] === undefined) {
		const offsetHours = Number(match[10]);
		const offsetMinutesPart = Number(match[11]);
		if (offsetHours > 23 || offsetMinutesPart > 59) return undefined;
		offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutesPart);
	}
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
	const ms = date.getTime() - offsetMinutes * 60_000;
	return Number.isFinite(ms) ? { text: value, ms } : undefined;
}

/** A stamp of n8n's clock, in the form the API writes. */
export function stampAt(ms: number): Stamp {
	return { text: new Date(ms).toISOString(), ms };
}
