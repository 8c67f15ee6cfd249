import { sleep } from 'n8n-workflow';

/** A body sent from memory shows no progress n8n lets a node see: it gets this much extra time. */
const MEMORY_BODY_BYTES_PER_SECOND = 128 * 1024;

interface EmittingStream {
	emit(event: string | symbol, ...args: unknown[]): boolean;
	pipe(...args: unknown[]): unknown;
}

function isEmittingStream(value: unknown): value is EmittingStream {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as EmittingStream).emit === 'function' &&
		typeof (value as EmittingStream).pipe === 'function'
	);
}

/**
 * The idle timeout of one storage transfer (a presigned PUT or a download), in real time: it
 * aborts the request when no byte has moved and no answer has come for `idleMs`, and at once
 * when the execution is stopped. Progress is seen on the streams it watches; a body sent from
 * memory gets a grace of one second per 128 KiB on top. Checks run every idleMs / 2, so a stall
 * is noticed between idleMs and 1.5 x idleMs after the last progress.
 */
export class TransferWatchdog {
	/** Pass as the request's abortSignal. */
	readonly signal: AbortSignal;
	/** Why the request was aborted, once it was. */
	reason: 'idle' | 'cancelled' | undefined;
	private readonly abortController = new AbortController();
	private readonly stopController = new AbortController();
	private progressed = true;
	private graceUntil = 0;
	private readonly onCancel = () => this.abort('cancelled');

	constructor(
		readonly idleMs: number,
		private readonly cancelSignal?: AbortSignal,
	) {
		this.signal = this.abortController.signal;
		if (cancelSignal?.aborted) this.abort('cancelled');
		else cancelSignal?.addEventListener('abort', this.onCancel, { once: true });
		void this.run();
	}

	/** Progress: resets the idle time. */
	readonly touch = (): void => {
		this.progressed = true;
	};

	/** Extra time for a body sent from memory, whose progress cannot be observed. */
	allowMemoryBody(bytes: number): void {
		this.graceUntil = Date.now() + (bytes / MEMORY_BODY_BYTES_PER_SECOND) * 1000;
	}

	/**
	 * Counts the chunks of a stream as progress. It observes the stream's own 'data' and 'end'
	 * events as they are emitted instead of listening for them: a listener would start or stall
	 * the stream before its reader (n8n's HTTP client or binary storage) takes it over.
	 */
	watch(stream: unknown): void {
		if (!isEmittingStream(stream)) return;
		const emit = stream.emit;
		const touch = this.touch;
		stream.emit = function (this: EmittingStream, event: string | symbol, ...args: unknown[]): boolean {
			if (event === 'data' || event === 'end') touch();
			return emit.call(this, event, ...args);
		};
	}

	/** Ends the watch; the request is left alone from now on. */
	stop(): void {
		this.stopController.abort();
		this.cancelSignal?.removeEventListener('abort', this.onCancel);
	}

	private abort(reason: 'idle' | 'cancelled'): void {
		if (this.reason) return;
		this.reason = reason;
		this.abortController.abort();
		this.stop();
	}

	private async run(): Promise<void> {
		let quietChecks = 0;
		for (;;) {
			try {
				await sleep(this.idleMs / 2, this.stopController.signal);
			} catch {
				return;
			}
			if (this.progressed || Date.now() < this.graceUntil) {
				this.progressed = false;
				quietChecks = 0;
			} else if (++quietChecks >= 2) {
				this.abort('idle');
				return;
			}
		}
	}
}
