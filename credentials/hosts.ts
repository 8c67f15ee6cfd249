/**
 * Where the Document Extraction API lives: the one table of instances and hosts, and the one
 * rule that turns the credential's fields into a base URL. The credential (its test request) and
 * the node's transport both use what is defined here.
 */

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

/** Hosts to which a Base URL override may use plain `http://`. */
const LOOPBACK_HOST_PATTERN = '(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])';

/** Matches a Base URL that uses `http://` with a host that is not a loopback host. */
export const INSECURE_BASE_URL_PATTERN = `^\\s*http://(?!${LOOPBACK_HOST_PATTERN}(:\\d+)?(/|\\s*$))`;

/** Base URL the credential test uses when the override breaks the loopback rule: never resolves. */
const REFUSED_BASE_URL = 'https://base-url-must-use-https.invalid';

function defaultHost(): string {
	return INSTANCES.find((i) => i.value === DEFAULT_INSTANCE)?.host ?? '';
}

export interface HostCredentialFields {
	instance?: string;
	instanceHost?: string;
	baseUrl?: string;
}

export class BaseUrlError extends Error {}

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

function trimUrl(url: string): string {
	return url
		.trim()
		.replace(/\/+$/, '')
		.replace(new RegExp(`${API_PATH_PREFIX.replace(/\//g, '\\/')}$`), '')
		.replace(/\/+$/, '');
}

function hostOnly(host: string): string {
	return host
		.trim()
		.replace(/^https?:\/\//i, '')
		.replace(/\/.*$/, '');
}

/**
 * The base URL (scheme and host, no path prefix) for the given credential fields.
 * Throws BaseUrlError with a message for a person when the fields cannot give one.
 */
export function resolveBaseUrl(fields: HostCredentialFields): string {
	const override = (fields.baseUrl ?? '').trim();
	if (override) {
		const parsed = parseUrl(override);
		if (!parsed) {
			throw new BaseUrlError(
				`The Base URL "${override}" of the Document Extraction credential is not a valid URL. Use the form https://host[:port].`,
			);
		}
		if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
			throw new BaseUrlError(
				`The Base URL of the Document Extraction credential must start with https:// (got "${parsed.protocol}").`,
			);
		}
		if (new RegExp(INSECURE_BASE_URL_PATTERN, 'i').test(override)) {
			throw new BaseUrlError(
				`The Base URL "${override}" uses http://, which is accepted only for loopback hosts (localhost, 127.x.x.x, [::1]). Use https:// so the API key is not sent in clear text.`,
			);
		}
		return trimUrl(override);
	}

	const instance = INSTANCES.find((i) => i.value === (fields.instance || DEFAULT_INSTANCE));
	if (!instance) {
		throw new BaseUrlError(
			`Unknown instance "${fields.instance}" in the Document Extraction credential. Choose one of: ${INSTANCES.map((i) => i.value).join(', ')}.`,
		);
	}
	if (instance.host) return `https://${instance.host}`;

	const host = hostOnly(fields.instanceHost ?? '');
	if (!host) {
		throw new BaseUrlError(
			`The Document Extraction credential uses the ${instance.name} instance but has no Instance Host. Enter the API host shown in your dashboard.`,
		);
	}
	return `https://${host}`;
}

/**
 * The same rule as resolveBaseUrl, as an n8n expression over `$credentials`, for the credential
 * test request (which cannot call code). A Base URL override that breaks the loopback rule is
 * mapped to a host that never resolves, so the key is not sent anywhere.
 */
export const BASE_URL_EXPRESSION =
	'={{ (' +
	'$credentials.baseUrl && $credentials.baseUrl.trim()' +
	` ? (new RegExp(${JSON.stringify(INSECURE_BASE_URL_PATTERN)}, 'i').test($credentials.baseUrl)` +
	` ? ${JSON.stringify(REFUSED_BASE_URL)}` +
	` : $credentials.baseUrl.trim().replace(/\\/+$/, '').replace(/\\/prod\\/v1$/, ''))` +
	` : ($credentials.instance === ${JSON.stringify(DEFAULT_INSTANCE)} || !$credentials.instance` +
	` ? ${JSON.stringify(`https://${defaultHost()}`)}` +
	` : 'https://' + String($credentials.instanceHost || '').trim().replace(/^https?:\\/\\//i, '').replace(/\\/.*$/, ''))` +
	') }}';
