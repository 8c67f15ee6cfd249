import type { IPollFunctions } from 'n8n-workflow';

import { TRIGGER_LIMITS } from '../shared/limits';
import { waitClock } from '../shared/run';

const { pollBudgetShare: BUDGET_SHARE, defaultPollBudgetMs: DEFAULT_POLL_BUDGET_MS } = TRIGGER_LIMITS;

/** What n8n gives this poll (`getPollBudgetMs`), or DEFAULT_POLL_BUDGET_MS where it has no such call. */
export function pollBudgetMs(context: IPollFunctions): number {
	const host = context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>;
	const budgetMs = typeof host.getPollBudgetMs === 'function' ? host.getPollBudgetMs() : undefined;
	return typeof budgetMs === 'number' && budgetMs > 0 ? budgetMs : DEFAULT_POLL_BUDGET_MS;
}

/**
 * Stops starting requests once the poll has used its share of its budget, but never before the
 * poll has made progress. (No request of the poll reaches past the whole budget: the trigger's
 * run scope has it as deadline.)
 */
export class PollBudget {
	private readonly deadline: number;
	progressed = false;

	constructor(context: IPollFunctions) {
		this.deadline = waitClock.now() + pollBudgetMs(context) * BUDGET_SHARE;
	}

	allows(): boolean {
		return !this.progressed || waitClock.now() < this.deadline;
	}
}
