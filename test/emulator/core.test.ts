import { invoiceText, receiptText, INVOICE_EXPECTED, RECEIPT_EXPECTED } from '../../dev/documents';
import { startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, uploadAndGetFile, uploadFile } from './test-helpers';

describe('emulator core: start, auth, errors, upload, processing, files, values', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(async () => {
		await emu.close();
	});

	test('listens on loopback with separate API and storage hosts', () => {
		expect(emu.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(emu.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(emu.storageUrl).not.toBe(emu.apiUrl);
	});

	test('a missing key answers 401 problem+json', async () => {
		const reply = await call(emu, 'GET', '/subscription', { key: null });
		expectProblem(reply, 401, 'UNAUTHORIZED');
		expect(reply.body.detail).toMatch(/x-api-key/);
	});

	test('an unknown key answers 401', async () => {
		expectProblem(await call(emu, 'GET', '/subscription', { key: 'nope' }), 401, 'UNAUTHORIZED');
	});

	test('an inactive key answers 403 on reads and writes', async () => {
		const read = await call(emu, 'GET', '/subscription', { key: emu.keys.inactive });
		expectProblem(read, 403, 'FORBIDDEN');
		expect(read.body.detail).toMatch(/inactive/);
		expectProblem(await call(emu, 'POST', '/files/upload', { key: emu.keys.inactive, body: { fileName: 'a.txt', fileType: 'text/plain' } }), 403, 'FORBIDDEN');
	});

	test('a read-only key reads but gets 403 "read-only mode" on writes', async () => {
		expect((await call(emu, 'GET', '/files', { key: emu.keys.readOnly })).status).toBe(200);
		const write = await call(emu, 'POST', '/files/upload', { key: emu.keys.readOnly, body: { fileName: 'a.txt', fileType: 'text/plain' } });
		expectProblem(write, 403, 'FORBIDDEN');
		expect(write.body.detail).toMatch(/read-only mode/);
	});

	test('an unknown path answers 404 problem+json', async () => {
		expectProblem(await call(emu, 'GET', '/nothing-here'), 404, 'NOT_FOUND');
	});

	test('invalid JSON answers 400 BAD_REQUEST', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { rawBody: '{not json', headers: { 'content-type': 'application/json' } });
		expectProblem(reply, 400, 'BAD_REQUEST');
	});

	test('upload validation lists every violation with a JSON pointer', async () => {
		const reply = await call(emu, 'POST', '/files/upload', {
			body: { fileType: 'not a mime', isSplit: 'yes', callbackURL: 'http://example.com/hook', directoryId: 'abc', pageCount: 0, surprise: 1 },
		});
		expectProblem(reply, 422, 'VALIDATION_FAILED');
		const pointers = reply.body.errors.map((error: { pointer: string }) => error.pointer).sort();
		expect(pointers).toEqual(['/callbackURL', '/directoryId', '/fileName', '/fileType', '/isSplit', '/pageCount', '/surprise']);
		expect(reply.body.errors.find((error: { pointer: string }) => error.pointer === '/fileName').code).toBe('REQUIRED');
	});

	test('upload answers every documented field and a presigned PUT URL on the storage host', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'invoice.txt', fileType: 'text/plain', callbackURL: 'https://hooks.example.com/x' } });
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			s3Path: expect.stringContaining('invoice.txt'),
			presignedUploadURL: expect.stringMatching(new RegExp(`^${emu.storageUrl}/`)),
			uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			callbackURL: 'https://hooks.example.com/x',
			callbackURLSource: 'user',
			ocrModel: expect.any(String),
			schemaLocking: false,
			isEphemeral: false,
			destinationPath: null,
			isSplit: false,
			isSplitExcel: false,
			directoryId: null,
		});
	});

	test('upload -> PUT -> processing -> status, file list and values for the invoice', async () => {
		const { uploadId } = await uploadFile(emu, 'invoice.txt', invoiceText());
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.status).toBe(200);
		expect(status.body.statuses.map((step: { step: string }) => step.step)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection']);
		for (const step of status.body.statuses) {
			expect(step.status).toBe('completed');
			expect(Number.isNaN(Date.parse(step.timestamp))).toBe(false);
		}
		const [file] = status.body.files;
		expect(file).toMatchObject({ fileName: 'invoice.txt', fileType: 'text/plain', status: 'processed', uploadId, fileClass: 'Invoice', isDuplicate: false });
		expect(file.fileHash).toMatch(/^[0-9a-f]{64}$/);
		expect(file.fileSize).toBe(Buffer.byteLength(invoiceText()));

		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect(values.status).toBe(200);
		expect(values.body.values.count).toBe(1);
		expect(values.body.values.currentPage).toBe(1);
		const extracted = Object.fromEntries(values.body.values.formValues[0].fields.map((field: { title: string; value: unknown }) => [field.title, field.value]));
		expect(extracted).toEqual(INVOICE_EXPECTED);

		const list = await call(emu, 'GET', '/files', { query: { fileIds: file.fileId } });
		expect(list.body.files).toHaveLength(1);
		expect(list.body.files[0].fileId).toBe(file.fileId);
	});

	test('a receipt is classified as Receipt by its labels', async () => {
		const file = await uploadAndGetFile(emu, 'receipt.txt', receiptText());
		expect(file.fileClass).toBe('Receipt');
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		const extracted = Object.fromEntries(values.body.values.formValues[0].fields.map((field: { title: string; value: unknown }) => [field.title, field.value]));
		expect(extracted).toEqual(RECEIPT_EXPECTED);
	});

	test('an empty file ends in processing_failed with an errorReason', async () => {
		const { uploadId } = await uploadFile(emu, 'empty.txt', Buffer.alloc(0));
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		const last = status.body.statuses[status.body.statuses.length - 1];
		expect(last).toMatchObject({ step: 'processing_failed', status: 'error', errorReason: 'The file is empty' });
		expect(status.body.files[0].status).toBe('failed');
	});

	test('malformed ids answer 422 naming the parameter; unknown ids 404', async () => {
		const bad = await call(emu, 'GET', '/uploads/not-a-uuid');
		expectProblem(bad, 422, 'VALIDATION_FAILED');
		expect(bad.body.errors[0]).toMatchObject({ parameter: 'uploadId', code: 'INVALID_FORMAT' });
		expectProblem(await call(emu, 'GET', '/uploads/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
		const badFile = await call(emu, 'GET', '/files/123/values');
		expect(badFile.body.errors[0].parameter).toBe('fileId');
		expectProblem(await call(emu, 'GET', '/files/00000000-0000-4000-8000-000000000000/values'), 404, 'NOT_FOUND');
	});

	test('the storage PUT carries no API key and the request log records it', async () => {
		const before = emu.requests.length;
		await uploadFile(emu, 'log.txt', 'Invoice Number: X-1\n');
		const entries = emu.requests.slice(before);
		const put = entries.find((entry) => entry.host === 'storage' && entry.method === 'PUT');
		expect(put).toBeDefined();
		expect(put?.headers['x-api-key']).toBeUndefined();
		expect(put?.bodyBytes).toBe(Buffer.byteLength('Invoice Number: X-1\n'));
		expect(put?.status).toBe(200);
		const post = entries.find((entry) => entry.host === 'api' && entry.path === '/prod/v1/files/upload');
		expect(post?.headers['x-api-key']).toBe(emu.keys.readWrite);
	});

	test('workspace B never sees workspace A files', async () => {
		const file = await uploadAndGetFile(emu, 'private.txt', 'Invoice Number: PRIVATE-1\n');
		const listB = await call(emu, 'GET', '/files', { key: emu.keys.workspaceB });
		expect(listB.body.files.map((entry: { fileId: string }) => entry.fileId)).not.toContain(file.fileId);
		expectProblem(await call(emu, 'GET', `/files/${file.fileId}/values`, { key: emu.keys.workspaceB }), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'GET', `/uploads/${file.uploadId}`, { key: emu.keys.workspaceB }), 404, 'NOT_FOUND');
	});
});
