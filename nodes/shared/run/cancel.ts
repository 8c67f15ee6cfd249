import { NodeOperationError } from 'n8n-workflow';

import type { WaitBudget } from './waitBudget';
import { waitClock } from './clock';
import type { ApiContext } from './context';
import { cancelSignalOf } from './context';

/** The execution was stopped: nothing more is sent (error.context.cancelled is true). */
export function cancelledError(context: ApiContext): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		'The execution was stopped; no further requests were sent.',
	);
	error.context.cancelled = true;
	return error;
}

export function isCancelled(context: ApiContext): boolean {
	return cancelSignalOf(context)?.aborted === true;
}

export function throwIfCancelled(context: ApiContext): void {
	if (isCancelled(context)) throw cancelledError(context);
}

/**
 * Waits `ms` on the wait clock, charged to `budget` when given; ends at once with
 * cancelledError when the execution is stopped (the only way the clock's sleep fails).
 */
export async function pause(context: ApiContext, ms: number, budget?: WaitBudget): Promise<void> {
	throwIfCancelled(context);
	if (ms <= 0) return;
	budget?.charge(ms);
	try {
		await waitClock.sleep(ms, cancelSignalOf(context));
	} catch {
		throw cancelledError(context);
	}
}
