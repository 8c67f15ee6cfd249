import type { ApiContext } from './context';

/**
 * What the requests of one node run (all its items and batches) or one poll share: the secrets
 * seen (the API key, presigned URL signatures) that no error or item may show. (Each item's
 * bounds and budget are its request policy, policy.ts; the credential read once per item is kept
 * by connection.ts; the rate-limit gate is the key's, for the whole process: rateGate.ts.)
 */
export interface RunScope {
	/** Every value no message may show: API keys and presigned URL signatures. */
	secrets: Set<string>;
	/** The API keys alone: no output item may show them either. */
	keys: Set<string>;
}

interface ScopeEntry {
	openRuns: number;
	scope: RunScope;
}

/** Keyed by the n8n context, so nothing is shared between contexts; removed when the run ends. */
const scopes = new WeakMap<ApiContext, ScopeEntry>();

/**
 * Runs `run` in the run scope of `context`. Used by the node's execute and the trigger's poll:
 * a poll context lives as long as the activation, so the scope must not outlive one poll (a
 * credential edited between polls is used by the next one).
 */
export async function withRunScope<T>(context: ApiContext, run: () => Promise<T>): Promise<T> {
	let entry = scopes.get(context);
	if (!entry) {
		entry = { openRuns: 0, scope: { secrets: new Set(), keys: new Set() } };
		scopes.set(context, entry);
	}
	entry.openRuns++;
	try {
		return await run();
	} finally {
		entry.openRuns--;
		if (entry.openRuns === 0) scopes.delete(context);
	}
}

export function runScopeOf(context: ApiContext): RunScope | undefined {
	return scopes.get(context)?.scope;
}

/**
 * Registers values no error message of this run may show; with `isApiKey`, no output item
 * either (a presigned preview URL is what Get Preview URL outputs, its key never).
 */
export function addSecrets(context: ApiContext, values: Iterable<string>, isApiKey = false): void {
	const scope = runScopeOf(context);
	if (!scope) return;
	for (const value of values) {
		if (!value) continue;
		scope.secrets.add(value);
		if (isApiKey) scope.keys.add(value);
	}
}

/** Every secret seen in this run: for error messages. */
export function secretsOf(context: ApiContext): string[] {
	return [...(runScopeOf(context)?.secrets ?? [])];
}

/** The API keys used in this run: for output items. */
export function apiKeysOf(context: ApiContext): string[] {
	return [...(runScopeOf(context)?.keys ?? [])];
}
