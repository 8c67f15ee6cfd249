import type { IPollFunctions } from 'n8n-workflow';

import { OUTPUT_LIMITS } from '../shared/limits';
import { asNodeError } from '../shared/nodeError';
import { STREAMS } from './files';
import type { TriggerSettings } from './settings';

/** What a poll did that its log reports. */
export interface PollSummary {
	items: number;
	/** Files listed with an id that is not a file id, and a few of them as shown. */
	badIdCount: number;
	badIds: string[];
	/** Files without a readable timestamp reported for the first time. */
	unplacedReported: string[];
	/** Items with values cut (too deep), and records that could not be made into items. */
	cut: number;
	failed: number;
}

/** Ids a log line names at most; it counts the rest. */
const NAMED = 3;

function named(ids: string[], count = ids.length): string {
	const list = ids.slice(0, NAMED).join(', ');
	return count > NAMED ? `${list} and ${count - NAMED} more` : list;
}

/**
 * n8n's log after a poll: one warning for a poll that stopped after handling some files, and one
 * for what the service answered that the trigger could not use as sent (ids that are not file ids,
 * timestamps that are not RFC 3339, values nested too deep, records that could not be made into
 * items). Bounded: a few ids named, the rest counted; each unplaced file is reported once.
 */
export function reportPoll(context: IPollFunctions, settings: TriggerSettings, run: PollSummary, failure: unknown): void {
	const node = context.getNode().name;
	const meta = { node, workflowId: context.getWorkflow().id };
	if (failure !== undefined) {
		context.logger.warn(
			`Document Extraction Trigger "${node}": the poll stopped after ${run.items} document(s); the next poll continues from there. Cause: ${asNodeError(context, failure).message}`,
			meta,
		);
	}
	const { sortBy } = STREAMS[settings.event];
	const notes: string[] = [];
	if (run.badIdCount > 0) {
		notes.push(
			`${run.badIdCount} listed file(s) have a fileId that is not a file ID of the API (${named(run.badIds, run.badIdCount)}): skipped, neither emitted nor kept nor sent back`,
		);
	}
	const reported = run.unplacedReported;
	if (reported.length > 0) {
		notes.push(
			`${reported.length} file(s) have a ${sortBy} that is not an RFC 3339 timestamp (${named(reported)}): each is emitted once (File Processed: once processed) with a note in triggerNotes, apart from the order of the others, which it does not hold up`,
		);
	}
	if (run.cut > 0) {
		notes.push(
			`${run.cut} item(s) had values nested more than ${OUTPUT_LIMITS.maxItemDepth} levels deep, replaced by a marker (see triggerNotes)`,
		);
	}
	if (run.failed > 0) {
		notes.push(`${run.failed} record(s) could not be made into items: each was emitted as an item with an error field`);
	}
	if (notes.length > 0) {
		context.logger.warn(`Document Extraction Trigger "${node}": the service answered what the trigger could not use as sent. ${notes.join('; ')}.`, meta);
	}
}
