import { createHmac } from 'crypto';
import type { ICredentialDataDecryptedObject, ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BaseUrlError, resolveApiBase } from '../../../credentials/hosts';
import type { ApiContext } from '../run/context';
import { CREDENTIAL_TYPE } from './http';
import { RateLimitGate, gateKeyFor } from './rateGate';
import type { RunScope } from '../run/scope';
import { addSecrets, runScopeOf } from '../run/scope';
import type { ApprovedBaseUrl } from './returnedUrls';

/** Where and how one request is sent: all of it comes from one read of the credential. */
interface Connection {
	base: ApprovedBaseUrl;
	/** Values that must never appear in an error message (the API key). */
	secrets: string[];
	/** The credential as read, handed to n8n's httpRequestWithAuthentication so it is not read again. */
	credentials: ICredentialsDecrypted;
	/** The key's rate-limit gate, shared by every execution and poll of this n8n process. */
	gate: RateLimitGate;
}

/** Each run scope's connections, one per item, read once (n8n decrypts the credential on every read). */
const connectionsOf = new WeakMap<RunScope, Map<number | undefined, Promise<Connection>>>();

async function readConnection(context: ApiContext, itemIndex?: number): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await context.getCredentials(
		CREDENTIAL_TYPE,
		itemIndex,
	);
	let base: ApprovedBaseUrl;
	try {
		base = resolveApiBase(data);
	} catch (error) {
		if (error instanceof BaseUrlError) {
			throw new NodeOperationError(context.getNode(), error.message, { itemIndex });
		}
		throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
	const selected = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	const secrets = apiKey !== '' ? [apiKey] : [];
	addSecrets(context, secrets, true);
	return {
		base,
		secrets,
		gate: new RateLimitGate(gateKeyFor(base.url, apiKey)),
		credentials: {
			id: selected?.id ?? '',
			name: selected?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}

/**
 * The connection for a request. Within a run scope (withRunScope) the credential is read at
 * most once per item instead of once per request (n8n decrypts and resolves it on every read).
 */
export async function connectionFor(context: ApiContext, itemIndex?: number): Promise<Connection> {
	const scope = runScopeOf(context);
	if (!scope) return await readConnection(context, itemIndex);
	let connections = connectionsOf.get(scope);
	if (!connections) {
		connections = new Map();
		connectionsOf.set(scope, connections);
	}
	const cache = connections;
	let connection = cache.get(itemIndex);
	if (!connection) {
		connection = readConnection(context, itemIndex);
		cache.set(itemIndex, connection);
		// A failed read is not kept: the next request of the item tries again.
		connection.catch(() => {
			if (cache.get(itemIndex) === connection) cache.delete(itemIndex);
		});
	}
	return await connection;
}

/**
 * The credential's Base URL as approved by the URL policy (read once per item, as for a request):
 * to judge, beside it, a URL the node hands to the service (Upload's callback wait).
 */
export async function approvedApiBase(context: ApiContext, itemIndex?: number): Promise<ApprovedBaseUrl> {
	return (await connectionFor(context, itemIndex)).base;
}

/**
 * HMAC-SHA256 of `material`, keyed by the credential's API key, as 64 hexadecimal characters: a
 * secret only this credential's holder can make, the same every time for the same material (so a
 * repeated run of the same stored execution sends the same request bodies), and from which the key
 * cannot be learnt. The key itself never leaves the request path. Upload's callback wait keys its
 * callback URLs with it.
 */
export async function apiKeyDigest(context: ApiContext, material: string, itemIndex?: number): Promise<string> {
	const { secrets } = await connectionFor(context, itemIndex);
	return createHmac('sha256', secrets[0] ?? '').update(material).digest('hex');
}
