/**
 * shown(): the one way a value appears in a message (credentials/shown.ts, re-exported by
 * nodes/shared/parameters). Invariants, over generated hostile text with a fixed seed: the result
 * is bounded, holds no control or invisible character, never holds any part of a secret it was
 * given, and is the value itself (quoted) when the value is short and printable.
 */
import { REDACTED, SHOWN_LENGTH, printable, shown } from '../../credentials/shown';
import { numberExpected } from '../../nodes/shared/parameters';

/** Control, format (bidi, zero-width), separators and surrogates: never raw in a message. */
const RAW_INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/u;

/** Code points a hostile value is built from: printable, control, bidi, zero-width, emoji, lone surrogates. */
const ALPHABET = ['a', 'Z', '0', ' ', '"', '\\', '…', 'é', '😀', '\n', '\r', '\t', '\u0000', '\u001B', '\u007F', '\u0085', '\u00A0', '\u00AD', '\u200B', '\u200E', '\u202E', '\u2028', '\u2066', '\uFEFF', '\uD800', '\uDC00', '\u{E0041}'];

/** xorshift32 from a fixed seed: the same run every time. */
function generator(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		return state;
	};
}

function hostileText(next: () => number, maxLength: number): string {
	const length = next() % maxLength;
	let text = '';
	for (let index = 0; index < length; index++) text += ALPHABET[next() % ALPHABET.length];
	return text;
}

describe('shown()', () => {
	it('quotes a short printable value as it is, and shows undefined as nothing', () => {
		expect(shown('invoice.pdf')).toBe('"invoice.pdf"');
		expect(shown('C:\\docs\\"a"')).toBe('"C:\\docs\\"a""');
		expect(shown(undefined)).toBe('nothing');
		expect(shown(null)).toBe('"null"');
		expect(shown(0)).toBe('"0"');
		expect(shown(['a', 1])).toBe('"["a",1]"');
		expect(shown({ id: 'x' })).toBe('"{"id":"x"}"');
	});

	it('escapes control and invisible characters instead of printing them', () => {
		expect(shown('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
		expect(shown('\u0000\u001B\u007F\u0085')).toBe('"\\u0000\\u001B\\u007F\\u0085"');
		expect(shown('pay\u202Efdp.exe')).toBe('"pay\\u202Efdp.exe"');
		expect(shown('\u200B\u00A0\u2028\uFEFF')).toBe('"\\u200B\\u00A0\\u2028\\uFEFF"');
		expect(shown('\uD800x')).toBe('"\\uD800x"');
		expect(shown('\u{E0041}')).toBe('"\\u{E0041}"');
		expect(shown('😀 é')).toBe('"😀 é"');
	});

	it('cuts at 80 characters, never inside an escape or an emoji', () => {
		expect(shown('x'.repeat(80))).toBe(`"${'x'.repeat(80)}"`);
		expect(shown('x'.repeat(81))).toBe(`"${'x'.repeat(80)}…"`);
		expect(shown(`${'x'.repeat(79)}😀`)).toBe(`"${'x'.repeat(79)}…"`);
		expect(shown(`${'x'.repeat(76)}\u200B`)).toBe(`"${'x'.repeat(76)}…"`);
		expect(printable('abcdef', 3)).toBe('abc…');
	});

	it('stops reading after the characters it shows, however long the value', () => {
		const huge = 'y'.repeat(10_000_000);
		expect(shown(huge)).toBe(`"${'y'.repeat(SHOWN_LENGTH)}…"`);
	});

	it('hides every secret it is given, as it is, URL-encoded or JSON-escaped, before cutting', () => {
		const key = 'sk_live "42"/+&é';
		expect(shown(`https://h/?k=${key}`, [key])).toBe(`"https://h/?k=${REDACTED}"`);
		expect(shown(`https://h/?k=${encodeURIComponent(key)}`, [key])).toBe(`"https://h/?k=${REDACTED}"`);
		expect(shown({ apiKey: key }, [key])).toBe(`"{"apiKey":"${REDACTED}"}"`);
		const cutThroughTheKey = `${'a'.repeat(75)}${key}`;
		expect(shown(cutThroughTheKey, [key])).toBe(`"${'a'.repeat(75)}[reda…"`);
	});

	it('over 20,000 generated hostile values: bounded, nothing raw, no part of a secret, short printable values as they are', () => {
		const next = generator(30);
		const counterexamples: Array<{ value: string; secret: string; result: string; broken: string }> = [];
		for (let run = 0; run < 20_000; run++) {
			const secret = `KEY${next().toString(36)}${hostileText(next, 6)}`;
			const before = hostileText(next, 120);
			const after = hostileText(next, 40);
			const value = run % 3 === 0 ? `${before}${secret}${after}` : before;

			const result = shown(value, [secret]);

			const broken = [
				!result.startsWith('"') && 'not quoted',
				result.length > SHOWN_LENGTH + 3 && 'too long',
				RAW_INVISIBLE.test(result) && 'raw invisible character',
				// Only a secret starts with "KEY" (the alphabet has no K, E or Y): no piece of its start shows.
				result.includes('KEY') && 'part of the secret',
				!RAW_INVISIBLE.test(value) && !value.includes(secret) && value.length <= SHOWN_LENGTH && result !== `"${value}"` && 'not the value as it is',
			].filter(Boolean);
			if (broken.length > 0) counterexamples.push({ value, secret, result, broken: broken.join(', ') });
		}
		expect(counterexamples.slice(0, 5)).toEqual([]);
	});
});

describe('numberExpected(): a range in words', () => {
	it('says every range of the request options as the request path says it', () => {
		expect(numberExpected({ min: 0, max: 3600 }, 'seconds')).toBe('a number of seconds from 0 to 3600');
		expect(numberExpected({ min: 1 }, 'seconds')).toBe('a number of seconds, 1 or more');
		expect(numberExpected({ min: 0.1 }, 'KB/s')).toBe('a number of KB/s, 0.1 or more');
		expect(numberExpected({ min: 1, integer: true })).toBe('a whole number of 1 or more');
	});
});
