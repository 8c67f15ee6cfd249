/**
 * The Callback Trigger emits each processed document exactly once, checked through the API, with
 * the fields the polling trigger emits: over the emulator's real callbacks (every step of an
 * upload), the service's retries after a 503, repeated and concurrent deliveries of one callback.
 */
import { pollTrigger } from '../../dev/harness';
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, invoiceText, receiptText } from '../../dev/documents';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import {
	EMULATOR_OPTIONS,
	SEEDED_KEYS,
	activateCallbackTrigger,
	callBackTo,
	callbacksSettled,
	completedBody,
	credentialsFor,
	duplicatesOf,
	emittedFileIds,
	statusRequests,
} from './support';

const emulator = useEmulator(EMULATOR_OPTIONS, 'test');

describe('a processed upload, called back by the service', () => {
	it('emits one item, with the fields the polling trigger emits for the same file; intermediate steps cost nothing', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		callBackTo(emulator, trigger);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const deliveries = await callbacksSettled(emulator, trigger);

		// The emulator called for every step; all were answered 2xx.
		expect(deliveries.map((delivery) => delivery.payload.step)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection', 'processing_finished']);
		expect(deliveries.every((delivery) => delivery.delivered && delivery.attempts === 1)).toBe(true);
		expect(trigger.emissions()).toHaveLength(1);
		const [item] = trigger.items();
		expect(item.json).toMatchObject({ uploadId, status: 'processed', fileName: INVOICE_FILE_NAME });
		// Steps were not asked for: one status request, for the final callback only.
		expect(statusRequests(emulator)).toHaveLength(1);

		const polled = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: { event: 'fileProcessed', startFrom: 'date', startDate: '2000-01-01T00:00:00Z' },
			credentials: credentialsFor(emulator),
		});
		expect(polled.items.map((polledItem) => polledItem.json)).toEqual([item.json]);
		expect(Object.keys(item.json)).toEqual(Object.keys(polled.items[0].json));
	});

	it('with Include Extracted Values: the values the polling trigger adds', async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { includeValues: true } });
		callBackTo(emulator, trigger);
		await uploadFile(emulator, RECEIPT_FILE_NAME, receiptText());
		await callbacksSettled(emulator, trigger);
		const polled = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: { event: 'fileProcessed', startFrom: 'date', startDate: '2000-01-01T00:00:00Z', options: { includeValues: true } },
			credentials: credentialsFor(emulator),
		});
		expect(trigger.items().map((item) => item.json)).toEqual(polled.items.map((item) => item.json));
		expect(trigger.items()[0].json.values).toBeDefined();
	});

	it("with Include Extracted Values, the values typed by their fields, as the polling trigger's current typeVersion emits them", async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { includeValues: true } });
		callBackTo(emulator, trigger);
		// A lax service sends a number and a boolean as text.
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/values$/,
			edit: (body) => {
				const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
				answer.values.formValues[0].fields = [
					{ title: 'Total', type: 'number', value: '1234.50' },
					{ title: 'Paid', type: 'boolean', value: 'TRUE' },
				];
				return answer;
			},
		});
		await uploadFile(emulator, RECEIPT_FILE_NAME, receiptText());
		await callbacksSettled(emulator, trigger);

		expect(trigger.items()[0].json.values).toEqual({ Total: 1234.5, Paid: true });
	});

	it('the same callback again, 3 times: answered "duplicate", nothing more emitted and nothing asked of the API', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		callBackTo(emulator, trigger);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		await callbacksSettled(emulator, trigger);
		const before = statusRequests(emulator).length;
		for (let repeat = 0; repeat < 3; repeat++) {
			const call = await trigger.post(completedBody(uploadId, 'ignored-ids'));
			expect(call).toMatchObject({ status: 200, body: { outcome: 'duplicate' }, hung: false });
			expect(call.emitted).toBeUndefined();
		}
		expect(trigger.emissions()).toHaveLength(1);
		expect(statusRequests(emulator)).toHaveLength(before);
	});

	it('20 deliveries of one callback at once: one check, one emission; every call answered 200', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		// No callback URL: the test delivers the callback itself, 20 times at once.
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const calls = await Promise.all(Array.from({ length: 20 }, async () => await trigger.post(completedBody(uploadId))));
		expect(calls.map((call) => call.status)).toEqual(calls.map(() => 200));
		expect(calls.filter((call) => call.emitted !== undefined)).toHaveLength(1);
		expect(calls.filter((call) => (call.body as { outcome: string }).outcome === 'emitted')).toHaveLength(1);
		expect(emittedFileIds(trigger)).toHaveLength(1);
		expect(statusRequests(emulator)).toHaveLength(1);
	});

	it('the API failing at first: answered 503 (Retry-After), the service calls again, the document is emitted once', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		callBackTo(emulator, trigger);
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 500, count: 1 });
		await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const deliveries = await callbacksSettled(emulator, trigger);
		const final = deliveries.find((delivery) => delivery.payload.step === 'processing_finished');
		// The check is one request, never repeated (the caller is nobody yet): the failed one is answered 503, the
		// service's repeats within CALLBACK_LIMITS.recentAnswerMs are answered 503 from memory, a later one emits.
		expect(final).toMatchObject({ delivered: true });
		expect(statusRequests(emulator).map((entry) => entry.status)).toEqual([500, 200]);
		const answers = trigger.calls.map((call) => call.status);
		expect(answers.filter((status) => status === 503).length).toBe(Number(final?.attempts) - 1);
		expect(trigger.calls.find((call) => call.status === 503)?.headers['retry-after']).toBe('30');
		expect(emittedFileIds(trigger)).toHaveLength(1);
	});

	it('many uploads, each callback delivered twice and out of order: each document exactly once', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const uploads = [];
		for (let index = 0; index < 12; index++) uploads.push(await uploadFile(emulator, `invoice-${index}.txt`, `${invoiceText()}Note: copy ${index}\n`));
		const bodies = uploads.flatMap(({ uploadId }) => [completedBody(uploadId), completedBody(uploadId)]).reverse();
		await Promise.all(bodies.map(async (body) => await trigger.post(body)));
		const ids = emittedFileIds(trigger);
		expect(duplicatesOf(ids)).toEqual([]);
		expect(ids).toHaveLength(12);
		expect(new Set(trigger.items().map((item) => item.json.uploadId))).toEqual(new Set(uploads.map((upload) => upload.uploadId)));
	});

	it("another workspace's trigger never emits workspace A's uploads", async () => {
		const trigger = await activateCallbackTrigger(emulator, {}, { apiKey: SEEDED_KEYS.workspaceB });
		callBackTo(emulator, trigger);
		await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const deliveries = await callbacksSettled(emulator, trigger);
		expect(trigger.emissions()).toEqual([]);
		const final = deliveries.find((delivery) => delivery.payload.step === 'processing_finished');
		expect(final?.lastStatus).toBe(404);
	});
});
