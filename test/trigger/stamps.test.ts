/**
 * The only timestamps the trigger keeps and sends back: RFC 3339 date-time text of at most
 * TRIGGER_LIMITS.maxStampLength characters, read by a strict, linear parser (issue 34, findings 4
 * and 6). Date.parse accepts far more (a date with a comment, a local time, "2024-01-01 00:00").
 */
import { parseStamp } from '../../nodes/DocumentExtractionTrigger/stamps';

describe('parseStamp', () => {
	it.each([
		['2024-01-01T00:00:00Z', Date.UTC(2024, 0, 1)],
		['2024-01-01T00:00:00.000Z', Date.UTC(2024, 0, 1)],
		['2024-02-29T23:59:59.999Z', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
		['2024-01-01T00:00:00.123456789+05:30', Date.UTC(2023, 11, 31, 18, 30, 0, 123)],
		['2024-01-01t01:00:00-01:00', Date.UTC(2024, 0, 1, 2)],
		['0001-01-01T00:00:00Z', Date.parse('0001-01-01T00:00:00Z')],
		['9999-12-31T23:59:59Z', Date.UTC(9999, 11, 31, 23, 59, 59)],
	])('reads %s', (text, ms) => {
		expect(parseStamp(text)).toEqual({ text, ms });
	});

	it.each([
		'2024-01-01T00:00:60Z',
		'2024-02-30T00:00:00Z',
		'2023-02-29T00:00:00Z',
		'2024-13-01T00:00:00Z',
		'2024-01-01T24:00:00Z',
		'2024-01-01T00:00:00',
		'2024-01-01 00:00:00Z',
		'2024-01-01T00:00Z',
		'2024-01-01T00:00:00+0530',
		'2024-01-01T00:00:00+24:00',
		'2024-01-01T00:00:00.Z',
		'2024-01-01T00:00:00.1234567890Z',
		'0000-01-01T00:00:00Z',
		' 2024-01-01T00:00:00Z',
		'2024-01-01T00:00:00Z (comment)',
		`2024-01-01 00:00:00 (${'c'.repeat(1_000_000)})`,
		'Mon, 01 Jan 2024 00:00:00 GMT',
		'',
	])('refuses %j', (text) => {
		expect(parseStamp(text)).toBeUndefined();
	});

	it('refuses what is not text', () => {
		for (const value of [undefined, null, 1704067200000, {}, ['2024-01-01T00:00:00Z']]) expect(parseStamp(value)).toBeUndefined();
	});
});
