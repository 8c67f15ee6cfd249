import { ANSWER_LIMITS, TEXT_LIMITS } from './limits';

/**
 * Text from the service, made short and safe for a message: each function reads its input once,
 * from left to right, with no regular expression that could backtrack, and never more than a
 * bounded head of it.
 */

/** Removes trailing full stops and white space, in one pass from the end (no regular expression). */
export function trimTrailingStops(text: string): string {
	let end = text.length;
	while (end > 0) {
		const char = text.charCodeAt(end - 1);
		// '.', space, tab, line feed, carriage return, form feed, vertical tab
		if (char === 0x2e || char === 0x20 || (char >= 0x09 && char <= 0x0d)) end -= 1;
		else break;
	}
	return text.slice(0, end);
}

/** Markup removed and white space folded, in one linear pass over the text. */
function withoutMarkup(text: string): string {
	let out = '';
	let inTag = false;
	let pendingSpace = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inTag) {
			if (char === '>') {
				inTag = false;
				pendingSpace = true;
			}
			continue;
		}
		if (char === '<') {
			inTag = true;
			pendingSpace = true;
			continue;
		}
		const code = char.charCodeAt(0);
		if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0) {
			pendingSpace = true;
			continue;
		}
		if (pendingSpace && out !== '') out += ' ';
		pendingSpace = false;
		out += char;
	}
	return out;
}

/** The text between <name> and </name>, the first time it occurs (found with indexOf, not a pattern). */
function xmlElement(text: string, name: string, maxLength: number): string | undefined {
	const lower = text.toLowerCase();
	const open = lower.indexOf(`<${name.toLowerCase()}>`);
	if (open === -1) return undefined;
	const start = open + name.length + 2;
	const close = lower.indexOf(`</${name.toLowerCase()}>`, start);
	if (close === -1 || close === start || close - start > maxLength) return undefined;
	const value = text.slice(start, close);
	return value.includes('<') ? undefined : value;
}

/**
 * A short human text of a non-JSON error body (an HTML page from a proxy, a storage XML error).
 * Only the first ANSWER_LIMITS.summarisedTextBytes characters are looked at, each once.
 */
export function summarizeText(text: string): string | undefined {
	const head = text.length > ANSWER_LIMITS.summarisedTextBytes ? text.slice(0, ANSWER_LIMITS.summarisedTextBytes) : text;
	const xmlMessage = xmlElement(head, 'Message', TEXT_LIMITS.storageMessageChars);
	const xmlCode = xmlElement(head, 'Code', TEXT_LIMITS.storageCodeChars);
	if (xmlCode || xmlMessage) return [xmlCode, xmlMessage].filter(Boolean).join(': ');
	const plain = withoutMarkup(head);
	if (!plain) return undefined;
	return plain.length > TEXT_LIMITS.plainTextChars ? `${plain.slice(0, TEXT_LIMITS.plainTextChars)}…` : plain;
}

/** A size for a person: bytes, KB or MB (1024-based, as the options count). */
export function sizeText(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	const mb = bytes / (1024 * 1024);
	return mb >= 10 ? `${Math.round(mb)} MB` : `${Math.round(mb * 100) / 100} MB`;
}


/**
 * A JSON value as JSON text, built with an explicit stack (JSON.stringify recurses and throws on a
 * value nested some thousands deep), stopping once `maxChars` characters are written: the text
 * then ends with "…". Work is linear in what is written, whatever the value's depth, width or
 * string lengths (a long string is cut before it is escaped). With `maxChars` infinite it is the
 * whole text, as JSON.stringify writes it (without undefined entries of objects).
 */
export function jsonText(value: unknown, maxChars = Number.POSITIVE_INFINITY): string {
	const parts: string[] = [];
	let written = 0;
	const write = (text: string) => {
		parts.push(text);
		written += text.length;
	};
	const stack: Array<{ text: string } | { value: unknown }> = [{ value }];
	while (stack.length > 0) {
		if (written > maxChars) return `${parts.join('').slice(0, maxChars)}…`;
		const next = stack.pop() as { text: string } | { value: unknown };
		if ('text' in next) {
			write(next.text);
			continue;
		}
		const current = next.value;
		if (typeof current === 'string') {
			write(JSON.stringify(current.length > maxChars ? current.slice(0, maxChars + 1) : current));
		} else if (current === null || typeof current !== 'object') {
			write(JSON.stringify(current) ?? 'null');
		} else if (Array.isArray(current)) {
			write('[');
			stack.push({ text: ']' });
			for (let index = current.length - 1; index >= 0; index--) {
				stack.push({ value: current[index] as unknown });
				if (index > 0) stack.push({ text: ',' });
			}
		} else {
			const entries = Object.entries(current as Record<string, unknown>).filter(([, entry]) => entry !== undefined);
			write('{');
			stack.push({ text: '}' });
			for (let index = entries.length - 1; index >= 0; index--) {
				stack.push({ value: entries[index][1] });
				stack.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(entries[index][0])}:` });
			}
		}
	}
	const text = parts.join('');
	return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
