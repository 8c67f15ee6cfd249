import { createHash, timingSafeEqual } from 'crypto';

/**
 * Whether a secret a caller sent (a callback URL's query value, anything) is `secret`: the one
 * comparison of secrets in the package. Both are hashed (SHA-256 of their UTF-8 bytes) and the
 * digests compared in constant time, so any value compares without throwing and without telling
 * its length: `timingSafeEqual` on the texts themselves throws on buffers of different byte
 * lengths, which a text of the same number of UTF-16 units but other characters has ("é" is one
 * unit and two bytes).
 */
export function sameSecret(given: unknown, secret: string): boolean {
	if (typeof given !== 'string' || secret.length === 0) return false;
	return timingSafeEqual(digestOf(given), digestOf(secret));
}

function digestOf(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}
