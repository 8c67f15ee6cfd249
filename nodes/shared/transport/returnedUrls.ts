/**
 * The policy for URLs the API hands back (presigned upload, part, preview and download URLs):
 * they get no key but carry the document, so each is judged before anything is sent to it. The
 * endpoint policy it builds on (the credential's Base URL, the address classes) lives in
 * credentials/urlPolicy.ts, shared with the credential; every decision is made on the result of
 * the WHATWG URL parser, never on a pattern over the text.
 */
import { internalHostReason, isLoopbackHostname } from '../../../credentials/hostKinds';
import type { ApprovedBaseUrl } from '../../../credentials/urlPolicy';
import { UrlPolicyError, hasInvisibleOrControl, parseUrl } from '../../../credentials/urlPolicy';

export { UrlPolicyError };
export type { ApprovedBaseUrl };

/** What a URL handed back by the API is for, in messages. */
export type ReturnedUrlRole = 'presigned upload URL' | 'presigned part URL' | 'preview URL';

/**
 * Whether a returned URL's host, which lies inside the network, is still acceptable: a loopback
 * host while the credential's Base URL is loopback too (a local emulator), or the very host of
 * the Base URL (the credential's owner chose it for the API key itself).
 */
function isInsideHostAllowed(hostname: string, base: ApprovedBaseUrl): boolean {
	if (base.isLoopback && isLoopbackHostname(hostname)) return true;
	return parseUrl(base.origin)?.hostname === hostname;
}

/**
 * Judges a URL that the API handed back before anything is sent to it: https (plain http only
 * to a loopback host, and only when the Base URL itself is loopback), no user info, no control
 * or invisible characters, and no host inside the user's network (loopback, private, link-local,
 * unique-local, unspecified and reserved addresses in any form the parser gives them, and
 * localhost, .internal, .local and single-label names), except as isInsideHostAllowed says.
 * Throws UrlPolicyError naming the scheme or host, never the URL's query (its signature is a
 * bearer secret).
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
	const inside = internalHostReason(url.hostname);
	if (inside !== undefined && !isInsideHostAllowed(url.hostname, base)) {
		const loopbackNote = isLoopbackHostname(url.hostname)
			? " (a loopback host is accepted only while the credential's Base URL is loopback too, as with a local emulator)"
			: '';
		throw refuse(
			`its host "${url.hostname}" is ${inside}, inside your network or on the n8n machine itself${loopbackNote}; URLs the API hands back must point to public storage`,
		);
	}
	if (url.protocol === 'http:' && !(base.isLoopback && isLoopbackHostname(url.hostname))) {
		throw refuse(
			`it uses plain http to the host "${url.hostname}" (http is accepted only to a loopback host while the Base URL is loopback too)`,
		);
	}
	return url.href;
}
