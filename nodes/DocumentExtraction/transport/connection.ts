import type { ICredentialDataDecryptedObject, ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BaseUrlError, resolveApiBase } from '../../../credentials/hosts';
import type { ApiContext } from './context';
import { addSecrets, runScopeOf } from './scope';
import type { ApprovedBaseUrl } from './urlPolicy';

export const CREDENTIAL_TYPE = 'documentExtractionApi';

/** Where and how one request is sent: all of it comes from one read of the credential. */
export interface Connection {
	base: ApprovedBaseUrl;
	/** Values that must never appear in an error message (the API key). */
	secrets: string[];
	/** The credential as read, handed to n8n's httpRequestWithAuthentication so it is not read again. */
	credentials: ICredentialsDecrypted;
}

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
	const secrets = typeof data.apiKey === 'string' && data.apiKey !== '' ? [data.apiKey] : [];
	addSecrets(context, secrets, true);
	return {
		base,
		secrets,
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
	let connection = scope.connections.get(itemIndex);
	if (!connection) {
		connection = readConnection(context, itemIndex);
		scope.connections.set(itemIndex, connection);
		// A failed read is not kept: the next request of the item tries again.
		connection.catch(() => {
			if (scope.connections.get(itemIndex) === connection) scope.connections.delete(itemIndex);
		});
	}
	return await connection;
}
