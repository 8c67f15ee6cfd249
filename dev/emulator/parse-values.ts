/** Typed values out of the text of a field: numbers, dates and booleans in the forms documents print them. */

const CURRENCY_SYMBOLS = /[$€£¥₹₩₽¢₺₫฿₱]/g;

/** "1,234.50", "$12", "USD 1.234,50", "(12.00)", "-3", "12%" -> numbers; anything else null. */
export function parseNumber(raw: string): number | null {
	let text = raw.trim().replace(/[\u2212\u2012\u2013]/g, '-');
	let negative = false;
	if (/^\(.*\)$/.test(text)) {
		negative = true;
		text = text.slice(1, -1).trim();
	}
	text = text
		.replace(/^[A-Z]{3}(?=[\s\d$€£¥₹₩₽¢₺₫฿₱])/, '')
		.replace(/(?<=[\d\s])[A-Z]{3}$/, '')
		.replace(/^[A-Z]{1,2}(?=\$)/, '')
		.replace(CURRENCY_SYMBOLS, '')
		.trim();
	if (text.startsWith('-') || text.startsWith('+')) {
		negative = negative !== text.startsWith('-');
		text = text.slice(1).trim();
	}
	if (text.endsWith('-')) {
		negative = !negative;
		text = text.slice(0, -1).trim();
	}
	if (text.endsWith('%')) text = text.slice(0, -1).trim();
	text = text.replace(/[\s'\u00a0\u202f]/g, '');
	if (!/^\d[\d.,]*$/.test(text) && !/^[.,]\d+$/.test(text)) return null;

	const lastComma = text.lastIndexOf(',');
	const lastDot = text.lastIndexOf('.');
	if (lastComma >= 0 && lastDot >= 0) {
		const decimal = lastComma > lastDot ? ',' : '.';
		const grouping = decimal === ',' ? '.' : ',';
		const [whole, fraction, ...rest] = text.split(decimal);
		if (rest.length > 0 || !isGrouped(whole, grouping)) return null;
		text = whole.split(grouping).join('') + '.' + fraction;
	} else if (lastComma >= 0) {
		if (isGrouped(text, ',')) text = text.split(',').join('');
		else if (text.split(',').length === 2) text = text.replace(',', '.');
		else return null;
	} else if (text.split('.').length > 2) {
		if (!isGrouped(text, '.')) return null;
		text = text.split('.').join('');
	}
	const value = Number(text);
	if (!Number.isFinite(value)) return null;
	return negative ? -value : value;
}

function isGrouped(whole: string, separator: string): boolean {
	if (!whole.includes(separator)) return /^\d*$/.test(whole);
	const groups = whole.split(separator);
	return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}

const MONTHS: Record<string, number> = {
	jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
	jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
	nov: 11, november: 11, dec: 12, december: 12,
};
const WEEKDAY_PREFIX = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+/i;

/**
 * A date in a common form -> `YYYY-MM-DD`, or null. Numeric day/month order: a part above 12
 * decides; otherwise day first, unless the field's format puts the month first (MM/DD/YYYY).
 */
export function parseDate(raw: string, format: string | null = null): string | null {
	const text = raw.trim().replace(WEEKDAY_PREFIX, '');
	let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\S*)?$/.exec(text) ?? /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
	if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));

	match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$/.exec(text);
	if (match) {
		const first = Number(match[1]);
		const second = Number(match[2]);
		const year = fullYear(match[3]);
		const monthFirstFormat = format !== null && /m/i.test(format) && /d/i.test(format) && format.search(/m/i) < format.search(/d/i);
		if (first > 12) return isoDate(year, second, first);
		if (second > 12) return isoDate(year, first, second);
		return monthFirstFormat ? isoDate(year, first, second) : isoDate(year, second, first);
	}

	match = /^(\d{1,2})(?:st|nd|rd|th)?[\s./-]+([a-z]+)\.?,?[\s./-]+(\d{4}|\d{2})$/i.exec(text);
	if (match && MONTHS[match[2].toLowerCase()]) return isoDate(fullYear(match[3]), MONTHS[match[2].toLowerCase()], Number(match[1]));

	match = /^([a-z]+)\.?[\s./-]+(\d{1,2})(?:st|nd|rd|th)?,?[\s./-]+(\d{4}|\d{2})$/i.exec(text);
	if (match && MONTHS[match[1].toLowerCase()]) return isoDate(fullYear(match[3]), MONTHS[match[1].toLowerCase()], Number(match[2]));
	return null;
}

function fullYear(digits: string): number {
	const year = Number(digits);
	if (digits.length === 4) return year;
	return year < 70 ? 2000 + year : 1900 + year;
}

function isoDate(year: number, month: number, day: number): string | null {
	if (month < 1 || month > 12 || day < 1) return null;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day > daysInMonth) return null;
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', 't', '1', 'paid', 'on', 'checked', 'x', '✓', '✔']);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'f', '0', 'unpaid', 'not paid', 'off', 'unchecked']);

export function parseBoolean(raw: string): boolean | null {
	const word = raw.trim().toLowerCase().replace(/[.!]+$/, '');
	if (TRUE_WORDS.has(word)) return true;
	if (FALSE_WORDS.has(word)) return false;
	return null;
}
