import { sleep } from 'n8n-workflow';

import { SPEED_LIMITS } from '../limits';

/**
 * The real-time bounds of one attempt, in one object: it aborts the request (its `signal`) and
 * destroys the streams it watches when
 * - the whole attempt passes its deadline (`deadlineMs`: API calls, connect to last byte),
 * - nothing moves for `idleMs` (storage transfers, while waiting for an answer),
 * - a watched stream moves slower than `minBytesPerSecond` over `windowMs` (storage bodies,
 *   as curl's --speed-limit/--speed-time), or
 * - the watched streams carry more than `maxBytes`, or
 * - the execution is stopped (`cancelSignal`).
 * Time here is real time (n8n's sleep), not the wait clock: a request takes real time.
 */

export type AbortReason = 'deadline' | 'idle' | 'too-slow' | 'too-large' | 'cancelled';

interface WatchOptions {
	deadlineMs?: number;
	idleMs?: number;
	lowSpeed?: { minBytesPerSecond: number; windowMs: number };
	cancelSignal?: AbortSignal;
	/** A watched stream past this many bytes is ended (a download larger than announced). */
	maxBytes?: number;
}

interface EmittingStream {
	emit(event: string | symbol, ...args: unknown[]): boolean;
	pipe(...args: unknown[]): unknown;
	destroy?(error?: Error): unknown;
}

function isEmittingStream(value: unknown): value is EmittingStream {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as EmittingStream).emit === 'function' &&
		typeof (value as EmittingStream).pipe === 'function'
	);
}

/** How often the idle and low-speed checks run. */
const TICK_MS = SPEED_LIMITS.checkIntervalMs;

export class TransferWatch {
	/** Pass as the request's abortSignal. */
	readonly signal: AbortSignal;
	/** Why the attempt was aborted, once it was. */
	reason: AbortReason | undefined;
	/** Bytes seen on the watched streams. */
	bytes = 0;
	/** When the last of them was seen (epoch ms; the start when none was). */
	lastByteAt = Date.now();
	/** The speed over the last window when the low-speed limit ended the transfer (bytes/s). */
	speedSeen = 0;
	readonly startedAt = Date.now();
	private readonly abortController = new AbortController();
	private readonly stopController = new AbortController();
	private readonly streams: EmittingStream[] = [];
	private endedStreams = 0;
	private lastProgressAt = Date.now();
	private graceUntil = 0;
	/** A body sent from memory was allowed for (allowMemoryBody): its progress is not seen. */
	memoryBody = false;
	/** Bytes seen at each of the last window's ticks (a fixed-size ring). */
	private readonly samples: number[];
	private sampleIndex = 0;
	private ticks = 0;
	private readonly onCancel = () => this.abort('cancelled');
	private readonly abortListeners: Array<(reason: AbortReason) => void> = [];

	constructor(private readonly options: WatchOptions) {
		this.signal = this.abortController.signal;
		const windowTicks = options.lowSpeed ? Math.max(1, Math.ceil(options.lowSpeed.windowMs / TICK_MS)) : 0;
		this.samples = new Array<number>(windowTicks).fill(0);
		if (options.cancelSignal?.aborted) {
			this.abort('cancelled');
			return;
		}
		options.cancelSignal?.addEventListener('abort', this.onCancel, { once: true });
		if (options.deadlineMs !== undefined) void this.runDeadline(options.deadlineMs);
		if (options.idleMs !== undefined || options.lowSpeed) void this.runChecks();
	}

	/** A promise that rejects when the watch aborts: race a request against it. */
	aborted(): Promise<never> {
		return new Promise<never>((_resolve, reject) => {
			if (this.reason) reject(new Error(`aborted: ${this.reason}`));
			else this.onAbort((reason) => reject(new Error(`aborted: ${reason}`)));
		});
	}

	onAbort(listener: (reason: AbortReason) => void): void {
		if (this.reason) listener(this.reason);
		else this.abortListeners.push(listener);
	}

	/** Progress that no stream shows (the answer's headers arrived). */
	readonly touch = (): void => {
		this.lastProgressAt = Date.now();
	};

	/**
	 * A body sent from memory shows no progress: it may take as long as its size at the minimum
	 * speed (and the idle time on top), which bounds it by what the user chose.
	 */
	allowMemoryBody(bytes: number): void {
		this.memoryBody = true;
		// Min Transfer Speed cannot be 0 (limits.ts), so the grace is always finite.
		const minSpeed = this.options.lowSpeed?.minBytesPerSecond ?? 0;
		this.graceUntil = minSpeed > 0 ? Date.now() + (bytes / minSpeed) * 1000 : 0;
	}

	/**
	 * Counts a stream's chunks as progress and destroys it when the watch aborts. It observes the
	 * stream's own 'data' and 'end' events as they are emitted instead of listening for them: a
	 * listener would start or stall the stream before its reader takes it over.
	 */
	watch(stream: unknown): void {
		if (!isEmittingStream(stream)) return;
		this.streams.push(stream);
		const emit = stream.emit;
		const seen = (chunk: unknown) => {
			this.lastProgressAt = Date.now();
			this.lastByteAt = this.lastProgressAt;
			const length = (chunk as { length?: unknown } | undefined)?.length;
			if (typeof length === 'number') this.bytes += length;
			if (this.options.maxBytes !== undefined && this.bytes > this.options.maxBytes) this.abort('too-large');
		};
		const ended = () => {
			this.lastProgressAt = Date.now();
			this.endedStreams += 1;
		};
		const isAborted = () => this.reason !== undefined;
		stream.emit = function (this: EmittingStream, event: string | symbol, ...args: unknown[]): boolean {
			if (event === 'data') {
				seen(args[0]);
				// Past a bound, the chunk that crossed it is not handed on.
				if (isAborted()) return false;
			} else if (event === 'end') ended();
			return emit.call(this, event, ...args);
		};
		if (this.reason) stream.destroy?.(new Error(`aborted: ${this.reason}`));
	}

	/** Ends the watch; the request is left alone from now on. */
	stop(): void {
		this.stopController.abort();
		this.options.cancelSignal?.removeEventListener('abort', this.onCancel);
	}

	/** Seconds since the attempt started, for messages. */
	elapsedSeconds(): number {
		return Math.round((Date.now() - this.startedAt) / 1000);
	}

	private abort(reason: AbortReason): void {
		if (this.reason) return;
		this.reason = reason;
		this.abortController.abort();
		for (const stream of this.streams) stream.destroy?.(new Error(`aborted: ${reason}`));
		for (const listener of this.abortListeners.splice(0)) listener(reason);
		this.stop();
	}

	private async runDeadline(ms: number): Promise<void> {
		try {
			await sleep(ms, this.stopController.signal);
		} catch {
			return;
		}
		if (!this.stopController.signal.aborted) this.abort('deadline');
	}

	private async runChecks(): Promise<void> {
		for (;;) {
			try {
				await sleep(TICK_MS, this.stopController.signal);
			} catch {
				return;
			}
			if (this.stopController.signal.aborted) return;
			const now = Date.now();
			if (now < this.graceUntil) {
				this.lastProgressAt = now;
				continue;
			}
			const { idleMs, lowSpeed } = this.options;
			if (idleMs !== undefined && now - this.lastProgressAt >= idleMs) {
				this.abort('idle');
				return;
			}
			// The speed is judged while a watched body moves; once every body has ended, only the
			// idle time bounds the wait for the answer.
			const moving = this.streams.length > this.endedStreams;
			if (lowSpeed && lowSpeed.minBytesPerSecond > 0 && moving) {
				// The ring holds the byte count at each tick of the last window: linear, bounded.
				const windowTicks = this.samples.length;
				const oldest = this.samples[this.sampleIndex];
				this.samples[this.sampleIndex] = this.bytes;
				this.sampleIndex = (this.sampleIndex + 1) % windowTicks;
				this.ticks += 1;
				if (this.ticks >= windowTicks) {
					const windowSeconds = (windowTicks * TICK_MS) / 1000;
					// The ring starts filled with 0, the count when the first body was watched.
					const speed = (this.bytes - oldest) / windowSeconds;
					if (speed < lowSpeed.minBytesPerSecond) {
						this.speedSeen = speed;
						this.abort('too-slow');
						return;
					}
				}
			}
		}
	}
}
