import type { Deadline } from './waitBudget';
import { WaitBudget } from './waitBudget';

/**
 * The request policy: every bound the request path applies to the requests of one item of the
 * action node, of one poll of the trigger, or of one editor lookup. Built once where that run
 * starts (nodes/shared/requestPolicy.ts reads the options into it) and handed down through the
 * API layer to the request path, which reads no parameter and looks nothing up by item. Every
 * field is required (`| undefined` where there may be none), so no caller can leave a bound out.
 */
export interface RequestPolicy {
	/** The item the requests are for: errors name it. Undefined for a poll or an editor lookup. */
	readonly itemIndex: number | undefined;
	/** Request Timeout: one API attempt, from sending to the answer's last byte; a transfer's idle time. */
	readonly requestTimeoutMs: number;
	/** Max Answer Size: the largest API answer read into memory (and a download of unknown size). */
	readonly maxAnswerBytes: number;
	/** Max List Size: the answers of all the pages of one list read page by page, together. */
	readonly maxListBytes: number;
	/** Min Transfer Speed over Low Speed Time: storage transfers slower than this are abandoned. */
	readonly lowSpeed: { readonly minBytesPerSecond: number; readonly windowMs: number };
	/** Max Retry Wait: one budget for all the waits and repeated attempts of the item (or poll). */
	readonly budget: WaitBudget;
	/** No retry wait ends past this moment: the time n8n gives a poll. */
	readonly waitDeadline: Deadline | undefined;
	/**
	 * Nothing goes past this moment: no attempt starts, no wait ends, and an attempt is cut short by
	 * it (an editor lookup's answer time, EDITOR_LIMITS.answerWithinMs).
	 */
	readonly deadline: Deadline | undefined;
	/** How messages name the bounds: the options of an item or a poll, or an editor lookup's own. */
	readonly names: BoundNames;
	/** The execution's stop: ends every wait and aborts every request at once. */
	readonly cancelSignal: AbortSignal | undefined;
}

/** How messages name a policy's bounds. */
export interface BoundNames {
	/** The Request Timeout, as in "no answer within 10 s (…)". */
	readonly requestTimeout: string;
}

/** The bounds of an item, a poll or a callback: the options the user set. */
export const OPTION_NAMES: BoundNames = { requestTimeout: 'the Request Timeout option' };

/** The policy of one input item of the action node: a write needs its item (its Idempotency-Key). */
export interface ItemPolicy extends RequestPolicy {
	readonly itemIndex: number;
}

/** The bounds an item's options set, in the request path's units (read and checked by requestPolicy.ts). */
export interface RequestLimits {
	maxWaitMs: number;
	requestTimeoutMs: number;
	maxAnswerBytes: number;
	maxListBytes: number;
	minBytesPerSecond: number;
	lowSpeedWindowMs: number;
}

/** Where the policy applies: the item, the poll's time, the stop signal. */
interface PolicyScope<I extends number | undefined> {
	itemIndex: I;
	waitDeadline: Deadline | undefined;
	cancelSignal: AbortSignal | undefined;
	/** An editor lookup's own bounds: its deadline, and the names of its budget and timeout (default: the options'). */
	lookup?: { deadline: Deadline; names: BoundNames; budgetName: string; holder: string };
}

/** A policy from checked limits, with a fresh budget of Max Retry Wait. */
export function requestPolicy(limits: RequestLimits, scope: PolicyScope<number>): ItemPolicy;
export function requestPolicy(limits: RequestLimits, scope: PolicyScope<undefined>): RequestPolicy;
export function requestPolicy(limits: RequestLimits, scope: PolicyScope<number | undefined>): RequestPolicy {
	return {
		itemIndex: scope.itemIndex,
		requestTimeoutMs: limits.requestTimeoutMs,
		maxAnswerBytes: limits.maxAnswerBytes,
		maxListBytes: limits.maxListBytes,
		lowSpeed: { minBytesPerSecond: limits.minBytesPerSecond, windowMs: limits.lowSpeedWindowMs },
		budget: scope.lookup ? new WaitBudget(limits.maxWaitMs, scope.lookup.budgetName, scope.lookup.holder) : new WaitBudget(limits.maxWaitMs),
		waitDeadline: scope.waitDeadline,
		deadline: scope.lookup?.deadline,
		names: scope.lookup?.names ?? OPTION_NAMES,
		cancelSignal: scope.cancelSignal,
	};
}

/** The bounds a policy applies, as the limits it was built from (kept with a waiting execution). */
export function limitsOfPolicy(policy: RequestPolicy): RequestLimits {
	return {
		maxWaitMs: policy.budget.limitMs,
		requestTimeoutMs: policy.requestTimeoutMs,
		maxAnswerBytes: policy.maxAnswerBytes,
		maxListBytes: policy.maxListBytes,
		minBytesPerSecond: policy.lowSpeed.minBytesPerSecond,
		lowSpeedWindowMs: policy.lowSpeed.windowMs,
	};
}
