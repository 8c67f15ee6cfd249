/**
 * The one place that attaches the API key to a request: the credential's `authenticate`, used by
 * the credential test and by every request of the request path. The key goes only straight to the
 * API host the credential's fields give (hosts.ts, judged by the URL policy), never through a
 * redirect, proxy or agent of the caller's.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import type { HostCredentialFields } from './hosts';
import { BaseUrlError, resolveApiBase } from './hosts';
import { shown } from './shown';
import { outsideBaseUrl, parseUrl, requestUrlText, urlTextAmbiguity } from './urlPolicy';

/**
 * Agent options that change nothing about where a connection goes or whose certificate it
 * accepts. Every other agent option (ca, cert, key, pfx, servername, checkServerIdentity, lookup,
 * host, port, socketPath, rejectUnauthorized: false, ...) reaches the socket and is refused.
 */
const HARMLESS_AGENT_OPTIONS: ReadonlySet<string> = new Set([
	'keepAlive',
	'keepAliveMsecs',
	'maxSockets',
	'maxFreeSockets',
	'maxTotalSockets',
	'scheduling',
	'timeout',
]);

/**
 * Request options that would send the request over another connection than a direct, verified
 * one to the API host: agents and transports of the caller, a DNS lookup or socket of its own,
 * another host or port for the socket, its own certificate authority or identity check. n8n's
 * helpers ignore some of them today; a later n8n or the HTTP client below may not.
 */
const CONNECTION_OPTIONS: readonly string[] = [
	'agent',
	'agents',
	'httpAgent',
	'httpsAgent',
	'transport',
	'lookup',
	'socketPath',
	'createConnection',
	'host',
	'hostname',
	'port',
	'family',
	'localAddress',
	'ca',
	'cert',
	'key',
	'pfx',
	'passphrase',
	'servername',
	'checkServerIdentity',
	'secureContext',
	'tunnel',
	'insecureHTTPParser',
	'beforeRedirect',
];

/**
 * Request headers the key never travels with (lower-case names; docs/security.md gives the reasons).
 * Each makes a proxy, load balancer, CDN or the framework behind it route the request elsewhere or
 * read it as another request: another host or URL, another method, another client address (IP
 * allow-lists and limits at the gateway), or another framing of the body (request smuggling: a
 * second request hidden in the body, answered on the connection that carries the key). Host is
 * refused apart, with its own message. Via, Content-Type and the like change none of this.
 */
const ROUTING_HEADER_NAMES: ReadonlySet<string> = new Set([
	// where the request goes, or which URL the server acts on
	'forwarded',
	'x-host',
	'x-http-host-override',
	'x-rewrite-url',
	'x-url-scheme',
	'front-end-https',
	// which method the server acts on
	'x-http-method-override',
	'x-http-method',
	'x-method-override',
	// which client the gateway believes it is talking to
	'x-real-ip',
	'x-client-ip',
	'true-client-ip',
	'x-cluster-client-ip',
	'cf-connecting-ip',
	'fastly-client-ip',
	'x-originating-ip',
	'x-remote-ip',
	'x-remote-addr',
	// how the request is framed and forwarded hop by hop
	'transfer-encoding',
	'te',
	'connection',
	'upgrade',
	'keep-alive',
	'proxy-connection',
	'http2-settings',
]);

/** Header name families refused whole: X-Forwarded-* (host, proto, port, prefix, for, ...), X-Original-* (URL, URI, host), Envoy's x-envoy-*. */
const ROUTING_HEADER_PREFIXES: readonly string[] = ['x-forwarded', 'x-original', 'x-envoy-'];

/** Headers of the caller's that are dropped rather than refused: its own key, and its own framing of the body. */
const DROPPED_HEADERS: ReadonlySet<string> = new Set(['x-api-key', 'content-length']);

/** An HTTP header name (RFC 9110 token): anything else could be folded into another name by some client. */
const HEADER_NAME_TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

const isSet = (value: unknown) => value !== undefined && value !== null;

/** `name` (trimmed) is a routing header; CGI, PHP and WSGI read X_Forwarded_Host as X-Forwarded-Host. */
function isRoutingHeader(name: string): boolean {
	const canonical = name.trim().toLowerCase().split('_').join('-');
	return ROUTING_HEADER_NAMES.has(canonical) || ROUTING_HEADER_PREFIXES.some((prefix) => canonical.startsWith(prefix));
}

/**
 * What in a request would let someone other than the API host read the key: a proxy, certificate
 * checks turned off, an agent or connection setting of the caller's, a Host header of its own.
 * Each entry says what was found, with the option's name; empty when the request is plain.
 */
function lendingProblems(requestOptions: IHttpRequestOptions): string[] {
	const options = requestOptions as unknown as Record<string, unknown>;
	const problems: string[] = [];
	const proxy = options.proxy;
	if (isSet(proxy) && proxy !== false && proxy !== '') {
		problems.push('names a proxy (option "proxy"; in the HTTP Request node: Options > Proxy)');
	}
	const certificateChecksOff = [
		isSet(options.skipSslCertificateValidation) && options.skipSslCertificateValidation !== false
			? 'skipSslCertificateValidation'
			: '',
		isSet(options.rejectUnauthorized) && options.rejectUnauthorized !== true ? 'rejectUnauthorized' : '',
		isSet(options.strictSSL) && options.strictSSL !== true ? 'strictSSL' : '',
	].filter(Boolean);
	const agentOptions = options.agentOptions;
	if (isSet(agentOptions)) {
		if (typeof agentOptions !== 'object' || Array.isArray(agentOptions)) {
			problems.push('gives agent options that are not an object (option "agentOptions")');
		} else {
			const entries = Object.entries(agentOptions as Record<string, unknown>);
			const rejectUnauthorized = entries.find(([name]) => name === 'rejectUnauthorized');
			if (rejectUnauthorized && rejectUnauthorized[1] !== true) certificateChecksOff.push('agentOptions.rejectUnauthorized');
			const changing = entries
				.map(([name]) => name)
				.filter((name) => name !== 'rejectUnauthorized' && !HARMLESS_AGENT_OPTIONS.has(name));
			if (changing.length) {
				problems.push(
					`sets agent options that change the connection or its certificate checks (agentOptions ${changing.map((name) => `"${name}"`).join(', ')}; in the HTTP Request node: SSL Certificates)`,
				);
			}
		}
	}
	if (certificateChecksOff.length) {
		problems.push(
			`turns certificate checks off (option ${certificateChecksOff.map((name) => `"${name}"`).join(', ')}; in the HTTP Request node: Options > Ignore SSL Issues)`,
		);
	}
	const connection = CONNECTION_OPTIONS.filter((name) => Object.prototype.hasOwnProperty.call(options, name) && isSet(options[name]));
	if (connection.length) {
		problems.push(`brings its own agent or connection settings (option ${connection.map((name) => `"${name}"`).join(', ')})`);
	}
	problems.push(...headerProblems(requestOptions.headers));
	return problems;
}

/**
 * What in the caller's headers would reroute or rewrite the request at a proxy: a Host header, a
 * header of ROUTING_HEADER_NAMES or ROUTING_HEADER_PREFIXES, in any letter case and with spaces
 * around the name, or a name that is not an HTTP header name at all.
 */
function headerProblems(headers: unknown): string[] {
	if (!isSet(headers)) return [];
	if (typeof headers !== 'object' || Array.isArray(headers)) {
		return ['gives its headers as something other than an object of names and values (option "headers")'];
	}
	const names = Object.keys(headers as object);
	const listed = (found: string[]) => found.map((name) => shown(name)).join(', ');
	const problems: string[] = [];
	const notNames = names.filter((name) => !HEADER_NAME_TOKEN.test(name.trim()));
	const named = names.filter((name) => HEADER_NAME_TOKEN.test(name.trim()));
	const host = named.filter((name) => name.trim().toLowerCase() === 'host');
	const routing = named.filter((name) => name.trim().toLowerCase() !== 'host' && isRoutingHeader(name));
	if (host.length) problems.push(`overrides the Host header (header ${listed(host)})`);
	if (routing.length) {
		problems.push(
			`sets headers that a proxy or gateway routes, rewrites or frames the request by (header ${listed(routing)}; in the HTTP Request node: Send Headers)`,
		);
	}
	if (notNames.length) problems.push(`sets a header whose name is not a valid HTTP header name (header ${listed(notNames)})`);
	return problems;
}

/** The caller's headers without those of DROPPED_HEADERS (whatever the case of the name). */
function headersWithoutDropped(headers: IHttpRequestOptions['headers']): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (!DROPPED_HEADERS.has(name.trim().toLowerCase())) kept[name] = value;
	}
	return kept;
}

/**
 * The credential's `authenticate`: attaches the API key to a request only when the request goes
 * straight to the API host the credential's fields give (judged on the parsed URL), over a
 * connection n8n makes itself with certificate checks on, and makes sure the request never
 * follows a redirect, so the key cannot travel on to another host. A request that names a proxy,
 * turns certificate checks off, brings its own agent or connection settings, or sets its own
 * Host header is refused, as is one to another host: nothing is sent, and the error says why.
 */
export async function authorizeApiRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const base = resolveApiBase(credentials as HostCredentialFields);
	const legacyUri = (requestOptions as { uri?: unknown }).uri;
	// n8n's legacy request path sends to `url ?? uri` (objects turned to text), its current path to `url`.
	const rawUrl: unknown = requestOptions.url ?? legacyUri;
	const rawBase: unknown = requestOptions.baseURL;
	const textual = (value: unknown) => typeof value === 'string' || value instanceof URL;
	if ((isSet(rawUrl) && !textual(rawUrl)) || (isSet(rawBase) && !textual(rawBase))) {
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key: the request gives its URL or base URL as something other than text. The credential's API host is ${base.url}.`,
		);
	}
	const text = requestUrlText(isSet(rawUrl) ? String(rawUrl) : '', isSet(rawBase) ? String(rawBase) : undefined);
	const target = parseUrl(text);
	// Judged on the parsed URL; a text that the parser reads otherwise than it looks is refused too.
	const outside = target ? outsideBaseUrl(target, base) : 'an invalid URL';
	if (!target || outside === 'another host' || outside === 'an invalid URL') {
		const where = target ? `${target.protocol}//${target.host}` : 'an invalid URL';
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key to ${where}: the credential's API host is ${base.url}.`,
		);
	}
	const textAmbiguity = urlTextAmbiguity(text);
	const why = textAmbiguity ? `a URL that says another path than it goes to: it holds ${textAmbiguity}` : outside;
	if (why) {
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key to ${target.protocol}//${target.host}: the request has ${why}. The credential sends its key only under ${base.url}, on a path every proxy and server reads the same way (nothing was sent).`,
		);
	}
	const problems = lendingProblems(requestOptions);
	if (problems.length) {
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key: the request ${problems.join('; it ')}. The credential sends its key only straight to its API host (${base.url}), over a connection n8n makes with certificate checks on. Remove these options from the request (nothing was sent).`,
		);
	}
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	return Object.assign({}, requestOptions, {
		headers: { ...headersWithoutDropped(requestOptions.headers), 'x-api-key': apiKey },
		disableFollowRedirect: true,
		maxRedirects: 0,
		// n8n's legacy request options, used by some n8n versions for credential tests
		followRedirect: false,
		followAllRedirects: false,
	});
}
