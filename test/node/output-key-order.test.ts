/**
 * n8n's Table view shows an item's keys as columns in the order of its JSON. A file record has
 * more than twenty keys, so the file's name, its status and the extracted values come first
 * (issue 14, "the first five minutes"): these tests read the first keys of real output items.
 */
import type { IDataObject } from 'n8n-workflow';

import { uploadAndGetFile } from '../emulator/test-helpers';
import {
	INVOICE_EXPECTED,
	INVOICE_FILE_NAME,
	RECEIPT_FILE_NAME,
	invoiceText,
	mixedZip,
	receiptText,
} from '../../dev/documents';
import { createBinaryItem } from '../../dev/harness';
import { ActiveTrigger } from '../trigger/support';
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

function firstKeys(json: IDataObject, count: number): string[] {
	return Object.keys(json).slice(0, count);
}

async function uploadItem(fileName: string, data: Buffer | string, mimeType?: string) {
	return await createBinaryItem({ buffer: Buffer.isBuffer(data) ? data : Buffer.from(data), fileName, mimeType });
}

describe('Output items put the file name, status and values first', () => {
	it('File > Upload with Wait for Completion: fileName, status, values, fileId, then the rest of the record', async () => {
		const { items, error } = await runOperation(emulator, 'file', 'upload', { options: { pollInterval: 0.5 } }, {
			inputItems: [await uploadItem(INVOICE_FILE_NAME, invoiceText())],
		});

		expect(error).toBeUndefined();
		expect(firstKeys(items[0].json, 4)).toEqual(['fileName', 'status', 'values', 'fileId']);
		expect(items[0].json).toMatchObject({ fileName: INVOICE_FILE_NAME, status: 'processed', values: INVOICE_EXPECTED });
		// Nothing dropped: the rest of the file record follows (the emulator's has 23 keys).
		expect(Object.keys(items[0].json)).toEqual(expect.arrayContaining(['uploadId', 'fileType', 'fileSize', 'createdAt', 'updatedAt']));
	});

	it('File > Upload with Simplify off: the raw form values (formValues) come third', async () => {
		const { items, error } = await runOperation(emulator, 'file', 'upload', { simplify: false, options: { pollInterval: 0.5 } }, {
			inputItems: [await uploadItem(RECEIPT_FILE_NAME, receiptText())],
		});

		expect(error).toBeUndefined();
		expect(firstKeys(items[0].json, 4)).toEqual(['fileName', 'status', 'formValues', 'fileId']);
	});

	it('File > Upload of a ZIP: processed members lead with fileName, status, values; failed ones with fileName, status, errorReason', async () => {
		const { items, error } = await runOperation(emulator, 'file', 'upload', { options: { pollInterval: 0.5 } }, {
			inputItems: [await uploadItem('scanned-batch.zip', await mixedZip(), 'application/zip')],
		});

		expect(error).toBeUndefined();
		const processed = items.filter((item) => item.json.status === 'processed');
		const failed = items.filter((item) => item.json.status === 'failed');
		expect(processed).toHaveLength(3);
		expect(failed).toHaveLength(2);
		for (const item of processed) expect(firstKeys(item.json, 4)).toEqual(['fileName', 'status', 'values', 'fileId']);
		for (const item of failed) expect(firstKeys(item.json, 3)).toEqual(['fileName', 'status', 'errorReason']);
	});

	it('File > Upload without waiting: fileName and status first, then the upload ID', async () => {
		const { items, error } = await runOperation(emulator, 'file', 'upload', { waitForCompletion: false }, {
			inputItems: [await uploadItem(INVOICE_FILE_NAME, invoiceText())],
		});

		expect(error).toBeUndefined();
		expect(firstKeys(items[0].json, 2)).toEqual(['fileName', 'status']);
		expect(items[0].json).toMatchObject({ status: 'uploaded', uploadId: expect.any(String) });
	});

	it('File > Get Many: fileName, status, fileId first', async () => {
		const file = await uploadAndGetFile(emulator, INVOICE_FILE_NAME, invoiceText());

		const { items, error } = await runOperation(emulator, 'file', 'getMany', { filters: { fileIds: String(file.fileId) } });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(firstKeys(items[0].json, 3)).toEqual(['fileName', 'status', 'fileId']);
	});

	it('File > Get Values: simplified, the fields in the form order; raw, fileName and fields first', async () => {
		const file = await uploadAndGetFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const fileId = { __rl: true, mode: 'id', value: String(file.fileId) };

		const simplified = await runOperation(emulator, 'file', 'getValues', { fileId });
		const raw = await runOperation(emulator, 'file', 'getValues', { fileId, simplify: false });

		expect(simplified.error).toBeUndefined();
		expect(Object.keys(simplified.items[0].json)).toEqual(Object.keys(INVOICE_EXPECTED));
		expect(raw.error).toBeUndefined();
		expect(firstKeys(raw.items[0].json, 4)).toEqual(['fileName', 'fields', 'fileId', 'id']);
	});

	it('Document Extraction Trigger (File Processed, with values): fileName, status, values, fileId first', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', options: { includeValues: true } });
		await trigger.poll();
		await uploadAndGetFile(emulator, RECEIPT_FILE_NAME, receiptText());

		const { items, error } = await trigger.poll();

		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(firstKeys(item.json, 4)).toEqual(['fileName', 'status', 'values', 'fileId']);
	});
});
