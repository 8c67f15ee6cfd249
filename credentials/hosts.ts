/**
 * Where the Document Extraction API lives: the one table of instances and hosts, the rule that
 * turns the credential's fields into the API's base URL (judged by the URL policy), and the one
 * place that attaches the API key to a request. The credential (its test request and every
 * authenticated request) and the node's transport both use what is defined here.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ApprovedBaseUrl } from './urlPolicy';
import {
	API_PATH_PREFIX,
	UrlPolicyError,
	approveBaseUrl,
	approveInstanceHost,
	isUnderBaseUrl,
	requestTarget,
} from './urlPolicy';

export { API_PATH_PREFIX };

/**
 * GET /subscription: the request the credential's test sends (any valid key may read it). The
 * node's API layer (nodes/shared/api/endpoints.ts) takes the path from here, so it is written once.
 */
export const SUBSCRIPTION_PATH = '/subscription';

type InstanceId = 'default' | 'au' | 'sg' | 'jp';

interface Instance {
	value: InstanceId;
	name: string;
	/** Fixed host, or undefined when the instance's host is not published and the user gives it. */
	host?: string;
}

export const INSTANCES: readonly Instance[] = [
	{ value: 'default', name: 'Default', host: 'api.orion.file.ai' },
	{ value: 'au', name: 'Australia (au)' },
	{ value: 'sg', name: 'Singapore (sg)' },
	{ value: 'jp', name: 'Japan (jp)' },
];

export const DEFAULT_INSTANCE: InstanceId = 'default';

/** Instances whose host the credential asks for. */
export const INSTANCES_WITH_USER_HOST: InstanceId[] = INSTANCES.filter((i) => !i.host).map(
	(i) => i.value,
);

/** Whether `hostname` is the fixed host of an Instance (nobody typed it: a misspelling cannot be the problem there). */
export function isFixedInstanceHost(hostname: string): boolean {
	const name = hostname.toLowerCase();
	return INSTANCES.some((instance) => instance.host === name);
}

/**
 * Which credential field the API host was typed in, as a person reads it ("the Base URL
 * Override", "the Instance Host"), or undefined when it is the fixed host of the chosen Instance.
 */
export function hostTypedIn(fields: HostCredentialFields): string | undefined {
	if (typeof fields.baseUrl === 'string' && fields.baseUrl.trim() !== '') return 'the Base URL Override';
	const instance = INSTANCES.find((i) => i.value === (fields.instance || DEFAULT_INSTANCE));
	return instance && !instance.host ? 'the Instance Host' : undefined;
}

export interface HostCredentialFields {
	instance?: string;
	instanceHost?: string;
	baseUrl?: string;
}

/** The credential's fields cannot give a base URL the policy accepts; the message says why. */
export const BaseUrlError = UrlPolicyError;

/**
 * The API's base URL (scheme, host, optional path prefix; no /prod/v1) for the credential's
 * fields, approved by the URL policy. Throws BaseUrlError with a message for a person.
 */
export function resolveApiBase(fields: HostCredentialFields): ApprovedBaseUrl {
	const override = typeof fields.baseUrl === 'string' ? fields.baseUrl.trim() : '';
	if (override) return approveBaseUrl(override);

	const instance = INSTANCES.find((i) => i.value === (fields.instance || DEFAULT_INSTANCE));
	if (!instance) {
		throw new BaseUrlError(
			`Unknown instance "${String(fields.instance)}" in the Document Extraction credential. Choose one of: ${INSTANCES.map((i) => i.value).join(', ')}.`,
		);
	}
	if (instance.host) return approveBaseUrl(`https://${instance.host}`);

	const host = typeof fields.instanceHost === 'string' ? fields.instanceHost.trim() : '';
	if (!host) {
		throw new BaseUrlError(
			`The Document Extraction credential uses the ${instance.name} instance but has no Instance Host. Enter the API host shown in your dashboard.`,
		);
	}
	return approveInstanceHost(host);
}

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

const isSet = (value: unknown) => value !== undefined && value !== null;

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
	const headers = requestOptions.headers;
	if (isSet(headers) && typeof headers === 'object') {
		const hostHeaders = Object.keys(headers).filter((name) => name.trim().toLowerCase() === 'host');
		if (hostHeaders.length) {
			problems.push(`overrides the Host header (header ${hostHeaders.map((name) => `"${name}"`).join(', ')})`);
		}
	}
	return problems;
}

/** The caller's headers without any x-api-key of its own (whatever the case of the name). */
function headersWithoutKey(headers: IHttpRequestOptions['headers']): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (name.trim().toLowerCase() !== 'x-api-key') kept[name] = value;
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
	const url = isSet(rawUrl) ? String(rawUrl) : '';
	const target = requestTarget(url, isSet(rawBase) ? String(rawBase) : undefined);
	if (!target || !isUnderBaseUrl(target, base)) {
		const where = target ? `${target.protocol}//${target.host}` : 'an invalid URL';
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key to ${where}: the credential's API host is ${base.url}.`,
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
		headers: { ...headersWithoutKey(requestOptions.headers), 'x-api-key': apiKey },
		disableFollowRedirect: true,
		maxRedirects: 0,
		// n8n's legacy request options, used by some n8n versions for credential tests
		followRedirect: false,
		followAllRedirects: false,
	});
}
