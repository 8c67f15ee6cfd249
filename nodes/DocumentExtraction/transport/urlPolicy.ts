/**
 * The one place that judges URLs: the credential's Base URL and instance host (where the API key
 * may go) and the URLs the API hands back (presigned upload, part, preview and download URLs,
 * which get no key but carry the document). Every decision is made on the result of the WHATWG
 * URL parser, never on a pattern over the text.
 */

export class UrlPolicyError extends Error {}

/** Characters refused anywhere in a URL we are given: the parser would drop or reinterpret them. */
function hasInvisibleOrControl(text: string): boolean {
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
		if (char === '\\') return true;
		if (/[\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u.test(char)) return true;
	}
	return false;
}

function parse(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/** After parsing, an IPv4 host is always in dotted-decimal form (127.1 and 0x7f.1 become 127.0.0.1). */
function ipv4Octets(hostname: string): number[] | undefined {
	const parts = hostname.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	return parts.map(Number);
}

/** localhost, 127.0.0.0/8 or [::1], judged on a parsed URL's hostname. */
function isLoopbackHostname(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host === '[::1]') return true;
	return ipv4Octets(host)?.[0] === 127;
}

/** A base URL that passed the policy: where API requests go and whether plain http is allowed. */
export interface ApprovedBaseUrl {
	/** Scheme, host and optional path prefix, without a trailing slash or /prod/v1. */
	url: string;
	origin: string;
	/** The path prefix below the origin ('' or e.g. '/proxy'), without a trailing slash. */
	pathPrefix: string;
	isLoopback: boolean;
}

const API_PATH_SUFFIX = '/prod/v1';

function shown(text: string): string {
	const printable = [...text].map((char) => (hasInvisibleOrControl(char) && char !== ' ' ? '�' : char)).join('');
	return `"${printable.length > 100 ? `${printable.slice(0, 100)}…` : printable}"`;
}

/**
 * Judges the credential's Base URL Override: https for any host, plain http only for a loopback
 * host; no user info, query or fragment; no control, invisible or whitespace characters inside
 * (surrounding spaces are trimmed). A trailing /prod/v1 is dropped (the node adds it).
 */
export function approveBaseUrl(input: string): ApprovedBaseUrl {
	const text = input.trim();
	const form = 'Use the form https://host[:port][/path], e.g. https://api.example.com.';
	if (hasInvisibleOrControl(text)) {
		throw new UrlPolicyError(
			`The Base URL ${shown(text)} of the Document Extraction credential contains spaces, control or invisible characters or a backslash. ${form}`,
		);
	}
	const url = parse(text);
	if (!url) {
		throw new UrlPolicyError(`The Base URL ${shown(text)} of the Document Extraction credential is not a valid URL. ${form}`);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new UrlPolicyError(
			`The Base URL of the Document Extraction credential must use https:// (got "${url.protocol}"). ${form}`,
		);
	}
	if (url.username !== '' || url.password !== '') {
		throw new UrlPolicyError(
			'The Base URL of the Document Extraction credential must not contain a user name or password (user:password@host). Put the API key in the API Key field.',
		);
	}
	if (url.search !== '' || url.hash !== '' || url.href.includes('?') || url.href.includes('#')) {
		throw new UrlPolicyError(
			`The Base URL ${shown(text)} of the Document Extraction credential must not contain a query (?) or fragment (#). ${form}`,
		);
	}
	if (url.hostname === '') {
		throw new UrlPolicyError(`The Base URL ${shown(text)} of the Document Extraction credential has no host. ${form}`);
	}
	const isLoopback = isLoopbackHostname(url.hostname);
	if (url.protocol === 'http:' && !isLoopback) {
		throw new UrlPolicyError(
			`The Base URL of the Document Extraction credential uses http:// with the host "${url.hostname}", which is not a loopback host. Plain http is accepted only for localhost, 127.x.x.x and [::1]; use https:// so the API key is never sent in clear text.`,
		);
	}
	let pathPrefix = url.pathname.replace(/\/+$/, '');
	if (pathPrefix.endsWith(API_PATH_SUFFIX)) pathPrefix = pathPrefix.slice(0, -API_PATH_SUFFIX.length);
	pathPrefix = pathPrefix.replace(/\/+$/, '');
	return { url: `${url.origin}${pathPrefix}`, origin: url.origin, pathPrefix, isLoopback };
}

/**
 * Judges an instance host as typed in the credential: a host name with an optional port (an
 * https:// prefix and a trailing slash are tolerated). Returns the https base URL.
 */
export function approveInstanceHost(input: string): ApprovedBaseUrl {
	const text = input.trim();
	const withScheme = /^https:\/\//i.test(text) ? text : `https://${text}`;
	const approved = approveBaseUrl(withScheme);
	const url = new URL(withScheme);
	if (url.protocol !== 'https:' || approved.pathPrefix !== '') {
		throw new UrlPolicyError(
			`The Instance Host ${shown(text)} of the Document Extraction credential must be a host name such as api.example.com (no scheme other than https://, no path).`,
		);
	}
	return approved;
}

/**
 * Where an authenticated request goes: baseURL and url combined exactly as n8n's HTTP client
 * (axios) combines them, then parsed. The decision is made on the parsed result.
 */
export function requestTarget(url: string, baseURL?: string): URL | undefined {
	const isAbsolute = /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url);
	if (!baseURL || isAbsolute) return parse(url);
	return parse(url ? `${baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}` : baseURL);
}

/** Whether a parsed request target lies under an approved base URL (same origin and path prefix). */
export function isUnderBaseUrl(target: URL, base: ApprovedBaseUrl): boolean {
	if (target.origin !== base.origin) return false;
	if (target.username !== '' || target.password !== '') return false;
	return base.pathPrefix === '' || target.pathname === base.pathPrefix || target.pathname.startsWith(`${base.pathPrefix}/`);
}

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
	const url = parse(value);
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
