/**
 * Where the Document Extraction API lives: the one table of instances and hosts, the rule that
 * turns the credential's fields into the API's base URL (judged by the URL policy). The key is
 * attached in apiKeyAttachment.ts; the credential and the request path both use what is here.
 */
import type { ApprovedBaseUrl } from './urlPolicy';
import { shown } from './shown';
import { API_PATH_PREFIX, UrlPolicyError, approveBaseUrl, approveInstanceHost } from './urlPolicy';

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
	/** Only so that no message about the other fields shows it. */
	apiKey?: unknown;
}

/** The credential's fields cannot give a base URL the policy accepts; the message says why. */
export const BaseUrlError = UrlPolicyError;

/**
 * The API's base URL (scheme, host, optional path prefix; no /prod/v1) for the credential's
 * fields, approved by the URL policy. Throws BaseUrlError with a message for a person.
 */
export function resolveApiBase(fields: HostCredentialFields): ApprovedBaseUrl {
	const secrets = typeof fields.apiKey === 'string' && fields.apiKey !== '' ? [fields.apiKey] : [];
	const override = typeof fields.baseUrl === 'string' ? fields.baseUrl.trim() : '';
	if (override) return approveBaseUrl(override, secrets);

	const instance = INSTANCES.find((i) => i.value === (fields.instance || DEFAULT_INSTANCE));
	if (!instance) {
		throw new BaseUrlError(
			`Unknown instance ${shown(fields.instance, secrets)} in the Document Extraction credential. Choose one of: ${INSTANCES.map((i) => i.value).join(', ')}.`,
		);
	}
	if (instance.host) return approveBaseUrl(`https://${instance.host}`);

	const host = typeof fields.instanceHost === 'string' ? fields.instanceHost.trim() : '';
	if (!host) {
		throw new BaseUrlError(
			`The Document Extraction credential uses the ${instance.name} instance but has no Instance Host. Enter the API host shown in your dashboard.`,
		);
	}
	return approveInstanceHost(host, secrets);
}
