import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { RequestPolicy } from '../shared/run';
import { apiKeysOf } from '../shared/run';
import type { FileRecord } from '../shared/api';
import { FILE_PAGE_SIZE, listFiles } from '../shared/api';
import { TRIGGER_LIMITS } from '../shared/limits';
import type { PollBudget } from './pollBudget';
import type { FileStream, Listed } from './files';
import { STREAMS, fileIdOf, hasFailed, isProcessed, stampOf } from './files';
import { EarlyFiles, UnplacedFiles } from './handled';
import { triggerItem } from './items';
import { Position } from './position';
import type { PollSummary } from './report';
import type { TriggerSettings } from './settings';
import { fileFilter } from './settings';
import type { Stamp } from './stamps';
import { parseStamp } from './stamps';
import type { TriggerState } from './state';
import { valuesOf } from './values';
import { Walker } from './walk';

const { maxPending: MAX_PENDING, maxAhead: MAX_AHEAD, maxEarly: MAX_EARLY, pendingGiveUpMs: PENDING_GIVE_UP_MS, cursorLagMs: CURSOR_LAG_MS } =
	TRIGGER_LIMITS;

type Action = 'pass' | 'emit' | 'pend';
/** `main`: the walk from the cursor. `ahead`: the walk from the frontier while the cursor waits. */
type Walk = 'main' | 'ahead';

/** One poll of an active workflow: walks the stream from the cursor, then rechecks pending files. */
export class PollRun {
	readonly items: INodeExecutionData[] = [];
	/** Items that stand for a record with values cut (too deep), or for one that could not be made into an item. */
	readonly itemReports = { cut: 0, failed: 0 };
	readonly walker: Walker;
	readonly unplaced: UnplacedFiles;
	private readonly stream: FileStream;
	private readonly passes: (file: FileRecord) => boolean;
	private readonly historyUntilMs: number | undefined;
	/** The cursor (and the frontier) never pass this: n8n's clock minus CURSOR_LAG_MS. */
	private readonly horizonMs: number;
	private readonly cursor: Position;
	private frontier: Position | undefined;
	private readonly pending: Set<string>;
	private readonly ahead: Set<string>;
	private readonly early: EarlyFiles;
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
		nowMs: number,
	) {
		this.stream = STREAMS[settings.event];
		this.passes = fileFilter(settings);
		this.historyUntilMs = parseStamp(state.historyUntil)?.ms;
		this.horizonMs = nowMs - CURSOR_LAG_MS;
		this.walker = new Walker(context, policy, this.stream, () => this.budget.allows() && this.room() > 0, { nowMs });
		this.cursor = Position.of(state.cursor);
		this.frontier = state.frontier === undefined ? undefined : Position.of(state.frontier);
		this.pending = new Set(state.pending);
		this.ahead = new Set(state.ahead ?? []);
		this.early = new EarlyFiles(state.early);
		this.unplaced = new UnplacedFiles(state.unplaced);
	}

	/** What the poll's log reports (report.ts). */
	summary(): PollSummary {
		const { badIdCount, badIds } = this.walker;
		return { items: this.items.length, badIdCount, badIds, unplacedReported: this.unplaced.reported, ...this.itemReports };
	}

	/** Walks and rechecks; whatever happens, `state` holds exactly what was handled (nothing is written here). */
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
		state.early = this.early.toStored(this.cursor);
		state.unplaced = this.unplaced.toStored();
	}

	private classify(file: FileRecord, stamp: Stamp): Action {
		const isHistory = this.historyUntilMs !== undefined && stamp.ms <= this.historyUntilMs;
		if (isProcessed(file)) return isHistory || !this.passes(file) ? 'pass' : 'emit';
		// File Processed remembers files still in flight (also those uploaded shortly before
		// activation) and emits them once they finish; File Updated only follows processed files.
		if (this.settings.event === 'fileProcessed' && !hasFailed(file)) return 'pend';
		return 'pass';
	}

	private emittedKey(id: string, stamp: Stamp | undefined): string {
		return this.settings.event === 'fileProcessed' ? id : `${id}@${stamp?.ms ?? '?'}`;
	}

	/** A file the stream cannot place (no readable timestamp): reported once, by being emitted or remembered. */
	private classifyUnplaced({ file, id }: Listed, walk: Walk): Action {
		if (this.unplaced.has(id) || this.pending.has(id) || (walk === 'main' && this.ahead.has(id))) return 'pass';
		// Handled before its timestamp became unreadable (ahead of the cursor, or at the cursor's own
		// timestamp, which "on or after" lists again); File Updated emits its next readable version.
		if (this.early.hasFile(id) || this.cursor.has(id) || this.frontier?.has(id)) return 'pass';
		if (this.emitted.has(this.emittedKey(id, undefined))) return 'pass';
		if (isProcessed(file)) return this.passes(file) ? 'emit' : 'pass';
		if (this.settings.event === 'fileProcessed' && !hasFailed(file) && walk === 'main') return 'pend';
		return 'pass';
	}

	private classifyPlaced({ file, id, stamp }: Listed & { stamp: Stamp }, walk: Walk): Action {
		const handled =
			this.early.has(id, stamp) ||
			(walk === 'main' && this.ahead.has(id)) ||
			(this.settings.event === 'fileProcessed' && this.unplaced.has(id));
		let action: Action = handled ? 'pass' : this.classify(file, stamp);
		if (action === 'emit' && this.emitted.has(this.emittedKey(id, stamp))) action = 'pass';
		if (walk === 'ahead' && (action === 'pend' || this.pending.has(id))) action = 'pass';
		if (action === 'pend' && this.pending.has(id)) action = 'pass';
		return action;
	}

	/**
	 * What to do with each file of a page, in order, within the room left (items, pending ids,
	 * ahead and early ids); stops at the first file there is no room for.
	 */
	private decide(files: Listed[], walk: Walk): { plan: Array<{ entry: Listed; action: Action }>; complete: boolean } {
		const plan: Array<{ entry: Listed; action: Action }> = [];
		let emits = 0;
		let pends = 0;
		let aheadEmits = 0;
		let earlyEmits = 0;
		for (const entry of files) {
			const { stamp } = entry;
			const action = stamp === undefined ? this.classifyUnplaced(entry, walk) : this.classifyPlaced({ ...entry, stamp }, walk);
			if (action === 'emit') {
				if (emits >= this.room()) return { plan, complete: false };
				if (stamp !== undefined && stamp.ms > this.horizonMs) {
					if (this.early.size + earlyEmits >= MAX_EARLY) return { plan, complete: false };
					earlyEmits += 1;
				} else if (stamp !== undefined && walk === 'ahead') {
					if (this.ahead.size + aheadEmits >= MAX_AHEAD) return { plan, complete: false };
					aheadEmits += 1;
				}
				emits += 1;
			} else if (action === 'pend') {
				if (this.pending.size + pends >= MAX_PENDING) {
					this.blocked = true;
					return { plan, complete: false };
				}
				pends += 1;
			}
			plan.push({ entry, action });
		}
		return { plan, complete: true };
	}

	/**
	 * Handles the files of one page in order and moves the walk's position over each handled file
	 * dated up to the horizon (a later one is remembered, in `early` when emitted). Returns false
	 * when it stopped before the end of the page (no room left); throws after handling the files
	 * before a failed values request.
	 */
	private async handlePage(files: Listed[], walk: Walk): Promise<boolean> {
		const position = walk === 'main' ? this.cursor : (this.frontier as Position);
		const { plan, complete } = this.decide(files, walk);
		const { values, error } = await valuesOf(this.context, this.policy, this.settings.includeValues, this.budget, plan.filter((step) => step.action === 'emit').map((step) => step.entry.file));
		for (const { entry, action } of plan) {
			const { file, id, stamp } = entry;
			const placed = stamp !== undefined && stamp.ms <= this.horizonMs;
			if (action === 'emit') {
				if (!this.emit(file, id, stamp, values)) return false;
				this.pending.delete(id); // emitted: no longer in flight, also when dated past the horizon
				if (stamp === undefined) this.unplaced.add(id);
				else if (!placed) this.early.add(id, stamp);
				else if (walk === 'ahead') this.ahead.add(id);
			} else if (action === 'pend') {
				this.pending.add(id);
				if (stamp === undefined) this.unplaced.add(id);
			}
			if (placed) {
				if (walk === 'main') this.ahead.delete(id);
				position.advance(stamp.text, stamp.ms, id);
			}
			this.budget.progressed = true;
		}
		if (error !== undefined) throw error;
		return complete;
	}

	/** Adds the item of a file (with its values when asked); false when its values are missing. */
	private emit(file: FileRecord, id: string, stamp: Stamp | undefined, values: Map<string, IDataObject>): boolean {
		const extra = values.get(id);
		if (this.settings.includeValues && extra === undefined) return false;
		// The keys of this poll's run scope, known once the credential was read for the first request.
		const { item, report } = triggerItem(file, extra, this.stream, apiKeysOf(this.context));
		this.items.push(item);
		if (report.cut) this.itemReports.cut += 1;
		if (report.failed) this.itemReports.failed += 1;
		this.emitted.add(this.emittedKey(id, stamp));
		return true;
	}

	/** Asks for the pending files again: emits those now processed, forgets those that will not be. */
	private async recheckPending(): Promise<void> {
		const ids = [...this.pending];
		// The newest file either walk has seen: the cursor, the frontier, the files handled beyond the horizon.
		const newestMs = [this.cursor.ms, this.frontier?.ms, this.early.newestMs()].reduce<number>(
			(newest, ms) => (ms === undefined || Number.isNaN(ms) || ms <= newest ? newest : ms),
			Number.NEGATIVE_INFINITY,
		);
		for (let start = 0; start < ids.length; start += FILE_PAGE_SIZE) {
			if (start > 0 && !this.budget.allows()) return;
			const batch = ids.slice(start, start + FILE_PAGE_SIZE);
			const { files, count } = await listFiles(this.context, { fileIds: batch, page: 1, limit: FILE_PAGE_SIZE }, { policy: this.policy });
			// An answer that lists fewer files than its own count is incomplete: a file missing from
			// it is not taken for deleted (it stays remembered until an answer says so).
			const complete = count === undefined || files.length >= Math.min(count, batch.length);
			const byId = new Map<string, FileRecord>();
			for (const file of files) {
				const id = fileIdOf(file);
				if (id !== undefined) byId.set(id, file);
			}
			const ready: Array<{ file: FileRecord; id: string; early?: Stamp; unplaced?: true }> = [];
			const before = this.pending.size;
			let earlyRoom = MAX_EARLY - this.early.size;
			for (const id of batch) {
				const file = byId.get(id);
				if (!file) {
					if (complete) this.pending.delete(id); // deleted
				} else if (isProcessed(file)) {
					if (!this.passes(file) || this.emitted.has(id)) {
						this.pending.delete(id);
					} else if (ready.length < this.room()) {
						// So that the walk passes over it later: a file the cursor has not passed yet (in flight at
						// activation, dated after the horizon) is kept in `early`; one with an unreadable timestamp in `unplaced`.
						const stamp = stampOf(file, this.stream);
						const ahead = stamp !== undefined && !this.cursor.isBehind(stamp.ms, id);
						if (stamp === undefined) ready.push({ file, id, unplaced: true });
						else if (!ahead) ready.push({ file, id });
						else if (earlyRoom-- > 0) ready.push({ file, id, early: stamp });
					}
				} else if (hasFailed(file) || this.isAbandoned(file, newestMs)) {
					this.pending.delete(id);
				}
			}
			const { values, error } = await valuesOf(this.context, this.policy, this.settings.includeValues, this.budget, ready.map((entry) => entry.file));
			for (const { file, id, early, unplaced } of ready) {
				if (!this.emit(file, id, undefined, values)) continue;
				this.pending.delete(id);
				if (early !== undefined) this.early.add(id, early);
				if (unplaced) this.unplaced.add(id);
			}
			if (this.pending.size < before) this.budget.progressed = true;
			if (error !== undefined) throw error;
		}
	}

	/** Unchanged for PENDING_GIVE_UP_MS before the newest upload the trigger has seen. */
	private isAbandoned(file: FileRecord, newestMs: number): boolean {
		const updatedMs = parseStamp(file.updatedAt)?.ms ?? Number.NaN;
		return Number.isFinite(newestMs) && !Number.isNaN(updatedMs) && newestMs - updatedMs > PENDING_GIVE_UP_MS;
	}
}

