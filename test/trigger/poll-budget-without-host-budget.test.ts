/**
 * n8n 1.x's poll context has no getPollBudgetMs: the trigger then bounds a poll by n8n 2.x's
 * default (5 minutes) instead of running without a limit.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { pollBudgetMs } from '../../nodes/DocumentExtractionTrigger/pollBudget';

describe('poll budget', () => {
	it('is 5 minutes when n8n has no getPollBudgetMs (n8n 1.x)', () => {
		const n8n1Context = {} as IPollFunctions;
		expect(pollBudgetMs(n8n1Context)).toBe(5 * 60 * 1000);
	});

	it('is what n8n gives when it has getPollBudgetMs (n8n 2.x)', () => {
		const n8n2Context = { getPollBudgetMs: () => 42_000 } as unknown as IPollFunctions;
		expect(pollBudgetMs(n8n2Context)).toBe(42_000);
	});

	it('falls back to 5 minutes when n8n gives no usable budget', () => {
		for (const given of [0, -1, Number.NaN, undefined]) {
			const context = { getPollBudgetMs: () => given } as unknown as IPollFunctions;
			expect(pollBudgetMs(context)).toBe(5 * 60 * 1000);
		}
	});
});
