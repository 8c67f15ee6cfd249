import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withLeadingKeys } from '../DocumentExtraction/helpers/keyOrder';
import { valuesField } from '../DocumentExtraction/helpers/values';
import { apiKeysOf, scrubError, secretsOf, waitClock, withoutSecrets } from '../DocumentExtraction/transport';
import type { FileStream } from './files';
import {
	PAGE_SIZE,
	STREAMS,
	fileIdsQueryValue,
	hasFailed,
	isProcessed,
	listFiles,
	stampOf,
} from './files';
import type { TriggerSettings } from './settings';
import { matchesFilters, readSettings } from './settings';
import type { TriggerState } from './state';
import { STATE_VERSION, configOf, readState, writeState } from './state';

/** Share of n8n's poll budget spent on starting requests; the rest is margin for the last ones. */
const BUDGET_SHARE = 0.75;
/** Files still being processed that the trigger remembers; beyond it the walk waits for room. */
const MAX_PENDING = 1000;
/** Start From "Now": files uploaded this long before activation are checked for being in flight. */
const IN_FLIGHT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** A pending file that has not changed for this long (against newer uploads) is given up. */
const PENDING_GIVE_UP_MS = 24 * 60 * 60 * 1000;
/** Values requests run side by side. */
const VALUES_CONCURRENCY = 4;
/** Restarts of a walk through files sharing one timestamp after the set shifted under it. */
const MAX_TIE_RESTARTS = 3;
/** Fetch Test Event looks at this many pages of the most recently changed files. */
const TEST_EVENT_PAGES = 5;

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
class PollBudget {
	private readonly deadline: number;
	progressed = false;

	constructor(context: IPollFunctions) {
		this.deadline = waitClock.now() + pollBudgetMs(context) * BUDGET_SHARE;
	}

	allows(): boolean {
		return !this.progressed || waitClock.now() < this.deadline;
	}
}

type Action = 'pass' | 'emit' | 'pend';

/** One poll of an active workflow: walks the stream from the cursor, then rechecks pending files. */
class PollRun {
	readonly items: INodeExecutionData[] = [];
	private readonly stream: FileStream;
	private cursorIds: Set<string>;
	private readonly historyUntilMs: number | undefined;

	constructor(
		private readonly context: IPollFunctions,
		private readonly settings: TriggerSettings,
		private readonly state: TriggerState,
		private readonly budget: PollBudget,
	) {
		this.stream = STREAMS[settings.event];
		this.cursorIds = new Set(state.cursor.ids);
		this.historyUntilMs =
			state.historyUntil === undefined ? undefined : Date.parse(state.historyUntil);
	}

	async execute(): Promise<void> {
		await this.walk();
		if (this.settings.event === 'fileProcessed') await this.recheckPending();
	}

	private cursorMs(): number | undefined {
		return this.state.cursor.at === null ? undefined : Date.parse(this.state.cursor.at);
	}

	private isBehindCursor(file: IDataObject): boolean {
		const cursorMs = this.cursorMs();
		if (cursorMs === undefined) return false;
		const { ms } = stampOf(this.context, file, this.stream);
		return ms < cursorMs || (ms === cursorMs && this.cursorIds.has(String(file.fileId)));
	}

	private advanceCursor(file: IDataObject): void {
		const { text, ms } = stampOf(this.context, file, this.stream);
		const id = String(file.fileId);
		const cursorMs = this.cursorMs();
		if (cursorMs === undefined || ms > cursorMs) {
			this.state.cursor = { at: text, ids: [id] };
			this.cursorIds = new Set([id]);
		} else if (!this.cursorIds.has(id)) {
			this.state.cursor.ids.push(id);
			this.cursorIds.add(id);
		}
	}

	private classify(file: IDataObject): Action {
		const isHistory =
			this.historyUntilMs !== undefined &&
			stampOf(this.context, file, this.stream).ms <= this.historyUntilMs;
		if (isProcessed(file)) {
			return isHistory || !matchesFilters(file, this.settings) ? 'pass' : 'emit';
		}
		// File Processed remembers files still in flight (also those uploaded shortly before
		// activation) and emits them once they finish; File Updated only follows processed files.
		if (this.settings.event === 'fileProcessed' && !hasFailed(file)) return 'pend';
		return 'pass';
	}

	private async list(anchor: string | null, page: number, limit: number) {
		return await listFiles.call(this.context, {
			...(anchor === null ? {} : { [this.stream.afterParameter]: anchor }),
			sortBy: this.stream.sortBy,
			sortOrder: 'ASC',
			page,
			limit,
		});
	}

	/**
	 * Keyset walk: list from the cursor's timestamp, handle the page in order, then list again
	 * from the timestamp of the page's last file (never page 2 of a set that may have changed).
	 * Only when a whole page shares the anchor timestamp does it read the next page number, and
	 * then it checks that the previous page's last file has not moved; if it has, it starts that
	 * timestamp again from page 1 (the ids in the cursor skip what was already handled).
	 */
	private async walk(): Promise<void> {
		let anchor = this.state.cursor.at;
		let page = 1;
		let restarts = 0;
		let previousLastId: string | undefined;
		for (;;) {
			if (!this.budget.allows()) return;
			const { files, count } = await this.list(anchor, page, PAGE_SIZE);
			if (page > 1) {
				const probe = await this.list(anchor, (page - 1) * PAGE_SIZE, 1);
				if (probe.files[0]?.fileId !== previousLastId) {
					restarts += 1;
					if (restarts > MAX_TIE_RESTARTS) return;
					page = 1;
					previousLastId = undefined;
					continue;
				}
			}
			if (!(await this.handlePage(files))) return;
			if (files.length < PAGE_SIZE) return;
			if (count !== undefined && count <= (page - 1) * PAGE_SIZE + files.length) return;
			const last = files[files.length - 1];
			const lastMs = stampOf(this.context, last, this.stream).ms;
			if (anchor === null || lastMs > Date.parse(anchor)) {
				anchor = this.state.cursor.at;
				page = 1;
				restarts = 0;
				previousLastId = undefined;
			} else {
				previousLastId = String(last.fileId);
				page += 1;
			}
		}
	}

	/**
	 * Handles the files of one page in order and moves the cursor over each handled file.
	 * Returns false when it stopped before the end of the page (budget, no room for pending
	 * files); throws after handling the files before a failed values request.
	 */
	private async handlePage(files: IDataObject[]): Promise<boolean> {
		const todo = files
			.filter((file) => !this.isBehindCursor(file))
			.map((file) => ({ file, action: this.classify(file) }));
		const { values, error } = await this.valuesOf(
			todo.filter((entry) => entry.action === 'emit').map((entry) => entry.file),
		);
		let complete = true;
		for (const { file, action } of todo) {
			const id = String(file.fileId);
			if (action === 'emit') {
				const extra = values.get(id);
				if (this.settings.includeValues && extra === undefined) {
					complete = false;
					break;
				}
				this.items.push({ json: withLeadingKeys({ ...file, ...(extra ?? {}) }) });
			} else if (action === 'pend' && !this.state.pending.includes(id)) {
				if (this.state.pending.length >= MAX_PENDING) {
					complete = false;
					break;
				}
				this.state.pending.push(id);
			}
			this.advanceCursor(file);
			this.budget.progressed = true;
		}
		if (error !== undefined) throw error;
		return complete;
	}

	/** Values of the files (when asked), side by side; stops at the first failure or the budget. */
	private async valuesOf(
		files: IDataObject[],
	): Promise<{ values: Map<string, IDataObject>; error?: unknown }> {
		const values = new Map<string, IDataObject>();
		if (!this.settings.includeValues || files.length === 0) return { values };
		let error: unknown;
		let next = 0;
		const worker = async () => {
			while (error === undefined && next < files.length && this.budget.allows()) {
				const id = String(files[next++].fileId);
				try {
					values.set(id, await valuesField.call(this.context, id, undefined, true));
				} catch (failure) {
					error ??= failure;
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(VALUES_CONCURRENCY, files.length) }, worker));
		return { values, error };
	}

	/** Asks for the pending files again: emits those now processed, forgets those that will not be. */
	private async recheckPending(): Promise<void> {
		const ids = [...this.state.pending];
		const newestMs = this.cursorMs();
		for (let start = 0; start < ids.length; start += PAGE_SIZE) {
			if (start > 0 && !this.budget.allows()) return;
			const batch = ids.slice(start, start + PAGE_SIZE);
			const { files } = await listFiles.call(this.context, {
				fileIds: fileIdsQueryValue(batch),
				page: 1,
				limit: PAGE_SIZE,
			});
			const byId = new Map(files.map((file) => [String(file.fileId), file]));
			const done = new Set<string>();
			const ready: IDataObject[] = [];
			for (const id of batch) {
				const file = byId.get(id);
				if (!file) {
					done.add(id); // deleted
				} else if (isProcessed(file)) {
					if (matchesFilters(file, this.settings)) ready.push(file);
					else done.add(id);
				} else if (hasFailed(file) || this.isAbandoned(file, newestMs)) {
					done.add(id);
				}
			}
			const { values, error } = await this.valuesOf(ready);
			for (const file of ready) {
				const id = String(file.fileId);
				const extra = values.get(id);
				if (this.settings.includeValues && extra === undefined) continue;
				this.items.push({ json: withLeadingKeys({ ...file, ...(extra ?? {}) }) });
				done.add(id);
			}
			if (done.size > 0) {
				this.state.pending = this.state.pending.filter((id) => !done.has(id));
				this.budget.progressed = true;
			}
			if (error !== undefined) throw error;
		}
	}

	/** Unchanged for PENDING_GIVE_UP_MS before the newest upload the trigger has seen. */
	private isAbandoned(file: IDataObject, newestMs: number | undefined): boolean {
		const updatedMs = Date.parse(String(file.updatedAt ?? ''));
		return newestMs !== undefined && !Number.isNaN(updatedMs) && newestMs - updatedMs > PENDING_GIVE_UP_MS;
	}
}

/**
 * Where a newly activated trigger starts. Start From "Now" asks the API for its newest file so
 * the start point is in the service's own clock, never n8n's: a clock difference between the two
 * can then neither drop nor replay files. That request counts as the poll's progress within the
 * budget; a start date needs no request, so the first poll still handles a page.
 */
async function initialState(
	this: IPollFunctions,
	settings: TriggerSettings,
	budget: PollBudget,
): Promise<TriggerState> {
	const base = { version: STATE_VERSION, config: configOf(settings), pending: [] as string[] };
	if (settings.startFrom === 'date' && settings.startDate !== undefined) {
		return { ...base, cursor: { at: settings.startDate, ids: [] } };
	}
	const stream = STREAMS[settings.event];
	const { files } = await listFiles.call(this, {
		sortBy: stream.sortBy,
		sortOrder: 'DESC',
		page: 1,
		limit: settings.event === 'fileUpdated' ? PAGE_SIZE : 1,
	});
	budget.progressed = true;
	if (files.length === 0) return { ...base, cursor: { at: null, ids: [] } };
	const newest = stampOf(this, files[0], stream);
	if (settings.event === 'fileUpdated') {
		// The cursor starts at the newest change, holding the files changed at that very instant.
		const ids = files
			.filter((file) => stampOf(this, file, stream).ms === newest.ms)
			.map((file) => String(file.fileId));
		return { ...base, cursor: { at: newest.text, ids } };
	}
	// File Processed walks back over the last day of uploads, emitting none of them, to note
	// those still being processed at activation: they are emitted when they finish.
	const at = new Date(newest.ms - IN_FLIGHT_LOOKBACK_MS).toISOString();
	return { ...base, cursor: { at, ids: [] }, historyUntil: newest.text };
}

/** "Fetch Test Event": the most recently changed processed file that passes the filters. */
async function fetchTestEvent(
	this: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	for (let page = 1; page <= TEST_EVENT_PAGES; page++) {
		const { files } = await listFiles.call(this, {
			sortBy: 'updatedAt',
			sortOrder: 'DESC',
			page,
			limit: PAGE_SIZE,
		});
		const match = files.find((file) => isProcessed(file) && matchesFilters(file, settings));
		if (match) {
			const extra = settings.includeValues
				? await valuesField.call(this, String(match.fileId), undefined, true)
				: {};
			return [withoutSecrets([{ json: withLeadingKeys({ ...match, ...extra }) }], apiKeysOf(this))];
		}
		if (files.length < PAGE_SIZE) break;
	}
	const filtered = settings.fileClasses.length > 0 || settings.schemaIds.length > 0;
	throw new NodeOperationError(
		this.getNode(),
		filtered
			? 'No processed document matches the filters yet'
			: 'No processed document in this workspace yet',
		{
			description: `The trigger looked at the ${TEST_EVENT_PAGES * PAGE_SIZE} most recently changed files. Upload a document (for example with the Document Extraction node), wait until it is processed, then fetch again${filtered ? ', or widen the filters' : ''}.`,
		},
	);
}

function asNodeError(context: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error);
	return scrubError(nodeError, secretsOf(context));
}

/**
 * The trigger's poll. A poll that fails before it has handled anything throws (n8n records the
 * error) and changes nothing. A poll that fails after handling some files keeps them: it emits
 * what it handled, moves the cursor exactly over those files, logs the error, and the next poll
 * continues from there. The static data is written once, at the end.
 */
export async function pollDocuments(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	if (this.getMode() === 'manual') return await fetchTestEvent.call(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	const budget = new PollBudget(this);
	let state = readState(staticData, settings);
	state ??= await initialState.call(this, settings, budget);
	const run = new PollRun(this, settings, state, budget);
	let failure: unknown;
	try {
		await run.execute();
	} catch (error) {
		failure = error;
	}
	if (failure !== undefined) {
		if (!budget.progressed) throw asNodeError(this, failure);
		this.logger.warn(
			`Document Extraction Trigger "${this.getNode().name}": the poll stopped after ${run.items.length} document(s); the next poll continues from there. Cause: ${asNodeError(this, failure).message}`,
			{ node: this.getNode().name, workflowId: this.getWorkflow().id },
		);
	}
	writeState(staticData, state);
	return run.items.length > 0 ? [withoutSecrets(run.items, apiKeysOf(this))] : null;
}


