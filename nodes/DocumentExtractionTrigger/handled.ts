import { TRIGGER_LIMITS } from '../shared/limits';
import type { Position } from './position';
import type { Stamp } from './stamps';
import { parseStamp } from './stamps';

const { maxEarly: MAX_EARLY, maxUnplaced: MAX_UNPLACED } = TRIGGER_LIMITS;

/**
 * Files the trigger handled that its cursor does not cover (state.ts: `early`): handled while
 * dated after n8n's clock minus the cursor's lag, which the cursor never passes. Each is kept with
 * its timestamp, so that one version of a file is matched (File Updated emits the next one), and
 * dropped once the cursor passes that timestamp, even if the file was deleted meanwhile.
 */
export class EarlyFiles {
	private readonly entries = new Map<string, [id: string, at: string]>();
	private readonly ids = new Set<string>();

	constructor(stored: Array<[string, string]> = []) {
		for (const [id, at] of stored) {
			const stamp = parseStamp(at);
			if (stamp !== undefined) this.add(id, stamp);
		}
	}

	get size(): number {
		return this.entries.size;
	}

	/** The latest timestamp among them (NaN with none). */
	newestMs(): number {
		let newest = Number.NaN;
		for (const [, at] of this.entries.values()) {
			const ms = parseStamp(at)?.ms;
			if (ms !== undefined && (Number.isNaN(newest) || ms > newest)) newest = ms;
		}
		return newest;
	}

	has(id: string, stamp: Stamp): boolean {
		return this.entries.has(keyOf(id, stamp.ms));
	}

	/** Whether some version of the file is among them (a file that lost its timestamp since). */
	hasFile(id: string): boolean {
		return this.ids.has(id);
	}

	add(id: string, stamp: Stamp): void {
		this.entries.set(keyOf(id, stamp.ms), [id, stamp.text]);
		this.ids.add(id);
	}

	/** What the static data keeps: the entries the cursor does not cover yet. */
	toStored(cursor: Position): Array<[string, string]> {
		const kept: Array<[string, string]> = [];
		for (const [id, at] of this.entries.values()) {
			const stamp = parseStamp(at);
			if (stamp !== undefined && !cursor.isBehind(stamp.ms, id)) kept.push([id, at]);
		}
		return kept.slice(-MAX_EARLY);
	}
}

function keyOf(id: string, ms: number): string {
	return `${id}@${ms}`;
}

/**
 * Ids of files listed with a timestamp that is not RFC 3339 text, each reported once (state.ts:
 * `unplaced`). The oldest are forgotten beyond MAX_UNPLACED.
 */
export class UnplacedFiles {
	private readonly ids: Set<string>;
	/** Ids this poll reported for the first time. */
	readonly reported: string[] = [];

	constructor(stored: string[] = []) {
		this.ids = new Set(stored);
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	add(id: string): void {
		if (this.ids.has(id)) return;
		this.ids.add(id);
		this.reported.push(id);
		for (const oldest of this.ids) {
			if (this.ids.size <= MAX_UNPLACED) break;
			this.ids.delete(oldest);
		}
	}

	toStored(): string[] {
		return [...this.ids];
	}
}
