import { createHash } from 'crypto';

/**
 * A page's digest and whether all its items are alike, in one pass over the page with an explicit
 * stack (JSON.stringify recurses and throws on a value nested some thousands deep). Items are JSON
 * values, as parsed from an answer.
 */
export function pageDigest(items: readonly unknown[]): { digest: string; alike: boolean } {
	const hash = createHash('sha256');
	let first: string | undefined;
	let alike = true;
	for (const item of items) {
		const text = encodeValue(item);
		// JSON text holds no raw line feed: one between items keeps pages of different items apart.
		hash.update(`${text}\n`);
		if (first === undefined) first = text;
		else if (alike && text !== first) alike = false;
	}
	return { digest: hash.digest('hex'), alike };
}

/** A JSON value as text (JSON's own syntax), built without recursion. */
function encodeValue(value: unknown): string {
	const parts: string[] = [];
	const stack: Array<{ text: string } | { value: unknown }> = [{ value }];
	while (stack.length > 0) {
		const next = stack.pop() as { text: string } | { value: unknown };
		if ('text' in next) {
			parts.push(next.text);
			continue;
		}
		const current = next.value;
		if (current === null || typeof current !== 'object') {
			parts.push(JSON.stringify(current) ?? 'null');
		} else if (Array.isArray(current)) {
			parts.push('[');
			stack.push({ text: ']' });
			for (let index = current.length - 1; index >= 0; index--) {
				stack.push({ value: current[index] as unknown });
				if (index > 0) stack.push({ text: ',' });
			}
		} else {
			const entries = Object.entries(current as Record<string, unknown>);
			parts.push('{');
			stack.push({ text: '}' });
			for (let index = entries.length - 1; index >= 0; index--) {
				stack.push({ value: entries[index][1] });
				stack.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(entries[index][0])}:` });
			}
		}
	}
	return parts.join('');
}
