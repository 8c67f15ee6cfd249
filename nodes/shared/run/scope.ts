import type { Deadline } from './waitBudget';
import { WaitBudget } from './waitBudget';
import type { ApiContext } from './context';
import type { Limits } from '../limits';
import { limitsFor } from '../limits';

/**
 * What the requests of one node run (all its items and batches) or one poll share: each item's
 * options and wait budget, and the secrets seen (the API key, presigned URL signatures) that no
 * error or item may show. (The credential read once per item is kept by connection.ts; the
 * rate-limit gate is the key's, for the whole process: rateGate.ts.)
 */
export interface RunScope {
	budgets: Map<number | undefined, WaitBudget>;
	/** Each item's Max Retry Wait and Request Timeout, read once (n8n resolves a parameter on every read). */
	limits: Map<number | undefined, Limits>;
	/** Every value no message may show: API keys and presigned URL signatures. */
	secrets: Set<string>;
	/** The API keys alone: no output item may show them either. */
	keys: Set<string>;
	/** No retry wait of the run may end past this moment (wait clock, epoch ms): a poll's budget. */
	waitDeadline?: number;
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
 * credential edited between polls is used by the next one, and a budget starts full).
 */
export async function withRunScope<T>(
	context: ApiContext,
	run: () => Promise<T>,
	options: { waitDeadline?: number } = {},
): Promise<T> {
	let entry = scopes.get(context);
	if (!entry) {
		entry = {
			openRuns: 0,
			scope: {
				budgets: new Map(),
				limits: new Map(),
				secrets: new Set(),
				keys: new Set(),
				waitDeadline: options.waitDeadline,
			},
		};
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

/** The item's Max Retry Wait and Request Timeout, read once per run scope. */
export function limitsOf(context: ApiContext, itemIndex: number | undefined): Limits {
	const scope = runScopeOf(context);
	let limits = scope?.limits.get(itemIndex);
	if (!limits) {
		limits = limitsFor(context, itemIndex);
		scope?.limits.set(itemIndex, limits);
	}
	return limits;
}

/**
 * The wait budget of an item (of the poll, for itemIndex undefined): shared by all its requests
 * within the run scope; a fresh one per request outside a scope (editor lookups).
 */
export function budgetFor(context: ApiContext, itemIndex: number | undefined): WaitBudget {
	const scope = runScopeOf(context);
	let budget = scope?.budgets.get(itemIndex);
	if (!budget) {
		budget = new WaitBudget(limitsOf(context, itemIndex).maxWaitMs);
		scope?.budgets.set(itemIndex, budget);
	}
	return budget;
}

/** The moment after which no retry wait of this run may end (a poll's budget), if any. */
export function waitDeadlineOf(context: ApiContext): Deadline | undefined {
	const at = runScopeOf(context)?.waitDeadline;
	return at === undefined ? undefined : { at, note: 'Waiting that long would go past the time n8n gives this poll' };
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
