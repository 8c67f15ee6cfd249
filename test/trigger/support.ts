/**
 * What the trigger tests share: an emulator, a trigger that keeps its static data from poll to
 * poll the way n8n does, a ledger that checks exactly-once over a whole run, and a hook that acts
 * while a poll is between two of its list requests.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import type { Emulator, EmulatorOptions, RequestLogEntry } from '../../dev/emulator';
import type { ActivePollTrigger, PollTriggerResult, StaticDataHost } from '../../dev/harness';
import { activatePollTrigger, loadOptions, pollTrigger } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, startTestEmulator, useEmulator } from '../node/support';

export { SEEDED_KEYS, credentialsFor, startTestEmulator, useEmulator };
export type { Emulator, EmulatorOptions };

export const TRIGGER_TYPE = 'documentExtractionTrigger';

export const MINUTE = 60_000;

/** Both events with both of n8n's static data hosts (its classic one, and its durable poll cursors). */
export const EVENTS_AND_HOSTS: Array<[event: 'fileProcessed' | 'fileUpdated', host: StaticDataHost]> = [
	['fileProcessed', 'in-memory'],
	['fileProcessed', 'staged'],
	['fileUpdated', 'in-memory'],
	['fileUpdated', 'staged'],
];

/** The trigger's editor dropdown `method`, as the editor loads it. */
export async function triggerLoadOptions(emulator: Emulator, method: string): Promise<INodePropertyOptions[]> {
	return await loadOptions({
		type: TRIGGER_TYPE,
		method,
		credentials: credentialsFor(emulator),
	});
}

/**
 * The trigger activated once and polled in one poll context, as n8n does for an active workflow
 * (ActiveTrigger below starts a fresh context for each poll and carries the static data itself).
 */
export async function activateTrigger(emulator: Emulator, parameters: INodeParameters): Promise<ActivePollTrigger> {
	return await activatePollTrigger({
		type: TRIGGER_TYPE,
		parameters,
		credentials: credentialsFor(emulator),
	});
}

export interface PollOptions {
	mode?: 'trigger' | 'manual';
	pollBudgetMs?: number;
}

/**
 * One active trigger: its parameters and the static data n8n keeps for it. Every emitted item
 * goes into the ledger.
 */
export class ActiveTrigger {
	staticData: IDataObject = {};
	readonly ledger = new Ledger();
	readonly results: PollTriggerResult[] = [];

	constructor(
		private readonly emulator: Emulator,
		readonly parameters: INodeParameters,
		private readonly host: StaticDataHost = 'in-memory',
	) {}

	async poll(options: PollOptions = {}): Promise<PollTriggerResult> {
		const result = await pollTrigger({
			type: TRIGGER_TYPE,
			parameters: this.parameters,
			credentials: credentialsFor(this.emulator),
			staticData: this.staticData,
			mode: options.mode ?? 'trigger',
			pollBudgetMs: options.pollBudgetMs,
			staticDataHost: this.host,
		});
		this.results.push(result);
		if ((options.mode ?? 'trigger') === 'trigger') {
			this.staticData = result.staticData;
			this.ledger.record(result.items);
		}
		return result;
	}

	/** Polls until a poll emits nothing and fails not (at most `limit` polls). */
	async pollUntilIdle(limit = 50, options: PollOptions = {}): Promise<void> {
		for (let count = 0; count < limit; count++) {
			const result = await this.poll(options);
			if (result.error) throw result.error;
			if (result.items.length === 0) return;
		}
		throw new Error(`the trigger still emitted after ${limit} polls`);
	}
}

/** Every item a trigger emitted over a run, with the checks of exactly-once. */
export class Ledger {
	readonly items: IDataObject[] = [];

	record(items: INodeExecutionData[]): void {
		for (const item of items) this.items.push(item.json);
	}

	ids(): string[] {
		return this.items.map((item) => String(item.fileId));
	}

	/** File ids emitted more than once. */
	duplicateIds(): string[] {
		return duplicates(this.ids());
	}

	/** (fileId, updatedAt) versions emitted more than once. */
	duplicateVersions(): string[] {
		return duplicates(this.items.map((item) => `${String(item.fileId)}@${String(item.updatedAt)}`));
	}

	countOf(fileId: string): number {
		return this.ids().filter((id) => id === fileId).length;
	}

	/** Asserts that exactly these files were emitted, each exactly once. */
	expectEachOnce(fileIds: string[]): void {
		expect(this.duplicateIds()).toEqual([]);
		expect([...this.ids()].sort()).toEqual([...fileIds].sort());
	}
}

function duplicates(values: string[]): string[] {
	const seen = new Set<string>();
	const repeated = new Set<string>();
	for (const value of values) {
		if (seen.has(value)) repeated.add(value);
		seen.add(value);
	}
	return [...repeated];
}

export function isFileList(entry: RequestLogEntry): boolean {
	return entry.host === 'api' && entry.method === 'GET' && entry.path === '/prod/v1/files';
}

/**
 * Calls `onArrival(n, entry)` synchronously when the n-th list request (GET /files, counted from
 * 1 after this call) reaches the emulator, before the emulator answers it: what the callback
 * changes is what that request sees. Returns a function that removes the hook.
 */
export function onListRequest(
	emulator: Emulator,
	onArrival: (n: number, entry: RequestLogEntry) => void,
): () => void {
	const log = emulator.requests;
	const push = log.push;
	let n = 0;
	log.push = function (...entries: RequestLogEntry[]): number {
		const length = push.apply(this, entries);
		for (const entry of entries) {
			if (isFileList(entry)) onArrival(++n, entry);
		}
		return length;
	};
	return () => {
		log.push = push;
	};
}

export function listRequests(emulator: Emulator): RequestLogEntry[] {
	return emulator.requests.filter(isFileList);
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export { deepJson, rawValue, rewriteListedFiles } from '../../dev/emulator/hostile-lists';
