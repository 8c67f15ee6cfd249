/**
 * Every call is answered whatever the API does (the service gives up after 30 s): an API that
 * never answers gets the call a 503 (the service calls again), never silence; the values are read
 * before the answer, by a deadline of their own, and a document whose values cannot be read is
 * still emitted (n8n answers it once webhook() has returned the run). webhook() never throws and
 * never leaves a caller without an answer.
 */
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { CALLBACK_LIMITS } from '../../nodes/shared/limits';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, completedBody, emittedFileIds, statusRequests } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);

describe('answering in time', () => {
	it('an API that never answers: 503 with Retry-After once the answer time is up, nothing emitted, nothing remembered', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		emulator.faults.hangNext({ method: 'GET', path: /\/uploads\//, count: 1 });
		const answer = await trigger.post(completedBody(uploadId));
		expect(answer).toMatchObject({ status: 503, body: { outcome: 'retryLater' }, hung: false });
		expect(answer.headers['retry-after']).toBe('30');
		expect(answer.thrown).toBeUndefined();
		expect(trigger.emissions()).toEqual([]);
		// The API's answer never came: the status request is still open in the emulator's log.
		expect(statusRequests(emulator).map((entry) => entry.fault)).toEqual(['hang']);

		// The service's repeat within CALLBACK_LIMITS.recentAnswerMs is answered 503 from memory, no request;
		// nothing was remembered as handled: its next call after that is checked again and emits.
		expect(await trigger.post(completedBody(uploadId))).toMatchObject({ status: 503, body: { outcome: 'retryLater' } });
		expect(statusRequests(emulator)).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, CALLBACK_LIMITS.recentAnswerMs));
		const again = await trigger.post(completedBody(uploadId));
		expect(again).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		expect(emittedFileIds(trigger)).toHaveLength(1);
	});

	it('values that cannot be read: the document is emitted with valuesError, and n8n answers the call once webhook() has handed it the run', async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { includeValues: true, requestTimeout: 1, maxRateLimitWait: 0 } });
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		emulator.faults.hangNext({ method: 'GET', path: /\/values/, count: 1 });
		const answer = await trigger.post(completedBody(uploadId));
		// Not answered by the node before it returned: an answer ahead of the run is one a stopping n8n can drop.
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 }, answeredBeforeReturn: false });
		const [item] = trigger.items();
		expect(item.json).toMatchObject({ uploadId, status: 'processed' });
		expect(item.json.values).toBeUndefined();
		expect(String(item.json.valuesError)).toMatch(/values|timed out|Request Timeout/i);
	});

	it('values that never answer, with the default timeouts: their own deadline ends the values requests; answered 200, emitted with valuesError naming it', async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { includeValues: true } });
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		emulator.faults.hangNext({ method: 'GET', path: /\/values/, count: 1 });
		const answer = await trigger.post(completedBody(uploadId));
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 }, hung: false, answeredBeforeReturn: false });
		const [item] = trigger.items();
		expect(item.json).toMatchObject({ uploadId, status: 'processed' });
		expect(item.json.values).toBeUndefined();
		expect(String(item.json.valuesError)).toContain(`read within ${CALLBACK_LIMITS.valuesWithinMs / 1000} s of the call`);
	});

	it('an invalid option (History Size from an expression): 503, so that the service calls again once it is fixed; no throw', async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { historySize: -3 } });
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const answer = await trigger.post(completedBody(uploadId));
		expect(answer).toMatchObject({ status: 503, hung: false });
		expect(answer.thrown).toBeUndefined();
		expect(statusRequests(emulator)).toHaveLength(0);
	});
});
