/** Outgoing notifications to callback URLs. Only loopback hosts are ever contacted (tests run
 * a receiver on 127.0.0.1); other URLs are recorded as not delivered. Notifications of one URL go
 * out in order, each retried with exponential backoff on a non-2xx answer or an error; callback
 * faults (callback-faults.ts) delay, duplicate, reorder, replay or drop them. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CallbackFault, CallbackFaults } from './callback-faults';
import type { EmulatorState } from './state';
import type { CallbackDelivery } from './types';
import { isLoopbackHost } from './validate';

export interface CallbackOptions {
	/** Attempts after the first one (the service documents up to 5). */
	retries: number;
	/** First backoff; doubles per retry. */
	retryBaseMs: number;
	timeoutMs: number;
}

interface Outgoing {
	url: string;
	payload: Record<string, unknown>;
	/** The fault that made or shaped it, recorded on the delivery. */
	fault?: string;
	delayMs?: number;
	retries?: number;
}

export class CallbackSender {
	/** A chain per upload (and URL) so that notifications about one upload arrive in order. */
	private chains = new Map<string, Promise<void>>();
	private closed = false;
	private timers = new Set<NodeJS.Timeout>();
	/** Notifications a reorder fault holds, by fault id, until its window ends. */
	private held = new Map<string, Outgoing[]>();

	constructor(
		private readonly state: EmulatorState,
		private readonly options: CallbackOptions,
		private readonly faults: CallbackFaults,
	) {}

	/** Sends a notification, as the faults bound to its upload say. */
	send(url: string, payload: Record<string, unknown>, fault?: string): void {
		const uploadId = String(payload.uploadId ?? '');
		if (this.faults.find('drop', uploadId, payload)) {
			this.record({ url, payload, fault: 'drop' }).reason = 'not sent: a never-sent callback fault';
			return;
		}
		const reorder = this.faults.find('reorder', uploadId, payload);
		if (reorder && fault !== 'reorder') {
			this.hold(reorder, { url, payload, fault });
			return;
		}
		this.dispatch({ url, payload, fault });
	}

	/** Holds a notification until the reorder fault's window ends, then sends what it held newest first. */
	private hold(fault: CallbackFault, outgoing: Outgoing): void {
		let held = this.held.get(fault.id);
		if (!held) {
			held = [];
			this.held.set(fault.id, held);
			this.after(fault.windowMs ?? 1000, () => {
				const batch = this.held.get(fault.id) ?? [];
				this.held.delete(fault.id);
				for (const next of batch.reverse()) this.send(next.url, next.payload, 'reorder');
			});
		}
		held.push(outgoing);
	}

	private dispatch(outgoing: Outgoing): void {
		const uploadId = String(outgoing.payload.uploadId ?? '');
		const { payload } = outgoing;
		const delay = this.faults.find('delay', uploadId, payload);
		const duplicate = this.faults.find('duplicate', uploadId, payload);
		const replay = this.faults.find('replay', uploadId, payload);
		// A receiver that was not ready when processing ended (before-parked): the service's retries ran out.
		const noRetries = this.faults.has('before-parked', uploadId);
		const shaped: Outgoing = {
			...outgoing,
			fault: outgoing.fault ?? (delay ? 'delay' : noRetries ? 'before-parked' : undefined),
			delayMs: delay ? (delay.delayMs ?? 2000) : 0,
			retries: noRetries ? 0 : undefined,
		};
		const copies: Outgoing[] = Array.from({ length: duplicate ? (duplicate.copies ?? 1) : 0 }, () => ({ ...shaped, fault: 'duplicate' }));
		const chain = `${uploadId} ${outgoing.url}`;
		const sent = duplicate?.concurrent
			? this.enqueue(chain, () => Promise.all([shaped, ...copies].map((each) => this.attempt(each))).then(() => undefined))
			: this.enqueue(chain, () => this.attempt(shaped));
		if (duplicate && !duplicate.concurrent) for (const copy of copies) this.enqueue(chain, () => this.attempt(copy));
		if (replay) {
			void sent.then(() => {
				for (let time = 1; time <= (replay.times ?? 1); time++) {
					this.after((replay.afterMs ?? 2000) * time, () => this.enqueue(chain, () => this.attempt({ url: outgoing.url, payload, fault: 'replay' })));
				}
			});
		}
	}

	/** Runs `work` after the chain's earlier notifications; resolves when it ends. */
	private enqueue(chain: string, work: () => Promise<void>): Promise<void> {
		const previous = this.chains.get(chain) ?? Promise.resolve();
		const next = previous.then(work, work);
		this.chains.set(chain, next);
		void next.then(() => {
			if (this.chains.get(chain) === next) this.chains.delete(chain);
		});
		return next;
	}

	private record(outgoing: Outgoing): CallbackDelivery {
		const delivery: CallbackDelivery = { url: outgoing.url, payload: outgoing.payload, attempts: 0, delivered: false, statuses: [] };
		if (outgoing.fault) delivery.fault = outgoing.fault;
		this.state.callbacks.push(delivery);
		return delivery;
	}

	/** One delivery: its attempts, with backoff between them. */
	private async attempt(outgoing: Outgoing): Promise<void> {
		const delivery = this.record(outgoing);
		let target: URL;
		try {
			target = new URL(outgoing.url);
		} catch {
			delivery.reason = 'invalid URL';
			return;
		}
		if (!isLoopbackHost(target.hostname)) {
			delivery.reason = 'not delivered: the emulator only calls loopback hosts';
			return;
		}
		if (outgoing.delayMs) await this.wait(outgoing.delayMs);
		const retries = outgoing.retries ?? this.options.retries;
		for (let attempt = 0; attempt <= retries && !this.closed; attempt++) {
			if (attempt > 0) await this.wait(this.options.retryBaseMs * 2 ** (attempt - 1));
			if (this.closed) return;
			delivery.attempts += 1;
			delivery.firstAttemptAt ??= this.state.clock.now();
			try {
				const status = await this.post(target, delivery.payload);
				delivery.lastStatus = status;
				delivery.statuses.push(status);
				if (status >= 200 && status < 300) {
					delivery.delivered = true;
					return;
				}
			} catch (error) {
				delivery.lastError = (error as Error).message;
				delivery.statuses.push(0);
			} finally {
				delivery.lastAttemptAt = this.state.clock.now();
			}
		}
	}

	private after(ms: number, run: () => void): void {
		if (this.closed) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (!this.closed) run();
		}, ms);
		timer.unref();
		this.timers.add(timer);
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			timer.unref();
			this.timers.add(timer);
		});
	}

	private post(target: URL, payload: Record<string, unknown>): Promise<number> {
		const body = JSON.stringify(payload);
		const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
		return new Promise((resolve, reject) => {
			const req = send(
				target,
				{
					method: 'POST',
					headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'document-extraction-emulator' },
					timeout: this.options.timeoutMs,
					rejectUnauthorized: false,
				},
				(res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
				},
			);
			req.on('timeout', () => req.destroy(new Error('callback timed out')));
			req.on('error', reject);
			req.end(body);
		});
	}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.held.clear();
	}
}
