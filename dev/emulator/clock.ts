/** Time source of the emulator. Everything time-based (timestamps, URL expiry, idempotency
 * expiry, ephemeral files, rate-limit windows) reads `now()`; processing delays use real timers. */
export interface Clock {
	now(): number;
}

export interface ControllableClock extends Clock {
	/** Moves time forward by `ms` (negative moves it back). */
	advance(ms: number): void;
	/** Sets the current time to the epoch milliseconds `ms`. */
	set(ms: number): void;
}

/** Real time plus an adjustable offset: time flows, and tests can jump forward. */
export class OffsetClock implements ControllableClock {
	private offsetMs = 0;
	now(): number {
		return Date.now() + this.offsetMs;
	}
	advance(ms: number): void {
		this.offsetMs += ms;
	}
	set(ms: number): void {
		this.offsetMs = ms - Date.now();
	}
}

/** A clock that stands still until it is moved. */
export class ManualClock implements ControllableClock {
	constructor(private currentMs: number = Date.UTC(2026, 0, 1)) {}
	now(): number {
		return this.currentMs;
	}
	advance(ms: number): void {
		this.currentMs += ms;
	}
	set(ms: number): void {
		this.currentMs = ms;
	}
}

export function isControllable(clock: Clock): clock is ControllableClock {
	const candidate = clock as Partial<ControllableClock>;
	return typeof candidate.advance === 'function' && typeof candidate.set === 'function';
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}
