import { hasInvisibleOrControl, parseUrl } from '../../../credentials/urlPolicy';
import type { ApiContext } from '../run/context';
import { textOf } from './text';
import { invalidParameter } from './message';

/** Longest Callback URL accepted: what servers and proxies commonly accept in a request line. */
const MAX_URL_LENGTH = 2048;

/**
 * A URL the service will call (Callback URL): https with a host, no user name or password, no
 * spaces, control or invisible characters or backslashes (which the URL parser would silently
 * drop or turn into "/"), at most 2,048 characters. Judged on the parsed URL, with the same
 * character rule as the credential's Base URL (credentials/urlPolicy.ts).
 */
export function requireHttpsUrl(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): string {
	const text = textOf(context, itemIndex, parameter, value, 'an https:// URL');
	const refuse = (expected: string) => invalidParameter(context, itemIndex, parameter, value, expected);
	if (text.length > MAX_URL_LENGTH) throw refuse(`an https:// URL of at most ${MAX_URL_LENGTH} characters`);
	if (hasInvisibleOrControl(text)) {
		throw refuse('an https:// URL without spaces, control or invisible characters or backslashes');
	}
	const url = parseUrl(text);
	if (!url || url.protocol !== 'https:' || !url.hostname) throw refuse('an https:// URL');
	if (url.username !== '' || url.password !== '') {
		throw refuse('an https:// URL without a user name or password (user:password@)');
	}
	return text;
}
