/**
 * What one node run or one poll shares, below the request path: the n8n context the package is
 * called from, the request policy of an item or a poll, the run scope (the secrets seen),
 * stopping, and the wait clock every wait is measured on.
 *
 *   context.ts     the n8n contexts the package runs in; their cancel signal
 *   policy.ts      the request policy: every bound of an item's (a poll's) requests, built once
 *   scope.ts       what one run or poll shares (the secrets seen)
 *   waitBudget.ts  the one budget type (Max Retry Wait) and deadlines
 *   cancel.ts      stopping: the cancel signal and waits that end on it
 *   clock.ts       the time source of every wait (replaceable in tests)
 */
export type { ApiContext } from './context';
export { cancelSignalOf } from './context';
export type { BoundNames, ItemPolicy, RequestLimits, RequestPolicy } from './policy';
export { limitsOfPolicy, requestPolicy } from './policy';
export { apiKeysOf, secretsOf, withRunScope } from './scope';
export type { Deadline } from './waitBudget';
export { cancelledError, isCancelled, pause, throwIfCancelled } from './cancel';
export { waitClock } from './clock';
