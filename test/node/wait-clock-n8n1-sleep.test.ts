/**
 * n8n 1.x's `sleep(ms)` from n8n-workflow takes no abort signal and always runs its whole time.
 * The transport's wait clock (nodes/shared/run/clock.ts) must still end a wait the moment the execution
 * is stopped: here n8n-workflow's sleep is n8n 1.x's (a plain timer that ignores the signal), and
 * time only moves when the test moves it.
 */
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	// n8n-workflow 1.x: export const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
	sleep: async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms)),
}));

import { waitClock } from '../../nodes/shared/run/clock';

describe('wait clock over a sleep without a cancel signal (n8n 1.x)', () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	it('a 60 s wait ends as soon as the signal aborts, with 59.9 s of the timer still to run', async () => {
		const controller = new AbortController();
		let outcome: string | undefined;
		const waiting = waitClock.sleep(60_000, controller.signal).then(
			() => (outcome = 'resolved'),
			(error: Error) => (outcome = `rejected: ${error.message}`),
		);
		await jest.advanceTimersByTimeAsync(100);
		expect(outcome).toBeUndefined();
		controller.abort();
		await waiting;
		expect(outcome).toBe('rejected: The execution was stopped');
		expect(jest.getTimerCount()).toBe(1); // 1.x's own timer, left to run out harmlessly
	});

	it('a wait whose signal is already aborted does not start', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(waitClock.sleep(60_000, controller.signal)).rejects.toThrow('The execution was stopped');
	});

	it('without a stop the wait runs its full time and resolves', async () => {
		const controller = new AbortController();
		let resolved = false;
		const waiting = waitClock.sleep(5_000, controller.signal).then(() => (resolved = true));
		await jest.advanceTimersByTimeAsync(4_999);
		expect(resolved).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		await waiting;
		expect(resolved).toBe(true);
		controller.abort(); // after the wait: nothing listens any more, nothing rejects
	});

	it('without a signal (outside an execution) it is a plain wait', async () => {
		let resolved = false;
		const waiting = waitClock.sleep(1_000).then(() => (resolved = true));
		await jest.advanceTimersByTimeAsync(1_000);
		await waiting;
		expect(resolved).toBe(true);
	});
});
