import type { ICredentialDataDecryptedObject, ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BaseUrlError, resolveBaseUrl } from '../../../credentials/hosts';
import type { ApiContext } from './context';

export const CREDENTIAL_TYPE = 'documentExtractionApi';

/** Where and how one request is sent: all of it comes from one read of the credential. */
export interface Connection {
	baseUrl: string;
	/** Values that must never appear in an error message (the API key). */
	secrets: string[];
	/** The credential as read, handed to n8n's httpRequestWithAuthentication so it is not read again. */
	credentials: ICredentialsDecrypted;
}

/**
 * Credential reads shared by the requests of one node run or one poll (see
 * withCredentialsReadOnce), per item, since a credential's expressions may resolve per item.
 */
interface CredentialScope {
	openRuns: number;
	connections: Map<number | undefined, Promise<Connection>>;
}

/** Keyed by the n8n context, so nothing is shared between contexts; removed when the run ends. */
const scopes = new WeakMap<ApiContext, CredentialScope>();

/**
 * Runs `run` with the credential read at most once per item instead of once per request
 * (n8n decrypts and resolves it on every read). Used by the node's execute and the trigger's
 * poll: a poll context lives as long as the activation, so the read must not outlive one poll,
 * and a credential edited between polls is used by the next one.
 */
export async function withCredentialsReadOnce<T>(
	context: ApiContext,
	run: () => Promise<T>,
): Promise<T> {
	let scope = scopes.get(context);
	if (!scope) {
		scope = { openRuns: 0, connections: new Map() };
		scopes.set(context, scope);
	}
	scope.openRuns++;
	try {
		return await run();
	} finally {
		scope.openRuns--;
		if (scope.openRuns === 0) scopes.delete(context);
	}
}

async function readConnection(context: ApiContext, itemIndex?: number): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await context.getCredentials(
		CREDENTIAL_TYPE,
		itemIndex,
	);
	let baseUrl: string;
	try {
		baseUrl = resolveBaseUrl(data);
	} catch (error) {
		if (error instanceof BaseUrlError) {
			throw new NodeOperationError(context.getNode(), error.message, { itemIndex });
		}
		throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
	const selected = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl,
		secrets: typeof data.apiKey === 'string' ? [data.apiKey] : [],
		credentials: {
			id: selected?.id ?? '',
			name: selected?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}

/** The connection for a request: from the run's scope when there is one, else read now. */
export async function connectionFor(context: ApiContext, itemIndex?: number): Promise<Connection> {
	const scope = scopes.get(context);
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
