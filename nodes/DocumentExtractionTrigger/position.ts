import { TRIGGER_LIMITS } from '../shared/limits';
import type { Cursor } from './state';

const MAX_TIE_IDS = TRIGGER_LIMITS.maxTieIds;

/**
 * A keyset position in a stream of files: every file before `at`, or at `at` and handled, has
 * been handled. `ids` are the handled files at `at`, in the order handled. The static data keeps
 * the last MAX_TIE_IDS of them; when it had to drop some (`trimmed`), `count` is the place of the
 * last handled one in the API's list of the files at `at` (from 1), and the files up to that
 * place count as handled.
 */
export class Position {
	private ids: string[];
	private idSet: Set<string>;
	private atMs: number | undefined;
	private trimmed: boolean;
	/** Files handled at `at` (ids.length unless trimmed). */
	count: number;

	constructor(
		public at: string | null,
		ids: string[],
		count = ids.length,
	) {
		this.ids = [...ids];
		this.idSet = new Set(ids);
		this.trimmed = count > ids.length;
		this.count = this.trimmed ? count : ids.length;
		this.atMs = at === null ? undefined : Date.parse(at);
	}

	static of(cursor: Cursor): Position {
		return new Position(cursor.at, cursor.ids, cursor.count);
	}

	clone(): Position {
		return new Position(this.at, this.ids, this.count);
	}

	get ms(): number | undefined {
		return this.atMs;
	}

	/** The last file handled at `at`. */
	get lastId(): string | undefined {
		return this.ids[this.ids.length - 1];
	}

	/** Whether every file handled at `at` is among the ids still known. */
	get knowsAll(): boolean {
		return !this.trimmed;
	}

	has(id: string): boolean {
		return this.idSet.has(id);
	}

	isBehind(ms: number, id: string): boolean {
		if (this.atMs === undefined) return false;
		return ms < this.atMs || (ms === this.atMs && this.idSet.has(id));
	}

	/** Whether this position has handled everything `other` has. */
	covers(other: Position): boolean {
		if (other.atMs === undefined) return true;
		if (this.atMs === undefined || this.atMs < other.atMs) return false;
		if (this.atMs > other.atMs) return true;
		return this.count >= other.count && other.ids.every((id) => this.idSet.has(id));
	}

	/** Moves over a handled file (a file before the position leaves it where it is). */
	advance(text: string, ms: number, id: string): void {
		if (this.atMs === undefined || ms > this.atMs) {
			this.at = text;
			this.atMs = ms;
			this.ids = [id];
			this.idSet = new Set([id]);
			this.count = 1;
			this.trimmed = false;
		} else if (ms === this.atMs && !this.idSet.has(id)) {
			this.ids.push(id);
			this.idSet.add(id);
			this.count += 1;
		}
	}

	/** The last handled file at `at` is now at `place` (from 1) in the API's list. */
	placeAt(place: number): void {
		if (this.trimmed) this.count = place;
	}

	/** Forgets which files at `at` were handled: they are listed again from the first one. */
	restartTie(): void {
		this.ids = [];
		this.idSet = new Set();
		this.count = 0;
		this.trimmed = false;
	}

	toCursor(): Cursor {
		const ids = this.ids.slice(-MAX_TIE_IDS);
		return this.count > ids.length ? { at: this.at, ids, count: this.count } : { at: this.at, ids };
	}
}
