/**
 * The endpoint policy shared by the credential and the node: which Base URL or instance host the
 * API key may go to and where an authenticated request really goes (what kind of address a host
 * is, loopback, private, link-local, ..., is hostKinds.ts's). Every decision is made on the result of the
 * WHATWG URL parser, never on a pattern over the text. The node's policy for URLs the API hands
 * back (nodes/shared/transport/returnedUrls.ts) builds on the helpers here; nothing here
 * imports from nodes/. A value in a message is shown as everywhere else (shown.ts), with the
 * credential's API key hidden where the caller gives it.
 */
import { isLoopbackHostname } from './hostKinds';
import { shown } from './shown';

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

/** A base URL that passed the policy: where API requests go and whether plain http is allowed. */
export interface ApprovedBaseUrl {
	/** Scheme, host and optional path prefix, without a trailing slash or /prod/v1. */
	url: string;
	origin: string;
	/** The path prefix below the origin ('' or e.g. '/proxy'), without a trailing slash. */
	pathPrefix: string;
	isLoopback: boolean;
}

/** The path every endpoint of the API starts with (docs/dev/api-contract.md#conventions): the one place it is written. */
export const API_PATH_PREFIX = '/prod/v1';

/** The text without the slashes at its end (a loop: linear in the length, whatever the text). */
function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '/') end--;
	return text.slice(0, end);
}

/** Whether a path segment is one the URL parser resolves as "." or "..", in any of its spellings. */
function isDotSegment(segment: string): boolean {
	const lower = segment.toLowerCase();
	return lower === '.' || lower === '..' || lower === '%2e' || lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e';
}

function hexValue(char: string | undefined): number {
	if (char === undefined) return -1;
	const code = char.charCodeAt(0);
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const lower = code | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Why a percent-escape of `byte` in a path lets a server that decodes before it routes (many
 * gateways, proxies and frameworks do) read another path than the URL parser: a separator, a dot,
 * a second round of decoding, a parameter, a query, a control byte, or a byte outside ASCII (an
 * overlong UTF-8 dot or slash, a Unicode form that normalisation folds to one). Undefined for a
 * byte that decodes to a harmless printable character.
 */
function escapedByteAmbiguity(byte: number): string | undefined {
	if (byte === 0x2f || byte === 0x5c) return 'an encoded slash or backslash (%2F, %5C)';
	if (byte === 0x2e) return 'an encoded dot (%2E)';
	if (byte === 0x25) return 'a double-encoded character (%25)';
	if (byte === 0x3b) return 'an encoded semicolon (%3B)';
	if (byte === 0x3f || byte === 0x23) return 'an encoded ? or # (%3F, %23)';
	if (byte <= 0x20 || byte === 0x7f) return 'an encoded control character or space';
	if (byte >= 0x80) return 'an encoded byte outside ASCII (an overlong or Unicode form of a dot or slash, to some servers)';
	return undefined;
}

/**
 * Why a URL path, as the WHATWG parser serialises it (URL.pathname), could be read as another path
 * by a proxy, gateway or server in front of the API, or undefined when every reader sees the same
 * one: an encoded byte escapedByteAmbiguity refuses, a `%` without two hex digits, a `;` path
 * parameter (dropped with what follows by Tomcat, Spring and others, so `/dex/..;/x` is `/x`), a
 * backslash, an empty segment (`//`, merged by some proxies) or a dot segment. One pass over the
 * text, no pattern.
 */
export function pathAmbiguity(path: string): string | undefined {
	let segmentStart = 0;
	for (let index = 0; index <= path.length; index++) {
		const char = path[index];
		if (char === undefined || char === '/') {
			const segment = path.slice(segmentStart, index);
			if (isDotSegment(segment)) return 'a dot segment (. or ..)';
			if (segment === '' && index > 0 && char === '/') return 'an empty segment (//)';
			segmentStart = index + 1;
			continue;
		}
		if (char === '%') {
			const high = hexValue(path[index + 1]);
			const low = hexValue(path[index + 2]);
			if (high < 0 || low < 0) return 'a % that is not followed by two hex digits';
			const reason = escapedByteAmbiguity(high * 16 + low);
			if (reason) return reason;
			index += 2;
			continue;
		}
		if (char === ';') return 'a ; path parameter';
		if (char === '\\') return 'a backslash';
		const code = char.charCodeAt(0);
		if (code <= 0x20 || code >= 0x7f) return 'a control character, space or character outside ASCII';
	}
	return undefined;
}

/**
 * Why the text of a URL could name another host or path than the WHATWG parser that judges it
 * reads, or undefined. Another parser: no // after the scheme (https:host is a host to WHATWG and
 * a path to Node's legacy parser), a percent-encoded host (api%2eexample.com: decoded by one, not
 * the other). The parser itself, silently: tabs and line breaks dropped, a backslash read as a
 * slash, dot segments resolved, so the URL says one path and goes to another. Looks at the text
 * before its query or fragment; surrounding spaces are allowed (the parser trims them). A URL the
 * node writes itself (scheme://host/path) has none of these.
 */
export function urlTextAmbiguity(text: string): string | undefined {
	const trimmed = text.trim();
	const scheme = /^[a-z][\d+\-.a-z]*:/i.exec(trimmed);
	if (!scheme || !trimmed.startsWith('//', scheme[0].length)) {
		return 'a scheme without // after it (a host to some URL parsers, a path to others)';
	}
	let end = trimmed.length;
	for (const mark of ['?', '#']) {
		const at = trimmed.indexOf(mark);
		if (at >= 0 && at < end) end = at;
	}
	const beforeQuery = trimmed.slice(0, end);
	for (const char of beforeQuery) {
		const code = char.charCodeAt(0);
		if (char === '\\') return 'a backslash (read as a slash)';
		if (code < 0x20 || code === 0x7f) return 'a control character (tab or line break, dropped by the URL parser)';
	}
	const authorityStart = scheme[0].length + 2;
	const pathStart = beforeQuery.indexOf('/', authorityStart);
	if (beforeQuery.slice(authorityStart, pathStart < 0 ? beforeQuery.length : pathStart).includes('%')) return 'a percent-encoded host';
	return beforeQuery.split('/').some(isDotSegment) ? 'a dot segment (. or ..) that the URL parser resolves' : undefined;
}

/**
 * Judges the credential's Base URL Override: https for any host, plain http only for a loopback
 * host; no user info, query or fragment; no control, invisible or whitespace characters inside
 * (surrounding spaces are trimmed). A trailing /prod/v1 is dropped (the node adds it). A message
 * never shows `secrets` (the credential's API key, should it stand in the URL).
 */
export function approveBaseUrl(input: string, secrets: readonly string[] = []): ApprovedBaseUrl {
	const text = input.trim();
	const form = 'Use the form https://host[:port][/path], e.g. https://api.example.com.';
	if (hasInvisibleOrControl(text)) {
		throw new UrlPolicyError(
			`The Base URL ${shown(text, secrets)} of the Document Extraction credential contains spaces, control or invisible characters or a backslash. ${form}`,
		);
	}
	const url = parseUrl(text);
	if (!url) {
		throw new UrlPolicyError(`The Base URL ${shown(text, secrets)} of the Document Extraction credential is not a valid URL. ${form}`);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new UrlPolicyError(
			`The Base URL of the Document Extraction credential must use https:// (got ${shown(url.protocol)}). ${form}`,
		);
	}
	if (url.username !== '' || url.password !== '') {
		throw new UrlPolicyError(
			'The Base URL of the Document Extraction credential must not contain a user name or password (user:password@host). Put the API key in the API Key field.',
		);
	}
	if (url.search !== '' || url.hash !== '' || url.href.includes('?') || url.href.includes('#')) {
		throw new UrlPolicyError(
			`The Base URL ${shown(text, secrets)} of the Document Extraction credential must not contain a query (?) or fragment (#). ${form}`,
		);
	}
	if (url.hostname === '') {
		throw new UrlPolicyError(`The Base URL ${shown(text, secrets)} of the Document Extraction credential has no host. ${form}`);
	}
	const isLoopback = isLoopbackHostname(url.hostname);
	if (url.protocol === 'http:' && !isLoopback) {
		throw new UrlPolicyError(
			`The Base URL of the Document Extraction credential uses http:// with the host ${shown(url.hostname)}, which is not a loopback host. Plain http is accepted only for localhost, 127.x.x.x and [::1]; use https:// so the API key is never sent in clear text.`,
		);
	}
	// The prefix is compared as sent; a letter written %65 here would be "dex" to a gateway that
	// decodes and "d%65x" to one that does not, so the Base URL's path takes no escapes at all.
	const ambiguity =
		pathAmbiguity(withoutTrailingSlashes(url.pathname)) ??
		urlTextAmbiguity(text) ??
		(url.pathname.includes('%') ? 'a percent-encoded character (write the path as the gateway routes it, unencoded)' : undefined);
	if (ambiguity) {
		throw new UrlPolicyError(
			`The Base URL ${shown(text, secrets)} of the Document Extraction credential could be read as another host or path by a proxy, a server or another URL parser: it holds ${ambiguity}. ${form}`,
		);
	}
	let pathPrefix = withoutTrailingSlashes(url.pathname);
	if (pathPrefix.endsWith(API_PATH_PREFIX)) pathPrefix = pathPrefix.slice(0, -API_PATH_PREFIX.length);
	pathPrefix = withoutTrailingSlashes(pathPrefix);
	return { url: `${url.origin}${pathPrefix}`, origin: url.origin, pathPrefix, isLoopback };
}

/**
 * Judges an instance host as typed in the credential: a host name with an optional port (an
 * https:// prefix and a trailing slash are tolerated). Returns the https base URL.
 */
export function approveInstanceHost(input: string, secrets: readonly string[] = []): ApprovedBaseUrl {
	const text = input.trim();
	const withScheme = /^https:\/\//i.test(text) ? text : `https://${text}`;
	const approved = approveBaseUrl(withScheme, secrets);
	const url = new URL(withScheme);
	if (url.protocol !== 'https:' || approved.pathPrefix !== '') {
		throw new UrlPolicyError(
			`The Instance Host ${shown(text, secrets)} of the Document Extraction credential must be a host name such as api.example.com (no scheme other than https://, no path).`,
		);
	}
	return approved;
}

/**
 * Where an authenticated request goes: baseURL and url combined exactly as n8n's HTTP client
 * (axios) combines them, then parsed. The decision is made on the parsed result.
 */
export function requestTarget(url: string, baseURL?: string): URL | undefined {
	return parseUrl(requestUrlText(url, baseURL));
}

/** The text of the URL an authenticated request goes to: baseURL and url combined as axios combines them. */
export function requestUrlText(url: string, baseURL?: string): string {
	const isAbsolute = /^(?:[a-z][\d+\-.a-z]*:)?\/\//i.test(url);
	if (!baseURL || isAbsolute) return url;
	return url ? `${baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}` : baseURL;
}

/**
 * Why a parsed request target is not under an approved base URL, or undefined when it is: another
 * origin, user info, a path that a proxy or server could read as another one (pathAmbiguity), or
 * a path outside the prefix. The prefix (which holds no escape) is compared with the path as sent:
 * a gateway that routes on the raw path and one that decodes first then both see it under the
 * prefix, since the escapes pathAmbiguity leaves stand for characters that cannot separate or
 * resolve (/d%65x/... is refused under /dex: only a decoding gateway would route it there).
 */
export function outsideBaseUrl(target: URL, base: ApprovedBaseUrl): string | undefined {
	if (target.origin !== base.origin) return 'another host';
	if (target.username !== '' || target.password !== '') return 'a user name or password';
	const ambiguity = pathAmbiguity(target.pathname);
	if (ambiguity) return `a path that a proxy or server could read as another path: it holds ${ambiguity}`;
	if (base.pathPrefix === '') return undefined;
	const path = target.pathname;
	const prefix = base.pathPrefix;
	return path === prefix || path.startsWith(`${prefix}/`) ? undefined : `a path outside the prefix ${prefix}`;
}

/** Whether a parsed request target lies under an approved base URL (see outsideBaseUrl). */
export function isUnderBaseUrl(target: URL, base: ApprovedBaseUrl): boolean {
	return outsideBaseUrl(target, base) === undefined;
}
