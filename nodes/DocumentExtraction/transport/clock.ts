import { sleep } from 'n8n-workflow';

/**
 * The time source of every wait the transport decides (rate limits, backoff, the processing
 * wait, budgets and deadlines). One object, so that a test can replace `now` and `sleep` and
 * check the waits without waiting for them. Request timeouts are real time (see watch.ts).
 */
interface WaitClock {
	now(): number;
	/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const waitClock: WaitClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await endOnAbort(sleep(ms, signal), signal),
};

/**
 * n8n 1.x's `sleep(ms)` takes no signal and runs its whole time: racing it against the signal
 * ends a wait as soon as the execution is stopped on every n8n (2.x's sleep also ends itself).
 */
async function endOnAbort(wait: Promise<void>, signal?: AbortSignal): Promise<void> {
	if (!signal) return await wait;
	if (signal.aborted) throw new Error('The execution was stopped');
	let onAbort = () => {};
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('The execution was stopped'));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([wait, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
