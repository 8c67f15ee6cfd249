/**
 * Generated hostile histories for the trigger's property test (trigger-properties.test.ts): a
 * scenario is a sequence of steps against the emulator (files added with timestamps behind, equal,
 * ahead, far ahead; statuses that flip; files deleted; records answered with unreadable or
 * commented timestamps, 20 KB or malformed ids, values nested 3,000 to 18,000 deep, 1 MB strings
 * or the API key echoed; list answers that fail (500, 429 beyond the wait), reset, ignore `page`,
 * repeat an id, or shrink), polls through n8n-core's poll context (dev/harness) with the static
 * data carried from poll to poll as n8n keeps it (its classic in-memory host, or its durable poll
 * cursors, where an execution that cannot be stored drops the poll's items and its cursor), and
 * moves of n8n's clock. The world checks the invariants after every poll and, once the service
 * answers sanely again, that every processed file was emitted exactly once.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import type { Emulator, RequestLogEntry } from '../../dev/emulator';
import { JsonText, SEEDED_KEYS } from '../../dev/emulator';
import { addFiles } from '../../dev/emulator/bulk-files';
import type { FakeWaitClock, StaticDataHost } from '../../dev/harness';
import { pollTrigger } from '../../dev/harness';
import { parseStamp } from '../../nodes/DocumentExtractionTrigger/stamps';
import { isId } from '../../nodes/shared/api';
import { OUTPUT_LIMITS, TRIGGER_LIMITS, WAIT_LIMITS } from '../../nodes/shared/limits';
import { credentialsFor } from '../../dev/emulator/client';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const KEY = SEEDED_KEYS.readWrite;

export type StampWhen = 'now' | 'justBehind' | 'behind' | 'ahead' | 'far' | 'tie';
export type Corruption = 'badStamp' | 'commentStamp' | 'longId' | 'badId' | 'deep' | 'huge' | 'keyEcho';
/**
 * What a list answer does wrong on one request of a poll. (A stale answer to the same query was
 * tried and dropped: an old snapshot can leave out a file dated before others it lists, which no
 * poller can see; it found that, and nothing about the trigger.)
 */
export type AnswerFault = 'fail500' | 'fail429' | 'reset' | 'ignorePage' | 'repeatId' | 'shrink';

export type Step =
	| { kind: 'add'; count: number; when: StampWhen; status: 'processed' | 'processing' | 'failed' }
	| { kind: 'finish' | 'fail' | 'update' | 'reprocess' | 'delete'; pick: number }
	| { kind: 'corrupt'; pick: number; how: Corruption }
	| { kind: 'fault'; what: AnswerFault; at: number }
	| { kind: 'poll'; lost: boolean }
	| { kind: 'advance'; ms: number };

export interface Scenario {
	event: 'fileProcessed' | 'fileUpdated';
	start: 'date' | 'now';
	host: StaticDataHost;
	maxItems: number;
	steps: Step[];
}

const pick = fc.nat({ max: 1_000 });

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant('add' as const),
			count: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 8 }) }, { weight: 1, arbitrary: fc.constant(130) }),
			when: fc.constantFrom<StampWhen>('now', 'now', 'justBehind', 'behind', 'ahead', 'far', 'tie'),
			status: fc.constantFrom<'processed' | 'processing' | 'failed'>('processed', 'processed', 'processing', 'failed'),
		}),
	},
	{ weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('finish' as const, 'fail' as const, 'update' as const, 'reprocess' as const, 'delete' as const), pick }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('corrupt' as const),
			pick,
			how: fc.constantFrom<Corruption>('badStamp', 'commentStamp', 'longId', 'badId', 'deep', 'huge', 'keyEcho'),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('fault' as const),
			what: fc.constantFrom<AnswerFault>('fail500', 'fail429', 'reset', 'ignorePage', 'repeatId', 'shrink'),
			at: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.integer({ min: 2, max: 4 }) }),
		}),
	},
	{ weight: 6, arbitrary: fc.record({ kind: fc.constant('poll' as const), lost: fc.boolean() }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 30_000, 4 * MINUTE, 11 * MINUTE) }) },
);

export const scenario: fc.Arbitrary<Scenario> = fc.record({
	event: fc.constantFrom('fileProcessed' as const, 'fileUpdated' as const),
	start: fc.constantFrom('date' as const, 'now' as const),
	host: fc.constantFrom<StaticDataHost>('in-memory', 'staged'),
	maxItems: fc.constantFrom(1_000, 1_000, 5, 50),
	steps: fc.array(step, { minLength: 3, maxLength: 20 }),
});

interface Tracked {
	id: string;
	/** The emulator's record (its status and timestamps change with the steps). */
	record: { fileId: string; status: string; createdAtMs: number; updatedAtMs: number };
	/** Dated more than the cursor's lag before n8n's clock when it appeared: no poller can promise it. */
	backdated: boolean;
	/** In the workspace before activation (Start From "Now"): history. */
	history: boolean;
	/** Its version when the trigger was activated (history only). */
	activationVersion?: number;
	/** Processed with a readable timestamp at activation: must never be emitted (File Processed). */
	processedAtActivation: boolean;
	corruption?: Corruption;
	everBadId: boolean;
	everBadStamp: boolean;
	/** Listed with a readable timestamp by a walk (a list in ascending order): the trigger could place it. */
	walkedReadable?: boolean;
	/**
	 * History rerun, or its timestamp made unreadable, before any walk listed it readable (the walk of
	 * the activation's poll failed): the trigger first meets it changed and cannot tell it from news.
	 */
	changedBeforeWalked?: boolean;
	deleted: boolean;
}

/** What the world found wrong: the property fails with this message. */
export class InvariantBroken extends Error {}

function check(condition: boolean, message: () => string): void {
	if (!condition) throw new InvariantBroken(message());
}

/** Every string of a JSON value (keys too), and its depth, without recursion. */
function walkJson(value: unknown): { strings: string[]; depth: number } {
	const strings: string[] = [];
	let depth = 0;
	const stack: Array<[unknown, number]> = [[value, 0]];
	for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
		const [next, level] = entry;
		depth = Math.max(depth, level);
		if (typeof next === 'string') strings.push(next);
		else if (next && typeof next === 'object') {
			for (const [key, child] of Object.entries(next)) {
				strings.push(key);
				stack.push([child, level + 1]);
			}
		}
	}
	return { strings, depth };
}

const COMMENT = `2024-01-01 00:00:00 (${'c'.repeat(256 * 1024)})`;

/**
 * One run of a scenario against a fresh workspace of the (shared) emulator, with n8n's clock on
 * the package's fake wait clock.
 */
export class TriggerWorld {
	private readonly files = new Map<string, Tracked>();
	private staticData: IDataObject = {};
	private readonly emitted: IDataObject[] = [];
	private polls = 0;
	/** The trigger has its state: the polls before (failed ones) were no activation yet. */
	private activated = false;
	private startMs = 0;
	private readonly faultsForPoll: Array<{ what: AnswerFault; at: number }> = [];
	private listRequestsThisPoll = 0;
	/** The list request being answered walks the stream (ascending), not the activation's newest-first page or a recheck. */
	private answeringWalk = false;
	private sane = false;
	private readonly stopHooks: Array<() => void> = [];
	/**
	 * Timestamps (ms) that 100 or more files shared at activation (Start From "Now"): the page the
	 * trigger reads at activation cannot hold them all (docs/trigger.md, caveats), so files at such a
	 * timestamp are judged leniently (at most once).
	 */
	private readonly crowdedAtActivation = new Set<number>();
	/**
	 * Files of the history dated after n8n's clock minus the cursor's lag at activation, when 100 or
	 * more were (the page read at activation cannot hold them all: those past it may come out once),
	 * and those dated beyond the future tolerance (emitted when their time comes): judged leniently.
	 */
	private readonly lenientHistory = new Set<string>();
	/** Polls made and what they did, for the message of a broken invariant. */
	readonly journal: string[] = [];

	constructor(
		private readonly emulator: Emulator,
		private readonly clock: FakeWaitClock,
		private readonly scenario: Scenario,
	) {}

	get parameters(): IDataObject {
		const base = { event: this.scenario.event, options: { maxDocumentsPerPoll: this.scenario.maxItems } };
		return this.scenario.start === 'date' ? { ...base, startFrom: 'date', startDate: new Date(this.startMs - 60 * MINUTE).toISOString() } : base;
	}

	async run(): Promise<void> {
		this.reset();
		try {
			for (const next of this.scenario.steps) await this.apply(next);
			await this.settle();
			this.checkExactlyOnce();
		} finally {
			for (const stop of this.stopHooks.splice(0)) stop();
			this.emulator.faults.clear();
		}
	}

	private reset(): void {
		this.emulator.state.files.clear();
		this.emulator.state.touchData();
		this.emulator.requests.length = 0;
		this.emulator.faults.clear();
		this.startMs = this.clock.now();
		this.emulator.faults.editAnswerNext({ method: 'GET', path: '/files', count: Number.MAX_SAFE_INTEGER, edit: (body) => this.answer(body) });
		const log = this.emulator.requests;
		const push = log.push;
		log.push = (...entries: RequestLogEntry[]): number => {
			const length = push.apply(log, entries);
			for (const entry of entries) if (entry.method === 'GET' && entry.path === '/prod/v1/files') this.onListRequest(entry);
			return length;
		};
		this.stopHooks.push(() => {
			log.push = push;
		});
	}

	/** A list request arrived: the faults asked for this request of the poll are set before it is answered. */
	private onListRequest(entry: RequestLogEntry): void {
		this.listRequestsThisPoll += 1;
		this.answeringWalk = entry.query.sortOrder === 'ASC';
		for (const fault of this.faultsForPoll) {
			if (fault.at !== this.listRequestsThisPoll) continue;
			const match = { method: 'GET', path: '/files' };
			if (fault.what === 'fail500') this.emulator.faults.failNext({ ...match, status: 500, count: WAIT_LIMITS.maxFailureRetries + 1 });
			if (fault.what === 'fail429') this.emulator.faults.failNext({ ...match, status: 429, retryAfter: 120 });
			if (fault.what === 'reset') this.emulator.faults.resetConnectionNext({ ...match, afterBytes: 0, count: WAIT_LIMITS.maxFailureRetries + 1 });
			if (fault.what === 'ignorePage') this.emulator.faults.ignorePageNext({ ...match, count: 3 });
			if (fault.what === 'repeatId') this.emulator.faults.repeatIdNext(match);
		}
	}

	/** Every GET /files answer: the corruptions of the records, and the faults that reshape an answer. */
	private answer(body: unknown): unknown {
		if (!body || typeof body !== 'object' || !Array.isArray((body as IDataObject).files)) return body;
		const faults = this.faultsForPoll.filter((fault) => fault.at === this.listRequestsThisPoll).map((fault) => fault.what);
		const answer = body as { files: IDataObject[] };
		if (faults.includes('shrink')) answer.files = answer.files.slice(0, Math.floor(answer.files.length / 2));
		if (this.sane) return answer;
		const raw = new Map<string, string>();
		if (this.answeringWalk) {
			for (const file of answer.files) {
				const tracked = this.files.get(String(file.fileId));
				if (tracked && tracked.corruption !== 'badStamp' && tracked.corruption !== 'commentStamp') tracked.walkedReadable = true;
			}
		}
		answer.files = answer.files.map((file) => this.corrupted(file, raw));
		if (raw.size === 0) return answer;
		let text = JSON.stringify(answer);
		for (const [token, json] of raw) text = text.split(JSON.stringify(token)).join(json);
		return new JsonText(text);
	}

	private corrupted(file: IDataObject, raw: Map<string, string>): IDataObject {
		const tracked = this.files.get(String(file.fileId));
		const stampKey = this.scenario.event === 'fileProcessed' ? 'createdAt' : 'updatedAt';
		switch (tracked?.corruption) {
			case 'badStamp':
				return { ...file, [stampKey]: '2024-01-01T00:00:60Z' };
			case 'commentStamp':
				return { ...file, [stampKey]: COMMENT };
			case 'longId':
				return { ...file, fileId: `${String(file.fileId)}${'x'.repeat(20 * 1024)}` };
			case 'badId':
				return { ...file, fileId: `../${String(file.fileId).slice(0, 8)}` };
			case 'deep': {
				const token = `raw:${raw.size}`;
				const depth = 3_000 + (tracked.id.charCodeAt(0) % 4) * 5_000;
				raw.set(token, `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`);
				return { ...file, payload: token };
			}
			case 'huge':
				return { ...file, summary: 's'.repeat(1024 * 1024) };
			case 'keyEcho':
				return { ...file, summary: `key ${KEY}`, referenceId: encodeURIComponent(KEY) };
			default:
				return file;
		}
	}

	private tracked(index: number, filter: (file: Tracked) => boolean = () => true): Tracked | undefined {
		const candidates = [...this.files.values()].filter((file) => !file.deleted && filter(file));
		return candidates.length === 0 ? undefined : candidates[index % candidates.length];
	}

	private stampFor(when: StampWhen, index: number): number {
		const now = this.clock.now();
		switch (when) {
			case 'now':
				return now + index;
			case 'justBehind':
				return now - TRIGGER_LIMITS.cursorLagMs + 1_000 + index;
			case 'behind':
				return now - 3 * MINUTE + index;
			case 'ahead':
				return now + MINUTE + (index % 9) * MINUTE;
			case 'far':
				return now + DAY + index;
			case 'tie': {
				const existing = this.tracked(0);
				return existing ? existing.record.createdAtMs : now;
			}
		}
	}

	private async apply(next: Step): Promise<void> {
		const now = this.clock.now();
		switch (next.kind) {
			case 'add': {
				const stamps = Array.from({ length: next.count }, (_, index) => this.stampFor(next.when, next.when === 'now' || next.when === 'tie' ? 0 : index));
				const added = addFiles(this.emulator.state, next.count, { createdAtMs: (index) => stamps[index], status: () => next.status });
				for (const record of added) {
					this.files.set(record.fileId, {
						id: record.fileId,
						record,
						backdated: record.createdAtMs < now - TRIGGER_LIMITS.cursorLagMs,
						history: !this.activated && this.scenario.start === 'now',
						processedAtActivation: false,
						everBadId: false,
						everBadStamp: false,
						deleted: false,
					});
				}
				return;
			}
			case 'finish':
			case 'fail':
			case 'update':
			case 'reprocess': {
				const wanted = next.kind === 'finish' || next.kind === 'fail' ? 'processing' : 'processed';
				const file = this.tracked(next.pick, (candidate) => candidate.record.status === wanted);
				if (!file) return;
				file.record.status = next.kind === 'fail' ? 'failed' : next.kind === 'reprocess' ? 'processing' : 'processed';
				file.record.updatedAtMs = Math.max(now, file.record.updatedAtMs + 1);
				if (next.kind === 'reprocess' && !file.walkedReadable) file.changedBeforeWalked = true;
				this.emulator.state.touchData();
				return;
			}
			case 'delete': {
				const file = this.tracked(next.pick);
				if (!file) return;
				file.deleted = true;
				this.emulator.state.files.delete(file.id);
				this.emulator.state.touchData();
				return;
			}
			case 'corrupt': {
				const file = this.tracked(next.pick, (candidate) => candidate.corruption === undefined);
				if (!file) return;
				file.corruption = next.how;
				if ((next.how === 'badStamp' || next.how === 'commentStamp') && !file.walkedReadable) file.changedBeforeWalked = true;
				if (next.how === 'longId' || next.how === 'badId') file.everBadId = true;
				if (next.how === 'badStamp' || next.how === 'commentStamp') file.everBadStamp = true;
				return;
			}
			case 'fault':
				this.faultsForPoll.push({ what: next.what, at: next.at });
				return;
			case 'advance':
				this.clock.advance(next.ms);
				return;
			case 'poll':
				await this.poll(next.lost);
		}
	}

	/** Start From "Now": what is in the workspace when the trigger gets its state is history. */
	private markActivation(): void {
		if (this.activated || this.scenario.start !== 'now') return;
		const counts = new Map<number, number>();
		for (const file of this.files.values()) {
			if (!file.deleted) counts.set(this.stampOf(file), (counts.get(this.stampOf(file)) ?? 0) + 1);
		}
		this.crowdedAtActivation.clear();
		for (const [ms, count] of counts) if (count >= 100) this.crowdedAtActivation.add(ms);
		const horizon = this.clock.now() - TRIGGER_LIMITS.cursorLagMs;
		const latest = this.clock.now() + TRIGGER_LIMITS.futureToleranceMs;
		const ahead = [...this.files.values()].filter((file) => !file.deleted && this.stampOf(file) > horizon);
		this.lenientHistory.clear();
		for (const file of ahead) if (ahead.length >= 100 || this.stampOf(file) > latest) this.lenientHistory.add(file.id);
		for (const file of this.files.values()) {
			if (file.deleted) continue;
			file.history = true;
			file.activationVersion = file.record.updatedAtMs;
			file.processedAtActivation = file.record.status === 'processed' && file.corruption === undefined;
		}
	}

	private async poll(lost: boolean): Promise<void> {
		this.markActivation();
		this.polls += 1;
		const before = deepCopy(this.staticData);
		const lastSequence = this.emulator.requests[this.emulator.requests.length - 1]?.sequence ?? 0;
		const sleptBefore = this.clock.sleptMs();
		this.listRequestsThisPoll = 0;
		const result = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: this.parameters as never,
			credentials: credentialsFor(this.emulator),
			staticData: this.staticData,
			staticDataHost: this.scenario.host,
		});
		this.faultsForPoll.length = 0;
		this.emulator.faults.clear();
		this.emulator.faults.editAnswerNext({ method: 'GET', path: '/files', count: Number.MAX_SAFE_INTEGER, edit: (body) => this.answer(body) });
		const requests = this.emulator.requests.filter((entry) => entry.sequence > lastSequence);
		this.journal.push(
			`poll ${this.polls}${lost ? ' (execution lost)' : ''}: ${result.items.length} items, ${requests.length} requests, error ${result.error?.message?.slice(0, 120) ?? 'none'}`,
		);
		this.checkPoll(result.items, result.staticData, before, result.error, requests, this.clock.sleptMs() - sleptBefore);
		if (lost && this.scenario.host === 'staged' && result.items.length > 0) {
			// n8n could not store the execution: its items never ran, its cursor was not committed.
			return;
		}
		this.staticData = result.staticData;
		this.activated ||= Object.keys(this.staticData).length > 0;
		for (const item of result.items) this.emitted.push(item.json);
	}

	/** The invariants of every poll. */
	private checkPoll(
		items: INodeExecutionData[],
		after: IDataObject,
		before: IDataObject,
		error: unknown,
		requests: RequestLogEntry[],
		sleptMs: number,
	): void {
		const label = `poll ${this.polls}`;
		// Static data: bounded in bytes, only file ids and short RFC 3339 timestamps.
		const bytes = Buffer.byteLength(JSON.stringify(after));
		check(bytes <= TRIGGER_LIMITS.maxStaticDataBytes, () => `${label}: static data of ${bytes} bytes`);
		const { config: _config, ...kept } = after;
		for (const text of walkJson(kept).strings) {
			check(text.length <= TRIGGER_LIMITS.maxStampLength, () => `${label}: static data holds a ${text.length}-character string`);
		}
		// A poll that failed changed nothing.
		if (error !== undefined) check(JSON.stringify(after) === JSON.stringify(before), () => `${label} failed (${String(error)}) after changing its state`);
		// Within its budget: requests (each tried at most 1 + retries times) and waits.
		const api = requests.filter((entry) => entry.host === 'api');
		// The walk's cap, the checks of files in flight, Start From "Now"'s pages at activation, one more.
		const maxRequests =
			(TRIGGER_LIMITS.maxListRequestsPerPoll + TRIGGER_LIMITS.maxPending / 100 + TRIGGER_LIMITS.startPages + 1) * (WAIT_LIMITS.maxFailureRetries + 1);
		check(api.length <= maxRequests, () => `${label}: ${api.length} requests`);
		check(sleptMs <= WAIT_LIMITS.defaultMaxWaitSeconds * 1000, () => `${label}: waited ${sleptMs} ms`);
		// Queries carry only file ids and RFC 3339 timestamps, and stay short.
		for (const entry of api) {
			check(entry.rawQuery.length < 8_000, () => `${label}: a query of ${entry.rawQuery.length} characters`);
			for (const name of ['createdAfter', 'updatedAfter']) {
				const value = entry.query[name];
				if (value !== undefined) check(parseStamp(value) !== undefined, () => `${label}: ${name}=${String(value).slice(0, 80)}`);
			}
			if (entry.query.fileIds !== undefined) {
				const ids = JSON.parse(String(entry.query.fileIds)) as unknown[];
				check(ids.every((id) => isId(id, 'uuid')), () => `${label}: fileIds with something that is not a file id`);
			}
		}
		// Items: file ids only, bounded depth, never the key.
		for (const { json } of items) {
			check(isId(json.fileId, 'uuid'), () => `${label}: an item with fileId ${String(json.fileId).slice(0, 80)}`);
			const { strings, depth } = walkJson(json);
			check(depth <= OUTPUT_LIMITS.maxItemDepth + 2, () => `${label}: an item ${depth} levels deep`);
			check(!strings.some((text) => text.includes(KEY) || text.includes(encodeURIComponent(KEY))), () => `${label}: an item shows the API key`);
		}
	}

	/** The service answers sanely again, every file finishes, n8n's clock passes every timestamp: poll until nothing moves. */
	private async settle(): Promise<void> {
		this.sane = true;
		for (const file of this.files.values()) {
			if (file.deleted || file.record.status !== 'processing') continue;
			file.record.status = 'processed';
			file.record.updatedAtMs = Math.max(this.clock.now(), file.record.updatedAtMs + 1);
		}
		this.emulator.state.touchData();
		if (this.polls === 0) await this.poll(false);
		this.clock.advance(2 * DAY + MINUTE);
		let quiet = 0;
		// Enough polls for every file at Max Documents per Poll, and some for pending files and the walk's caps.
		const rounds = 20 + 2 * Math.ceil(this.files.size / this.scenario.maxItems);
		for (let round = 0; round < rounds && quiet < 2; round++) {
			const before = JSON.stringify(this.staticData);
			const emittedBefore = this.emitted.length;
			await this.poll(false);
			this.clock.advance(MINUTE);
			quiet = this.emitted.length === emittedBefore && JSON.stringify(this.staticData) === before ? quiet + 1 : 0;
		}
		check(quiet >= 2, () => `the trigger did not settle within ${rounds} polls once the service answered sanely`);
	}

	/** The file's timestamp in the trigger's stream. */
	private stampOf(file: Tracked): number {
		return this.scenario.event === 'fileProcessed' ? file.record.createdAtMs : file.record.updatedAtMs;
	}

	/** Once the service answers sanely again, every processed file was emitted exactly once. */
	private checkExactlyOnce(): void {
		const byId = new Map<string, IDataObject[]>();
		for (const json of this.emitted) {
			const list = byId.get(String(json.fileId)) ?? [];
			list.push(json);
			byId.set(String(json.fileId), list);
		}
		for (const file of this.files.values()) {
			const items = byId.get(file.id) ?? [];
			const lenient =
				file.everBadId ||
				file.backdated ||
				file.deleted ||
				file.record.status !== 'processed' ||
				this.lenientHistory.has(file.id) ||
				// File Processed: a file added after activation at such a timestamp is taken for history;
				// File Updated: the files at it past the page read at activation are not known as history.
				(this.crowdedAtActivation.has(this.stampOf(file)) && (this.scenario.event === 'fileUpdated' || !file.history)) ||
				(this.scenario.event === 'fileUpdated' && file.activationVersion !== undefined && this.crowdedAtActivation.has(file.activationVersion));
			const name = () => `file ${file.id} (${JSON.stringify({ ...file, record: undefined })}, status ${file.record.status})`;
			if (this.scenario.event === 'fileProcessed') {
				// History changed before any walk met it cannot be told from news: emitted once at most
				// (docs/trigger.md, caveats).
				const changedUnseen = file.history && file.changedBeforeWalked === true;
				if (file.history && file.processedAtActivation && !lenient && !changedUnseen) check(items.length === 0, () => `${name()}: history emitted ${items.length} times`);
				else if (lenient || file.history) check(items.length <= 1, () => `${name()}: emitted ${items.length} times`);
				else check(items.length === 1, () => `${name()}: emitted ${items.length} times, expected once`);
				continue;
			}
			// File Updated: each version at most once; the last version of a file once.
			const versions = items.map((json) => String(json.updatedAt));
			if (file.everBadStamp) {
				check(items.length <= 2, () => `${name()}: emitted ${items.length} times`);
				continue;
			}
			check(new Set(versions).size === versions.length, () => `${name()}: a version emitted twice (${versions.join(', ')})`);
			const last = new Date(file.record.updatedAtMs).toISOString();
			const lastCount = versions.filter((version) => version === last).length;
			const lastIsHistory = file.history && file.activationVersion === file.record.updatedAtMs;
			if (file.history && file.processedAtActivation && file.activationVersion !== undefined && !lenient) {
				const activation = new Date(file.activationVersion).toISOString();
				check(!versions.includes(activation), () => `${name()}: its version at activation was emitted`);
			}
			if (!lenient && !lastIsHistory) check(lastCount === 1, () => `${name()}: last version ${last} emitted ${lastCount} times (${versions.join(', ')})`);
		}
	}
}
