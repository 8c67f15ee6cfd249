/**
 * A virtual clock for property tests of the request path's waits: it replaces `now` and `sleep`
 * of the package's wait clock (nodes/shared/run/clock.ts, the source module, as imported by tests
 * that load the sources) and runs concurrent sleepers in the order of their wake-up times, as real
 * time would, without spending any. Time moves only when every sleeper is asleep: `run()` drains
 * the pending work, then wakes the earliest. Unlike the engine harness's clock (additive, for one
 * execution at a time), two sleeps here overlap.
 */
import { waitClock } from '../../nodes/shared/run/clock';

interface Timer {
	at: number;
	seq: number;
	fire: () => void;
	cancel?: () => void;
}

/** Hooks a property test can watch each sleep with. */
export interface SleepObserver {
	(ms: number, now: number): void;
}

export class VirtualClock {
	current: number;
	private readonly timers: Timer[] = [];
	private seq = 0;
	private readonly original = { now: waitClock.now, sleep: waitClock.sleep };
	/** Sleeps asked for and not yet ended. */
	pendingSleeps = 0;
	events = 0;

	constructor(
		start: number,
		private readonly onSleep?: SleepObserver,
	) {
		this.current = start;
	}

	install(): this {
		waitClock.now = () => this.current;
		waitClock.sleep = async (ms, signal) => await this.sleep(ms, signal);
		return this;
	}

	restore(): void {
		waitClock.now = this.original.now;
		waitClock.sleep = this.original.sleep;
	}

	/** Calls `fn` at virtual time `at` (arrivals, a Stop). */
	at(at: number, fn: () => void): void {
		this.timers.push({ at: Math.max(at, this.current), seq: this.seq++, fire: fn });
	}

	sleep(ms: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return Promise.reject(new Error('aborted'));
		this.onSleep?.(ms, this.current);
		this.pendingSleeps += 1;
		return new Promise<void>((resolve, reject) => {
			const timer: Timer = {
				at: this.current + Math.max(0, ms),
				seq: this.seq++,
				fire: () => {
					this.pendingSleeps -= 1;
					signal?.removeEventListener('abort', onAbort);
					resolve();
				},
			};
			const onAbort = () => {
				const index = this.timers.indexOf(timer);
				if (index >= 0) this.timers.splice(index, 1);
				this.pendingSleeps -= 1;
				reject(new Error('aborted'));
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.timers.push(timer);
		});
	}

	/** Runs until nothing is left to wake, at most `maxEvents` wake-ups (then throws: a loop that never ends). */
	async run(maxEvents = 100_000): Promise<void> {
		for (;;) {
			// Everything runnable runs before time moves (microtasks drain before a macrotask).
			await new Promise((resolve) => setImmediate(resolve));
			if (this.timers.length === 0) return;
			let next = 0;
			for (let index = 1; index < this.timers.length; index++) {
				const timer = this.timers[index];
				const best = this.timers[next];
				if (timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) next = index;
			}
			const [timer] = this.timers.splice(next, 1);
			this.current = Math.max(this.current, timer.at);
			if (++this.events > maxEvents) throw new Error(`the virtual clock woke ${maxEvents} times: a wait loop that does not end`);
			timer.fire();
		}
	}
}
