/**
 * What one node run or one poll shares, below the request path: the n8n context the package is
 * called from, the run scope (each item's options and wait budget, the secrets seen), stopping,
 * and the wait clock every wait is measured on.
 *
 *   context.ts     the n8n contexts the package runs in; a parameter read in any of them
 *   scope.ts       what one run or poll shares (budgets, options, secrets seen)
 *   waitBudget.ts  the one budget type (Max Retry Wait) and deadlines
 *   cancel.ts      stopping: the cancel signal and waits that end on it
 *   clock.ts       the time source of every wait (replaceable in tests)
 */
export type { ApiContext } from './context';
export { apiKeysOf, limitsOf, secretsOf, withRunScope } from './scope';
export type { Deadline } from './waitBudget';
export { cancelledError, isCancelled, pause, throwIfCancelled } from './cancel';
export { waitClock } from './clock';
