import type { IPollFunctions } from 'n8n-workflow';

import { waitClock } from '../shared/run';

/** Share of n8n's poll budget spent on starting requests; the rest is margin for the last ones. */
const BUDGET_SHARE = 0.75;
/** A poll's time when n8n does not say (n8n 1.x has no getPollBudgetMs): n8n 2.x's default. */
const DEFAULT_POLL_BUDGET_MS = 5 * 60 * 1000;

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
