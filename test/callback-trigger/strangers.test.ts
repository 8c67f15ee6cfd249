/**
 * Strangers cost nothing: whoever calls the Callback Trigger's URL, and however often, the API
 * requests it causes are bounded by the trigger's own bounds (CALLBACK_LIMITS), not by the
 * caller's rate. Counted in the emulator's request log; the wait clock is held still (a fake one),
 * so "a short while" is the same every run.
 */
import { randomUUID } from 'node:crypto';

import { INVOICE_FILE_NAME } from '../../dev/documents';
import { CALLBACK_LIMITS } from '../../nodes/shared/limits';
import { call } from '../emulator/test-helpers';
import { loadBuiltPackage, useEmulator, useFakeWaitClock } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, completedBody, statusRequests } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);
// The package and n8n-core loaded before the first test (slow on a busy machine), not within its time.
beforeAll(async () => {
	await loadBuiltPackage();
}, 300_000);
const clock = useFakeWaitClock();

beforeEach(() => {
	emulator.requests.length = 0;
	emulator.faults.clear();
});

describe('a made-up upload id', () => {
	it('sent 50 times costs one status request; each call is answered 404; after unknownUploadMs it is asked again once', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const uploadId = randomUUID();

		const answers = [];
		for (let index = 0; index < 50; index++) answers.push(await trigger.post(completedBody(uploadId)));

		expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 404));
		expect(answers.every((answer) => (answer.body as { outcome: string }).outcome === 'unknownUpload')).toBe(true);
		expect(statusRequests(emulator)).toHaveLength(1);
		// Its steps too: the upload is unknown whatever the call says of it.
		expect(await trigger.post({ status: 'failed', step: 'processing_failed', uploadId })).toMatchObject({ status: 404 });
		expect(statusRequests(emulator)).toHaveLength(1);

		clock.advance(CALLBACK_LIMITS.unknownUploadMs);
		expect(await trigger.post(completedBody(uploadId))).toMatchObject({ status: 404 });
		expect(statusRequests(emulator)).toHaveLength(2);
	});

	it('while the API answers 503: one request per call, never repeated, and none for the same upload for recentAnswerMs (503 with Retry-After)', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 1000 });
		const uploadId = randomUUID();

		const first = await trigger.post(completedBody(uploadId));
		expect(first).toMatchObject({ status: 503, body: { outcome: 'retryLater' } });
		expect(first.headers['retry-after']).toBe(String(CALLBACK_LIMITS.retryAfterSeconds));
		expect(statusRequests(emulator)).toHaveLength(1);

		for (let index = 0; index < 20; index++) expect(await trigger.post(completedBody(uploadId))).toMatchObject({ status: 503 });
		expect(statusRequests(emulator)).toHaveLength(1);

		clock.advance(CALLBACK_LIMITS.recentAnswerMs);
		await trigger.post(completedBody(uploadId));
		// Ten other made-up ids: one request each, none repeated.
		for (let index = 0; index < 10; index++) expect(await trigger.post(completedBody(randomUUID()))).toMatchObject({ status: 503 });
		expect(statusRequests(emulator)).toHaveLength(12);
	});
});

describe('many made-up calls at once', () => {
	it(`100 at once, while the API is slow: at most ${CALLBACK_LIMITS.maxChecksInFlight} status requests; the others are answered 503 with Retry-After and cost nothing`, async () => {
		const trigger = await activateCallbackTrigger(emulator);
		emulator.faults.delayNext({ method: 'GET', path: /\/uploads\//, delayMs: 1500, count: 100 });

		const answers = await Promise.all(Array.from({ length: 100 }, async () => await trigger.post(completedBody(randomUUID()))));

		const asked = statusRequests(emulator).length;
		expect(asked).toBeGreaterThan(0);
		expect(asked).toBeLessThanOrEqual(CALLBACK_LIMITS.maxChecksInFlight);
		expect(answers.filter((answer) => answer.status === 404)).toHaveLength(asked);
		const busy = answers.filter((answer) => answer.status === 503);
		expect(busy).toHaveLength(100 - asked);
		expect(busy.every((answer) => answer.headers['retry-after'] === String(CALLBACK_LIMITS.retryAfterSeconds))).toBe(true);
		expect(trigger.emissions()).toEqual([]);
	});

	it(`five trigger nodes, 20 calls each at once: at most ${CALLBACK_LIMITS.maxChecksInFlightPerProcess} status requests in the process`, async () => {
		const triggers = await Promise.all(Array.from({ length: 5 }, async (_, index) => await activateCallbackTrigger(emulator, {}, { nodeId: `stranger-node-${index}` })));
		emulator.faults.delayNext({ method: 'GET', path: /\/uploads\//, delayMs: 1500, count: 100 });

		await Promise.all(triggers.flatMap((trigger) => Array.from({ length: 20 }, async () => await trigger.post(completedBody(randomUUID())))));

		expect(statusRequests(emulator).length).toBeLessThanOrEqual(CALLBACK_LIMITS.maxChecksInFlightPerProcess);
		for (const trigger of triggers) {
			expect(trigger.calls.filter((entry) => entry.status === 404).length).toBeLessThanOrEqual(CALLBACK_LIMITS.maxChecksInFlight);
		}
	});
});

describe('a real upload still processing', () => {
	it('a forged "completed" sent 30 times costs one status request (503 each); after recentAnswerMs it is asked again', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const requested = await call(emulator, 'POST', '/files/upload', { body: { fileName: INVOICE_FILE_NAME, fileType: 'text/plain' } });
		const { uploadId } = requested.body as { uploadId: string };
		emulator.requests.length = 0;

		for (let index = 0; index < 30; index++) expect(await trigger.post(completedBody(uploadId))).toMatchObject({ status: 503 });
		expect(await trigger.post({ status: 'waiting', step: 'processing_started', uploadId })).toMatchObject({ status: 200, body: { outcome: 'ignored' } });

		expect(statusRequests(emulator)).toHaveLength(1);
		clock.advance(CALLBACK_LIMITS.recentAnswerMs);
		await trigger.post(completedBody(uploadId));
		expect(statusRequests(emulator)).toHaveLength(2);
		expect(trigger.emissions()).toEqual([]);
	});
});
