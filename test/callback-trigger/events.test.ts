/**
 * What each event emits: File Processed (one item per processed file, a ZIP's members included),
 * Processing Failed (one item per file that failed, with its errorReason, only when asked) and
 * Processing Step (one item per step the API lists, only when asked), each once.
 */
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, buildZip, emptyFile, invoiceText, receiptText } from '../../dev/documents';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, callBackTo, callbacksSettled, completedBody, statusRequests } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS, 'test');

const ALL_EVENTS = { events: ['fileProcessed', 'processingFailed', 'processingStep'] };

describe('events', () => {
	it('a failed document: nothing by default (answered 200, remembered); with Processing Failed one item with its errorReason', async () => {
		const quiet = await activateCallbackTrigger(emulator);
		callBackTo(emulator, quiet);
		const { uploadId } = await uploadFile(emulator, 'empty.txt', emptyFile());
		const deliveries = await callbacksSettled(emulator, quiet);
		expect(deliveries.at(-1)?.payload).toMatchObject({ status: 'failed', uploadId });
		expect(deliveries.at(-1)).toMatchObject({ delivered: true, lastStatus: 200 });
		expect(quiet.emissions()).toEqual([]);
		expect(quiet.staticData().handled).toEqual([`u:${uploadId}`]);

		const told = await activateCallbackTrigger(emulator, { events: ['fileProcessed', 'processingFailed'] }, { nodeId: 'told' });
		const answer = await told.post({ status: 'failed', step: 'processing_failed', uploadId, errorReason: 'forged reason' });
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });
		expect(told.items().map((item) => item.json)).toEqual([expect.objectContaining({ uploadId, fileName: 'empty.txt', status: 'failed', errorReason: 'The file is empty' })]);
		// The reason is the API's, never the body's.
		expect(JSON.stringify(told.items())).not.toContain('forged reason');
	});

	it('a ZIP: one item per processed member; its failed members only with Processing Failed; all in one execution', async () => {
		const trigger = await activateCallbackTrigger(emulator, { events: ['fileProcessed', 'processingFailed'] });
		callBackTo(emulator, trigger);
		const zip = await buildZip([
			{ name: INVOICE_FILE_NAME, data: invoiceText() },
			{ name: RECEIPT_FILE_NAME, data: receiptText() },
			{ name: 'empty.txt', data: emptyFile() },
		]);
		const { uploadId } = await uploadFile(emulator, 'batch.zip', zip, { fileType: 'application/zip' });
		await callbacksSettled(emulator, trigger);
		expect(trigger.emissions()).toHaveLength(1);
		const items = trigger.items().map((item) => item.json);
		expect(items.map((item) => [item.fileName, item.status])).toEqual([
			[INVOICE_FILE_NAME, 'processed'],
			[RECEIPT_FILE_NAME, 'processed'],
			['empty.txt', 'failed'],
		]);
		expect(items[2]).toMatchObject({ zipUploadId: uploadId, errorReason: 'The file is empty' });
	});

	it('Processing Step: one item per step the API lists, each once; a step it does not list is not emitted', async () => {
		const trigger = await activateCallbackTrigger(emulator, ALL_EVENTS);
		callBackTo(emulator, trigger);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		await callbacksSettled(emulator, trigger);
		const items = trigger.items().map((item) => item.json);
		expect(items.map((item) => item.step ?? item.status)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection', 'processed']);
		expect(items[0]).toMatchObject({ uploadId, status: 'waiting', stepStatus: 'completed' });

		const again = await trigger.post({ status: 'waiting', step: 'processing_started', uploadId });
		expect(again).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
		const invented = await trigger.post({ status: 'waiting', step: 'payment_captured', uploadId });
		expect(invented).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
		expect(trigger.emissions()).toHaveLength(4);
	});

	it('"failed" in the body of a processed upload: the API decides, the document is emitted as processed', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const answer = await trigger.post({ ...completedBody(uploadId), status: 'failed' });
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		expect(trigger.items()[0].json).toMatchObject({ uploadId, status: 'processed' });
		expect(statusRequests(emulator)).toHaveLength(1);
	});
});
