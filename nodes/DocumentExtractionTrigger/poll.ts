import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollPolicy } from '../shared/requestPolicy';
import { waitClock } from '../shared/run';
import { asNodeError } from '../shared/nodeError';
import { PollBudget, pollBudgetMs } from './pollBudget';
import { PollRun } from './pollRun';
import { reportPoll } from './report';
import { readSettings } from './settings';
import { fetchTestEvent, initialState } from './start';
import { readState, writeState } from './state';

/**
 * The trigger's poll. A poll that fails before it has handled anything throws (n8n records the
 * error) and changes nothing. A poll that fails after handling some files keeps them: it emits
 * what it handled, moves the cursor exactly over those files, logs the error, and the next poll
 * continues from there. Every item is complete (values, key order, redaction) before the static
 * data is written, once, at the end: nothing that can fail runs after the state moved.
 */
export async function pollDocuments(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	// The poll's request options, read once; no retry wait ends past the time n8n gives the poll.
	const policy = pollPolicy(this, waitClock.now() + pollBudgetMs(this));
	if (this.getMode() === 'manual') return await fetchTestEvent.call(this, settings, policy);

	const staticData = this.getWorkflowStaticData('node');
	const budget = new PollBudget(this);
	const nowMs = waitClock.now();
	let state = readState(staticData, settings);
	state ??= await initialState.call(this, settings, policy, nowMs, () => (budget.progressed = true));
	const run = new PollRun(this, settings, state, budget, policy, nowMs);
	let failure: unknown;
	try {
		await run.execute();
	} catch (error) {
		failure = error;
	}
	if (failure !== undefined && !budget.progressed) throw asNodeError(this, failure);
	reportPoll(this, settings, run.summary(), failure);
	writeState(staticData, state);
	return run.items.length > 0 ? [run.items] : null;
}
