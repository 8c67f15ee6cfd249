import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { FileRecord } from '../shared/api';
import type { RequestPolicy } from '../shared/run';
import { forEachConcurrently } from '../shared/concurrency';
import { TRIGGER_LIMITS } from '../shared/limits';
import { valuesField } from '../shared/output/values';
import type { PollBudget } from './pollBudget';

/**
 * Include Extracted Values: the values of the files, TRIGGER_LIMITS.valuesConcurrency at a time;
 * stops at the first failure (returned, not thrown: the files before it are handled) or when the
 * poll's budget ends. Nothing when not asked.
 */
export async function valuesOf(
	context: IPollFunctions,
	policy: RequestPolicy,
	includeValues: boolean,
	budget: PollBudget,
	files: FileRecord[],
): Promise<{ values: Map<string, IDataObject>; error?: unknown }> {
	const values = new Map<string, IDataObject>();
	if (!includeValues || files.length === 0) return { values };
	try {
		await forEachConcurrently(
			files.length,
			TRIGGER_LIMITS.valuesConcurrency,
			async (index) => {
				const id = String(files[index].fileId);
				values.set(id, await valuesField(context, id, policy, true));
			},
			() => !budget.allows(),
		);
	} catch (error) {
		return { values, error };
	}
	return { values };
}
