import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollPolicy } from '../shared/requestPolicy';
import type { RequestPolicy } from '../shared/run';
import { apiKeysOf, waitClock } from '../shared/run';
import type { FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles, withoutSecrets } from '../shared/api';
import { forEachConcurrently } from '../shared/concurrency';
import { TRIGGER_LIMITS } from '../shared/limits';
import { asNodeError } from '../shared/nodeError';
import { documentItem } from '../shared/output/documentItem';
import { valuesField } from '../shared/output/values';
import { PollBudget, pollBudgetMs } from './pollBudget';
import type { FileStream } from './files';
import { STREAMS, hasFailed, isProcessed, stampOf } from './files';
import { Position } from './position';
import type { TriggerSettings } from './settings';
import { fileFilter, readSettings } from './settings';
import { fetchTestEvent, initialState } from './start';
import type { TriggerState } from './state';
import { readState, writeState } from './state';
import { Walker } from './walk';

const { maxPending: MAX_PENDING, maxAhead: MAX_AHEAD, pendingGiveUpMs: PENDING_GIVE_UP_MS, valuesConcurrency: VALUES_CONCURRENCY } =
	TRIGGER_LIMITS;

type Action = 'pass' | 'emit' | 'pend';
/** `main`: the walk from the cursor. `ahead`: the walk from the frontier while the cursor waits. */
type Walk = 'main' | 'ahead';

/** One poll of an active workflow: walks the stream from the cursor, then rechecks pending files. */
class PollRun {
	readonly items: INodeExecutionData[] = [];
	private readonly stream: FileStream;
	private readonly passes: (file: FileRecord) => boolean;
	private readonly historyUntilMs: number | undefined;
	private readonly walker: Walker;
	private readonly cursor: Position;
	private frontier: Position | undefined;
	private readonly pending: Set<string>;
	private readonly ahead: Set<string>;
	/** What this poll emitted: a file (File Processed) or a version of one (File Updated) once. */
	private readonly emitted = new Set<string>();
	/** The main walk met a file in flight with no room left to remember it. */
	private blocked = false;

	constructor(
		private readonly context: IPollFunctions,
		private readonly settings: TriggerSettings,
		private readonly state: TriggerState,
		private readonly budget: PollBudget,
		private readonly policy: RequestPolicy,
	) {
		this.stream = STREAMS[settings.event];
		this.passes = fileFilter(settings);
		this.historyUntilMs = state.historyUntil === undefined ? undefined : Date.parse(state.historyUntil);
		this.walker = new Walker(context, policy, this.stream, () => this.budget.allows() && this.room() > 0);
		this.cursor = Position.of(state.cursor);
		this.frontier = state.frontier === undefined ? undefined : Position.of(state.frontier);
		this.pending = new Set(state.pending);
		this.ahead = new Set(state.ahead ?? []);
	}

	async execute(): Promise<void> {
		try {
			await this.walker.walk(this.cursor, async (files) => await this.handlePage(files, 'main'));
			this.settleFrontier();
			if (this.blocked && this.frontier !== undefined && this.ahead.size < MAX_AHEAD) {
				await this.walker.walk(this.frontier, async (files) => await this.handlePage(files, 'ahead'));
			}
			if (this.settings.event === 'fileProcessed') await this.recheckPending();
		} finally {
			this.saveTo(this.state);
		}
	}

	/** Items this poll may still emit. */
	private room(): number {
		return this.settings.maxItems - this.items.length;
	}

	/** Drops the frontier once the cursor has caught up with it; starts one where the cursor waits. */
	private settleFrontier(): void {
		if (this.frontier !== undefined && this.cursor.covers(this.frontier)) {
			this.frontier = undefined;
			this.ahead.clear();
		}
		if (this.blocked && this.frontier === undefined) this.frontier = this.cursor.clone();
	}

	private saveTo(state: TriggerState): void {
		state.cursor = this.cursor.toCursor();
		state.pending = [...this.pending];
		if (this.frontier === undefined) {
			delete state.frontier;
			delete state.ahead;
		} else {
			state.frontier = this.frontier.toCursor();
			state.ahead = [...this.ahead];
		}
	}

	private classify(file: FileRecord): Action {
		const isHistory =
			this.historyUntilMs !== undefined && stampOf(this.context, file, this.stream).ms <= this.historyUntilMs;
		if (isProcessed(file)) return isHistory || !this.passes(file) ? 'pass' : 'emit';
		// File Processed remembers files still in flight (also those uploaded shortly before
		// activation) and emits them once they finish; File Updated only follows processed files.
		if (this.settings.event === 'fileProcessed' && !hasFailed(file)) return 'pend';
		return 'pass';
	}

	private emittedKey(file: FileRecord): string {
		const id = String(file.fileId);
		return this.settings.event === 'fileProcessed' ? id : `${id}@${stampOf(this.context, file, this.stream).ms}`;
	}

	/**
	 * What to do with each file of a page, in order, within the room left (items, pending ids,
	 * ahead ids); stops at the first file there is no room for.
	 */
	private decide(files: FileRecord[], walk: Walk): { plan: Array<{ file: FileRecord; action: Action }>; complete: boolean } {
		const plan: Array<{ file: FileRecord; action: Action }> = [];
		let emits = 0;
		let pends = 0;
		for (const file of files) {
			const id = String(file.fileId);
			let action: Action = walk === 'main' && this.ahead.has(id) ? 'pass' : this.classify(file);
			if (action === 'emit' && this.emitted.has(this.emittedKey(file))) action = 'pass';
			if (walk === 'ahead' && (action === 'pend' || this.pending.has(id))) action = 'pass';
			if (action === 'pend' && this.pending.has(id)) action = 'pass';
			if (action === 'emit') {
				if (emits >= this.room()) return { plan, complete: false };
				if (walk === 'ahead' && this.ahead.size + emits >= MAX_AHEAD) return { plan, complete: false };
				emits += 1;
			} else if (action === 'pend') {
				if (this.pending.size + pends >= MAX_PENDING) {
					this.blocked = true;
					return { plan, complete: false };
				}
				pends += 1;
			}
			plan.push({ file, action });
		}
		return { plan, complete: true };
	}

	/**
	 * Handles the files of one page in order and moves the walk's position over each handled
	 * file. Returns false when it stopped before the end of the page (no room left); throws after
	 * handling the files before a failed values request.
	 */
	private async handlePage(files: FileRecord[], walk: Walk): Promise<boolean> {
		const position = walk === 'main' ? this.cursor : (this.frontier as Position);
		const { plan, complete } = this.decide(files, walk);
		const { values, error } = await this.valuesOf(plan.filter((step) => step.action === 'emit').map((step) => step.file));
		for (const { file, action } of plan) {
			const id = String(file.fileId);
			if (action === 'emit') {
				if (!this.emit(file, values)) return false;
				if (walk === 'ahead') this.ahead.add(id);
				else this.pending.delete(id);
			} else if (action === 'pend') {
				this.pending.add(id);
			}
			if (walk === 'main') this.ahead.delete(id);
			const { text, ms } = stampOf(this.context, file, this.stream);
			position.advance(text, ms, id);
			this.budget.progressed = true;
		}
		if (error !== undefined) throw error;
		return complete;
	}

	/** Adds the item of a file (with its values when asked); false when its values are missing. */
	private emit(file: FileRecord, values: Map<string, IDataObject>): boolean {
		const extra = values.get(String(file.fileId));
		if (this.settings.includeValues && extra === undefined) return false;
		this.items.push(documentItem(file, extra));
		this.emitted.add(this.emittedKey(file));
		return true;
	}

	/** Values of the files (when asked), side by side; stops at the first failure or the budget. */
	private async valuesOf(files: FileRecord[]): Promise<{ values: Map<string, IDataObject>; error?: unknown }> {
		const values = new Map<string, IDataObject>();
		if (!this.settings.includeValues || files.length === 0) return { values };
		try {
			await forEachConcurrently(
				files.length,
				VALUES_CONCURRENCY,
				async (index) => {
					const id = String(files[index].fileId);
					values.set(id, await valuesField.call(this.context, id, this.policy, true));
				},
				() => !this.budget.allows(),
			);
		} catch (error) {
			return { values, error };
		}
		return { values };
	}

	/** Asks for the pending files again: emits those now processed, forgets those that will not be. */
	private async recheckPending(): Promise<void> {
		const ids = [...this.pending];
		const newestMs = Math.max(this.cursor.ms ?? Number.NaN, this.frontier?.ms ?? this.cursor.ms ?? Number.NaN);
		for (let start = 0; start < ids.length; start += FILE_PAGE_SIZE) {
			if (start > 0 && !this.budget.allows()) return;
			const batch = ids.slice(start, start + FILE_PAGE_SIZE);
			const { files } = await listFiles.call(this.context, { fileIds: batch, page: 1, limit: FILE_PAGE_SIZE }, { policy: this.policy });
			const byId = new Map(files.map((file) => [String(file.fileId), file]));
			const ready: FileRecord[] = [];
			const before = this.pending.size;
			for (const id of batch) {
				const file = byId.get(id);
				if (!file) {
					this.pending.delete(id); // deleted
				} else if (isProcessed(file)) {
					if (!this.passes(file) || this.emitted.has(id)) this.pending.delete(id);
					else if (ready.length < this.room()) ready.push(file);
				} else if (hasFailed(file) || this.isAbandoned(file, newestMs)) {
					this.pending.delete(id);
				}
			}
			const { values, error } = await this.valuesOf(ready);
			for (const file of ready) {
				if (this.emit(file, values)) this.pending.delete(String(file.fileId));
			}
			if (this.pending.size < before) this.budget.progressed = true;
			if (error !== undefined) throw error;
		}
	}

	/** Unchanged for PENDING_GIVE_UP_MS before the newest upload the trigger has seen. */
	private isAbandoned(file: FileRecord, newestMs: number): boolean {
		const updatedMs = Date.parse(String(file.updatedAt ?? ''));
		return !Number.isNaN(newestMs) && !Number.isNaN(updatedMs) && newestMs - updatedMs > PENDING_GIVE_UP_MS;
	}
}

/**
 * The trigger's poll. A poll that fails before it has handled anything throws (n8n records the
 * error) and changes nothing. A poll that fails after handling some files keeps them: it emits
 * what it handled, moves the cursor exactly over those files, logs the error, and the next poll
 * continues from there. The static data is written once, at the end.
 */
export async function pollDocuments(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	// The poll's request options, read once; no retry wait ends past the time n8n gives the poll.
	const policy = pollPolicy(this, waitClock.now() + pollBudgetMs(this));
	if (this.getMode() === 'manual') return await fetchTestEvent.call(this, settings, policy);

	const staticData = this.getWorkflowStaticData('node');
	const budget = new PollBudget(this);
	let state = readState(staticData, settings);
	state ??= await initialState.call(this, settings, policy, () => (budget.progressed = true));
	const run = new PollRun(this, settings, state, budget, policy);
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
