import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	INVOICE_EXPECTED,
	INVOICE_FILE_NAME,
	INVOICE_PDF_FILE_NAME,
	RECEIPT_EXPECTED,
	RECEIPT_FILE_NAME,
	buildZip,
	corruptPdf,
	invoicePdf,
	invoiceText,
	receiptText,
} from '../fixtures/documents';
import type { BinaryDataMode } from '../harness';
import { createBinaryItem, runNode } from '../harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

async function binaryItem(
	fileName: string,
	data: Buffer | string,
	mode: BinaryDataMode = 'default',
	mimeType?: string,
): Promise<INodeExecutionData> {
	return await createBinaryItem({
		buffer: Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'),
		fileName,
		...(mimeType ? { mimeType } : {}),
		mode,
	});
}

async function upload(
	inputItems: INodeExecutionData[],
	parameters: IDataObject = {},
	mode: BinaryDataMode = 'default',
) {
	return await runNode({
		type: 'documentExtraction',
		parameters: {
			resource: 'file',
			operation: 'upload',
			...parameters,
			options: { pollInterval: 0.5, ...((parameters.options as IDataObject) ?? {}) },
		},
		credentials: credentialsFor(emulator),
		inputItems,
		binaryDataMode: mode,
	});
}

describe('File > Upload with Wait for Completion', () => {
	it('uploads a text invoice and outputs the processed file with its simplified values', async () => {
		const { items, error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())]);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			fileName: INVOICE_FILE_NAME,
			fileType: 'text/plain',
			status: 'processed',
			fileClass: 'Invoice',
		});
		expect(item.json.fileId).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.uploadId).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.values).toEqual(INVOICE_EXPECTED);
		expect(JSON.stringify(item.json)).not.toContain('presignedUploadURL');
	});

	it('streams a PDF from filesystem binary storage and gets the same values', async () => {
		const pdf = invoicePdf();
		const input = await binaryItem(INVOICE_PDF_FILE_NAME, pdf, 'filesystem');
		expect(input.binary?.data.id).toMatch(/^filesystem/);

		const { items, error } = await upload([input], {}, 'filesystem');

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			fileName: INVOICE_PDF_FILE_NAME,
			fileType: 'application/pdf',
			fileSize: pdf.length,
			status: 'processed',
		});
		expect(items[0].json.values).toEqual(INVOICE_EXPECTED);
		const [put] = requestsTo(emulator, 'storage', 'PUT');
		expect(put.bodyBytes).toBe(pdf.length);
		expect(put.headers['content-length']).toBe(String(pdf.length));
	});

	it('sends the bytes to the presigned URL without the API key, and the key only to the API', async () => {
		await upload([await binaryItem(RECEIPT_FILE_NAME, receiptText())]);

		const storage = requestsTo(emulator, 'storage');
		expect(storage.map((entry) => entry.method)).toEqual(['PUT']);
		for (const entry of storage) {
			expect(entry.headers['x-api-key']).toBeUndefined();
			expect(JSON.stringify(entry)).not.toContain(SEEDED_KEYS.readWrite);
		}
		const api = requestsTo(emulator, 'api');
		expect(api.length).toBeGreaterThanOrEqual(3);
		for (const entry of api) expect(entry.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
	});

	it('outputs one item per ZIP member, with failed members saying why', async () => {
		const zip = await buildZip([
			{ name: INVOICE_FILE_NAME, data: invoiceText() },
			{ name: RECEIPT_FILE_NAME, data: receiptText() },
			{ name: 'broken.pdf', data: corruptPdf() },
		]);

		const { items, error } = await upload([await binaryItem('batch.zip', zip)], {
			options: { retainOriginalZipFileName: true },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
		const byMember = Object.fromEntries(items.map((item) => [item.json.zipMemberName, item.json]));
		expect(byMember[INVOICE_FILE_NAME]).toMatchObject({ status: 'processed', zipArchiveName: 'batch.zip' });
		expect(byMember[INVOICE_FILE_NAME].values).toEqual(INVOICE_EXPECTED);
		expect(byMember[RECEIPT_FILE_NAME]).toMatchObject({ status: 'processed', fileClass: 'Receipt' });
		expect(byMember[RECEIPT_FILE_NAME].values).toEqual(RECEIPT_EXPECTED);
		expect(byMember['broken.pdf']).toMatchObject({
			status: 'failed',
			errorReason: 'The PDF could not be read',
			failedStep: 'processing_failed',
		});
		const zipUploadIds = new Set(items.map((item) => item.json.zipUploadId));
		expect(zipUploadIds.size).toBe(1);
	});

	it('uploads each input item separately and pairs every output with its input', async () => {
		const { items, error } = await upload([
			await binaryItem(INVOICE_FILE_NAME, invoiceText()),
			await binaryItem(RECEIPT_FILE_NAME, receiptText()),
		]);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.fileName, item.pairedItem])).toEqual([
			[INVOICE_FILE_NAME, { item: 0 }],
			[RECEIPT_FILE_NAME, { item: 1 }],
		]);
		const keys = requestsTo(emulator, 'api', 'POST', /\/files\/upload$/).map(
			(entry) => entry.headers['idempotency-key'],
		);
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
	});

	it('sends the upload options and file name/MIME overrides in the upload request', async () => {
		const { items, error } = await upload(
			[await binaryItem('scan.bin', invoiceText(), 'default', 'application/octet-stream')],
			{
				includeExtractedValues: false,
				options: {
					fileName: 'renamed-invoice.txt',
					mimeType: 'text/plain',
					isEphemeral: true,
					isSplit: false,
					pageCount: 2,
					apiRequestId: 'batch-42',
					destinationPath: 'invoices/2024',
					ocrModel: { mode: 'list', value: 'Beethoven_ENG_GP25.2' },
				},
			},
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ fileName: 'renamed-invoice.txt', fileType: 'text/plain' });
		expect(items[0].json.values).toBeUndefined();
		const record = [...emulator.state.uploads.values()].find(
			(candidate) => candidate.params.fileName === 'renamed-invoice.txt',
		);
		expect(record?.params).toMatchObject({
			fileType: 'text/plain',
			isEphemeral: true,
			pageCount: 2,
			apiRequestId: 'batch-42',
			destinationPath: 'invoices/2024',
			ocrModel: 'Beethoven_ENG_GP25.2',
		});
	});

	it('returns the raw form records when Simplify is off', async () => {
		const { items } = await upload([await binaryItem(RECEIPT_FILE_NAME, receiptText())], {
			simplify: false,
		});

		const formValues = items[0].json.formValues as IDataObject[];
		expect(formValues).toHaveLength(1);
		const fields = formValues[0].fields as IDataObject[];
		expect(fields.find((field) => field.title === 'Total')).toMatchObject({ type: 'number', value: 12.4 });
	});
});

describe('File > Upload refuses an empty file', () => {
	it.each(['default', 'filesystem'] as const)('a 0-byte binary (%s binary mode) fails before any request, naming item, field and file', async (mode) => {
		const empty = await createBinaryItem({ buffer: Buffer.alloc(0), fileName: 'empty.pdf', mimeType: 'application/pdf', mode });

		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload' },
			credentials: credentialsFor(emulator),
			inputItems: [empty],
			binaryDataMode: mode,
		});

		expect(error?.message).toBe('The file "empty.pdf" in the binary field "data" of item 0 is empty (0 bytes): nothing was uploaded');
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('File > Upload without waiting, then Get Upload Status and Get Values', () => {
	it('outputs the upload ID at once; the status and values can be read later', async () => {
		const uploaded = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], {
			waitForCompletion: false,
		});
		expect(uploaded.error).toBeUndefined();
		const uploadId = uploaded.items[0].json.uploadId as string;
		expect(uploaded.items[0].json).toMatchObject({ status: 'uploaded', fileName: INVOICE_FILE_NAME });
		expect(uploaded.items[0].json.presignedUploadURL).toBeUndefined();
		expect(requestsTo(emulator, 'api', 'GET', /\/uploads\//)).toHaveLength(0);
		await emulator.idle();

		const status = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getUploadStatus', uploadId: '={{ $json.uploadId }}' },
			credentials: credentialsFor(emulator),
			inputItems: [{ json: { uploadId } }],
		});
		expect(status.error).toBeUndefined();
		expect(status.items[0].json).toMatchObject({ uploadId, state: 'completed' });
		const fileId = (status.items[0].json.processedFileIds as string[])[0];
		expect(fileId).toMatch(/^[0-9a-f-]{36}$/);

		const simplified = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getValues', fileId: { mode: 'id', value: fileId } },
			credentials: credentialsFor(emulator),
		});
		expect(simplified.error).toBeUndefined();
		expect(simplified.items.map((item) => item.json)).toEqual([INVOICE_EXPECTED]);

		const raw = await runNode({
			type: 'documentExtraction',
			parameters: {
				resource: 'file',
				operation: 'getValues',
				fileId: { mode: 'id', value: fileId },
				simplify: false,
			},
			credentials: credentialsFor(emulator),
		});
		expect(raw.items).toHaveLength(1);
		expect(raw.items[0].json).toMatchObject({ fileId, fileName: INVOICE_FILE_NAME });
		expect(Array.isArray(raw.items[0].json.fields)).toBe(true);
	});
});
