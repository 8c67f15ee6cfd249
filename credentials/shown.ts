/**
 * How the package shows a value in a message, without the secrets it is given: the one way for
 * every layer (the credential's URL policy here; through nodes/shared/parameters, the parameter
 * checks of both nodes; the API layer's check of the IDs the service answers). It lives in
 * credentials/ because the credential needs it and credentials/ imports nothing from nodes/;
 * nodes/ may import from credentials/.
 */

/** The most characters of a value a message shows; "…" marks that more followed. */
export const SHOWN_LENGTH = 80;

/** What stands in a message where a secret was. */
export const REDACTED = '[redacted]';

/** Characters a message shows escaped: control, format (invisible, bidi), separators, lone surrogates. */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}]$/u;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character as a message shows it: itself, or an escape such as \n or \u200B. */
function escaped(char: string): string {
	if (char === ' ' || !INVISIBLE.test(char)) return char;
	const named = NAMED_ESCAPES[char];
	if (named) return named;
	const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase();
	return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/** The value as text: a string as it is, anything else as JSON (a Date or luxon DateTime as its ISO text). */
function asText(value: unknown): string | undefined {
	if (value === undefined || typeof value === 'string') return value;
	try {
		const json = JSON.stringify(value);
		if (json !== undefined) return json;
	} catch {
		// a circular object or a BigInt: shown by its kind below
	}
	return typeof value === 'bigint' ? String(value) : `(a ${typeof value})`;
}

/** The forms in which a secret can stand in a text: as it is, JSON-escaped, URL-encoded (longest first). */
export function secretForms(secret: string): string[] {
	const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
	try {
		forms.add(encodeURIComponent(secret));
	} catch {
		// a lone surrogate cannot be URL-encoded, so it cannot stand there encoded either
	}
	return [...forms].filter((form) => form !== '').sort((left, right) => right.length - left.length);
}

/** Every form of every secret, longest first (a longer form may hold a shorter one). */
export function formsOfSecrets(secrets: Iterable<string>): string[] {
	const forms = new Set<string>();
	for (const secret of secrets) {
		if (secret) for (const form of secretForms(secret)) forms.add(form);
	}
	return [...forms].sort((left, right) => right.length - left.length);
}

/**
 * `text` with every one of `forms` (formsOfSecrets) replaced by [redacted]. A secret that overlaps
 * the marker could form again around it ("x[re" + "[redacted]"...): then the whole text is the
 * marker, or nothing when the marker itself holds a secret. No form is left, whatever the secret.
 */
export function redactForms(text: string, forms: readonly string[]): string {
	let result = text;
	for (const form of forms) {
		if (result.includes(form)) result = result.split(form).join(REDACTED);
	}
	if (result === text || !forms.some((form) => result.includes(form))) return result;
	return forms.some((form) => REDACTED.includes(form)) ? '' : REDACTED;
}

/** Every occurrence of every secret (in each of its forms) replaced by [redacted]: the one redaction of a text. */
export function redact(text: string, secrets: Iterable<string> = []): string {
	const forms = formsOfSecrets(secrets);
	return forms.length === 0 ? text : redactForms(text, forms);
}

/**
 * A text for a message, without quotes: at most `maxLength` characters (then "…"), control and
 * invisible characters escaped (a line break as \n, a zero-width space as \u200B). Reads the
 * text once and stops after `maxLength` characters, however long it is.
 */
export function printable(text: string, maxLength = SHOWN_LENGTH): string {
	let out = '';
	for (const char of text) {
		const piece = escaped(char);
		if (out.length + piece.length > maxLength) return `${out}…`;
		out += piece;
	}
	return out;
}

/**
 * A value for a message: in quotes, printable (bounded, control and invisible characters
 * escaped), each of `secrets` (the API key where the caller holds it) replaced by [redacted]
 * before it is cut; `nothing` for undefined.
 */
export function shown(value: unknown, secrets: Iterable<string> = []): string {
	const text = asText(value);
	// Redacted before it is cut, so no part of a secret shows.
	return text === undefined ? 'nothing' : `"${printable(redact(text, secrets))}"`;
}
