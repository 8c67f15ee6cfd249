/** Outgoing notifications to callback URLs. Only loopback hosts are ever contacted (tests run
 * a receiver on 127.0.0.1); other URLs are recorded as not delivered. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
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

export class CallbackSender {
	/** Per-URL chain so notifications about one upload arrive in order. */
	private chains = new Map<string, Promise<void>>();
	private closed = false;
	private timers = new Set<NodeJS.Timeout>();

	constructor(
		private readonly state: EmulatorState,
		private readonly options: CallbackOptions,
	) {}

	send(url: string, payload: Record<string, unknown>): void {
		const delivery: CallbackDelivery = { url, payload, attempts: 0, delivered: false };
		this.state.callbacks.push(delivery);
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			delivery.reason = 'invalid URL';
			return;
		}
		if (!isLoopbackHost(target.hostname)) {
			delivery.reason = 'not delivered: the emulator only calls loopback hosts';
			return;
		}
		const previous = this.chains.get(url) ?? Promise.resolve();
		const next = previous.then(() => this.deliver(target, delivery));
		this.chains.set(url, next);
		void next.then(() => {
			if (this.chains.get(url) === next) this.chains.delete(url);
		});
	}

	private async deliver(target: URL, delivery: CallbackDelivery): Promise<void> {
		for (let attempt = 0; attempt <= this.options.retries && !this.closed; attempt++) {
			if (attempt > 0) await this.wait(this.options.retryBaseMs * 2 ** (attempt - 1));
			if (this.closed) return;
			delivery.attempts += 1;
			try {
				const status = await this.post(target, delivery.payload);
				delivery.lastStatus = status;
				if (status >= 200 && status < 300) {
					delivery.delivered = true;
					return;
				}
			} catch (error) {
				delivery.lastError = (error as Error).message;
			}
		}
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
	}
}
