import { createHash } from 'crypto';

import { jsonText } from '../text';

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
		const text = jsonText(item);
		// JSON text holds no raw line feed: one between items keeps pages of different items apart.
		hash.update(`${text}\n`);
		if (first === undefined) first = text;
		else if (alike && text !== first) alike = false;
	}
	return { digest: hash.digest('hex'), alike };
}
