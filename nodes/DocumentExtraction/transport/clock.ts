import { sleep } from 'n8n-workflow';

/**
 * The time source of every wait the transport decides (rate limits, backoff, the processing
 * wait, budgets and deadlines). One object, so that a test can replace `now` and `sleep` and
 * check the waits without waiting for them. Request timeouts are real time (see watchdog.ts).
 */
export interface WaitClock {
	now(): number;
	/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const waitClock: WaitClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(ms, signal),
};
