/**
 * Where the Document Extraction API lives: the one table of instances and hosts, the rule that
 * turns the credential's fields into the API's base URL (judged by the URL policy), and the one
 * place that attaches the API key to a request. The credential (its test request and every
 * authenticated request) and the node's transport both use what is defined here.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ApprovedBaseUrl } from './urlPolicy';
import {
	UrlPolicyError,
	approveBaseUrl,
	approveInstanceHost,
	isUnderBaseUrl,
	requestTarget,
} from './urlPolicy';

export const API_PATH_PREFIX = '/prod/v1';

export type InstanceId = 'default' | 'au' | 'sg' | 'jp';

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

function defaultHost(): string {
	return INSTANCES.find((i) => i.value === DEFAULT_INSTANCE)?.host ?? '';
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

/** resolveApiBase, as the base URL text. */
export function resolveBaseUrl(fields: HostCredentialFields): string {
	return resolveApiBase(fields).url;
}

/**
 * The credential's `authenticate`: attaches the API key to a request only when the request goes
 * to the API host the credential's fields give (judged on the parsed URL), and makes sure the
 * request never follows a redirect, so the key cannot travel on to another host. Anything else
 * is refused before it is sent.
 */
export async function authorizeApiRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const base = resolveApiBase(credentials as HostCredentialFields);
	const legacyUri = (requestOptions as { uri?: unknown }).uri;
	const url = typeof requestOptions.url === 'string' ? requestOptions.url : typeof legacyUri === 'string' ? legacyUri : '';
	const target = requestTarget(url, requestOptions.baseURL);
	if (!target || !isUnderBaseUrl(target, base)) {
		const where = target ? `${target.protocol}//${target.host}` : 'an invalid URL';
		throw new BaseUrlError(
			`Refused to send the Document Extraction API key to ${where}: the credential's API host is ${base.url}.`,
		);
	}
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	return Object.assign({}, requestOptions, {
		headers: { ...(requestOptions.headers ?? {}), 'x-api-key': apiKey },
		disableFollowRedirect: true,
		maxRedirects: 0,
		// n8n's legacy request options, used by some n8n versions for credential tests
		followRedirect: false,
		followAllRedirects: false,
	});
}

/**
 * The base URL of the credential test request, as an n8n expression over `$credentials` (an
 * expression cannot call code). It only picks the host; authorizeApiRequest then judges it and
 * refuses to send the key anywhere the URL policy does not accept.
 */
export const BASE_URL_EXPRESSION =
	'={{ (' +
	'$credentials.baseUrl && String($credentials.baseUrl).trim()' +
	` ? String($credentials.baseUrl).trim().replace(/\\/+$/, '').replace(/\\/prod\\/v1$/, '')` +
	` : ($credentials.instance === ${JSON.stringify(DEFAULT_INSTANCE)} || !$credentials.instance` +
	` ? ${JSON.stringify(`https://${defaultHost()}`)}` +
	` : 'https://' + String($credentials.instanceHost || '').trim().replace(/^https:\\/\\//i, '').replace(/\\/+$/, '').replace(/\\/prod\\/v1$/, ''))` +
	') }}';
