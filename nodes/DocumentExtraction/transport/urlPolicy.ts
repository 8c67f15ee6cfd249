/**
 * The policy for URLs the API hands back (presigned upload, part, preview and download URLs):
 * they get no key but carry the document, so each is judged before anything is sent to it. The
 * endpoint policy it builds on (the credential's Base URL, the address classes) lives in
 * credentials/urlPolicy.ts, shared with the credential; every decision is made on the result of
 * the WHATWG URL parser, never on a pattern over the text.
 */
import type { ApprovedBaseUrl } from '../../../credentials/urlPolicy';
import {
	UrlPolicyError,
	hasInvisibleOrControl,
	isLoopbackHostname,
	parseUrl,
} from '../../../credentials/urlPolicy';

export { UrlPolicyError };
export type { ApprovedBaseUrl };

/** What a URL handed back by the API is for, in messages. */
export type ReturnedUrlRole = 'presigned upload URL' | 'presigned part URL' | 'preview URL';

/**
 * Judges a URL that the API handed back before anything is sent to it: https (plain http only
 * to a loopback host, and only when the Base URL itself is loopback), no user info, no control
 * or invisible characters. Throws UrlPolicyError naming the scheme or host, never the URL's
 * query (its signature is a bearer secret).
 */
export function approveReturnedUrl(value: unknown, role: ReturnedUrlRole, base: ApprovedBaseUrl): string {
	if (typeof value !== 'string' || value === '') {
		throw new UrlPolicyError(`The API answered without a ${role}.`);
	}
	const refuse = (why: string) =>
		new UrlPolicyError(`The ${role} the API answered was refused: ${why}. Nothing was sent to it.`);
	if (hasInvisibleOrControl(value)) throw refuse('it contains spaces, control or invisible characters or a backslash');
	const url = parseUrl(value);
	if (!url) throw refuse('it is not a valid URL');
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw refuse(`its scheme "${url.protocol}" is not https`);
	}
	if (url.username !== '' || url.password !== '') throw refuse('it carries a user name or password');
	if (url.hostname === '') throw refuse('it has no host');
	if (url.protocol === 'http:' && !(base.isLoopback && isLoopbackHostname(url.hostname))) {
		throw refuse(
			`it uses plain http to the host "${url.hostname}" (http is accepted only to a loopback host while the Base URL is loopback too)`,
		);
	}
	return url.href;
}
