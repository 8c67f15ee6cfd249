/**
 * The endpoint policy shared by the credential and the node: which Base URL or instance host the
 * API key may go to, where an authenticated request really goes, and what kind of address a
 * host is (loopback, private, link-local, ...). Every decision is made on the result of the
 * WHATWG URL parser, never on a pattern over the text. The node's policy for URLs the API hands
 * back (nodes/DocumentExtraction/transport/urlPolicy.ts) builds on the helpers here; nothing here
 * imports from nodes/.
 */

export class UrlPolicyError extends Error {}

/** Characters refused anywhere in a URL we are given: the parser would drop or reinterpret them. */
export function hasInvisibleOrControl(text: string): boolean {
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
		if (char === '\\') return true;
		if (/[\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u.test(char)) return true;
	}
	return false;
}

/** The WHATWG parse of a URL, or undefined when it is not one. */
export function parseUrl(text: string): URL | undefined {
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
	const octets = parts.map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** localhost, 127.0.0.0/8 or [::1], judged on a parsed URL's hostname. */
export function isLoopbackHostname(hostname: string): boolean {
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

/** The text without the slashes at its end (a loop: linear in the length, whatever the text). */
function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '/') end--;
	return text.slice(0, end);
}

/** A value for a message: control and invisible characters shown as �, at most 100 characters. */
export function shown(text: string): string {
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
	const url = parseUrl(text);
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
	let pathPrefix = withoutTrailingSlashes(url.pathname);
	if (pathPrefix.endsWith(API_PATH_SUFFIX)) pathPrefix = pathPrefix.slice(0, -API_PATH_SUFFIX.length);
	pathPrefix = withoutTrailingSlashes(pathPrefix);
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
	const isAbsolute = /^(?:[a-z][\d+\-.a-z]*:)?\/\//i.test(url);
	if (!baseURL || isAbsolute) return parseUrl(url);
	return parseUrl(url ? `${baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}` : baseURL);
}

/** Whether a parsed request target lies under an approved base URL (same origin and path prefix). */
export function isUnderBaseUrl(target: URL, base: ApprovedBaseUrl): boolean {
	if (target.origin !== base.origin) return false;
	if (target.username !== '' || target.password !== '') return false;
	return base.pathPrefix === '' || target.pathname === base.pathPrefix || target.pathname.startsWith(`${base.pathPrefix}/`);
}
