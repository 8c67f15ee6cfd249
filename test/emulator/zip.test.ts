import { buildZip, invoiceText, mixedZip, receiptText, INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME } from '../../dev/documents';
import { startEmulator, type Emulator } from '../../dev/emulator/index';
import { sanitizeZipArchiveName } from '../../dev/emulator/zip-archive';
import { call, startReceiver, uploadFile, type Json } from './test-helpers';

describe('ZIP uploads', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('a ZIP is unzipped into member records with their own steps; failed members give 207', async () => {
		const { uploadId } = await uploadFile(emu, 'batch.zip', await mixedZip(), { fileType: 'application/zip' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.status).toBe(207);
		expect(status.body.statuses.map((step: Json) => [step.step, step.status])).toEqual([
			['file_uploaded', 'completed'],
			['processing_started', 'completed'],
			['zip_extraction', 'completed'],
		]);
		const members = status.body.files;
		expect(members.map((member: Json) => member.fileName)).toEqual([INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, 'empty.txt', 'broken.pdf']);
		for (const member of members) {
			expect(member.uploadId).toMatch(/^[0-9a-f-]{36}$/);
			expect(member.uploadId).not.toBe(uploadId);
			expect(member.statuses[0]).toMatchObject({ step: 'file_uploaded', status: 'completed' });
		}
		const byName = Object.fromEntries(members.map((member: Json) => [member.fileName, member]));
		expect(byName[INVOICE_FILE_NAME].files[0]).toMatchObject({ status: 'processed', fileClass: 'Invoice', fileType: 'text/plain' });
		expect(byName[INVOICE_PDF_FILE_NAME].files[0]).toMatchObject({ status: 'processed', fileClass: 'Invoice', fileType: 'application/pdf' });
		expect(byName[RECEIPT_FILE_NAME].files[0]).toMatchObject({ status: 'processed', fileClass: 'Receipt' });
		expect(byName['empty.txt'].statuses.at(-1)).toMatchObject({ step: 'processing_failed', status: 'error', errorReason: 'The file is empty' });
		expect(byName['broken.pdf'].statuses.at(-1)).toMatchObject({ step: 'processing_failed', status: 'error', errorReason: 'The PDF could not be read' });
		expect(byName[INVOICE_FILE_NAME].files[0].zipArchiveName).toBeUndefined();

		const member = await call(emu, 'GET', `/uploads/${byName[INVOICE_FILE_NAME].uploadId}`);
		expect(member.status).toBe(200);
		expect(member.body.files[0].fileId).toBe(byName[INVOICE_FILE_NAME].files[0].fileId);
	});

	test('a ZIP whose members all succeed answers 200', async () => {
		const zip = await buildZip([
			{ name: 'docs/a.txt', data: invoiceText() },
			{ name: '__MACOSX/docs/._a.txt', data: 'resource fork' },
			{ name: 'b.txt', data: receiptText() },
		]);
		const { uploadId } = await uploadFile(emu, 'ok.zip', zip, { fileType: 'application/zip' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.status).toBe(200);
		expect(status.body.files.map((member: Json) => member.fileName)).toEqual(['a.txt', 'b.txt']);
	});

	test('a .zip name with a generic MIME type is treated as a ZIP', async () => {
		const zip = await buildZip([{ name: 'a.txt', data: invoiceText() }]);
		const { uploadId } = await uploadFile(emu, 'generic.zip', zip, { fileType: 'application/octet-stream' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.statuses.map((step: Json) => step.step)).toContain('zip_extraction');
	});

	test('retainOriginalZipFileName exposes the sanitised archive name on extracted files', async () => {
		const zip = await buildZip([{ name: 'a.txt', data: invoiceText() }]);
		const { uploadId } = await uploadFile(emu, ' ..Quarterly\u0007 Report..zip', zip, { fileType: 'application/zip', extra: { retainOriginalZipFileName: true } });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.files[0].files[0].zipArchiveName).toBe('Quarterly Reportzip');
		const list = await call(emu, 'GET', '/files', { query: { fileIds: status.body.files[0].files[0].fileId } });
		expect(list.body.files[0].zipArchiveName).toBe('Quarterly Reportzip');
	});

	test('zipArchiveName sanitising follows the specification', () => {
		expect(sanitizeZipArchiveName('invoices-2024.zip')).toBe('invoices-2024.zip');
		expect(sanitizeZipArchiveName('a/b\\c.zip')).toBe('abc.zip');
		expect(sanitizeZipArchiveName('../../etc/passwd.zip')).toBe('etcpasswd.zip');
		expect(sanitizeZipArchiveName('x\u0000\u001f\u007fy.zip')).toBe('xy.zip');
		expect(sanitizeZipArchiveName('  .hidden.zip. ')).toBe('hidden.zip');
		expect(sanitizeZipArchiveName('a...b.zip')).toBe('a.b.zip');
		const long = `${'n'.repeat(300)}.zip`;
		expect(sanitizeZipArchiveName(long)).toHaveLength(255);
		expect(Array.from(sanitizeZipArchiveName(`${'€'.repeat(300)}.zip`))).toHaveLength(255);
	});

	test('a corrupt ZIP fails at zip_extraction with a reason', async () => {
		const { uploadId } = await uploadFile(emu, 'bad.zip', Buffer.from('PK\u0003\u0004 this is not a zip'), { fileType: 'application/zip' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.status).toBe(200);
		expect(status.body.statuses.slice(-2)).toEqual([
			expect.objectContaining({ step: 'zip_extraction', status: 'error', errorReason: 'The ZIP archive could not be read' }),
			expect.objectContaining({ step: 'processing_failed', status: 'error', errorReason: 'The ZIP archive could not be read' }),
		]);
		expect(status.body.files).toEqual([]);
	});

	test('an empty ZIP fails with "contains no files"', async () => {
		const { uploadId } = await uploadFile(emu, 'empty.zip', await buildZip([]), { fileType: 'application/zip' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.statuses.at(-1)).toMatchObject({ step: 'processing_failed', errorReason: 'The ZIP archive contains no files' });
	});

	test('the ZIP callback lists the processed member files and uses the zip file id as api_request_id', async () => {
		const receiver = await startReceiver();
		try {
			const { uploadId } = await uploadFile(emu, 'cb.zip', await mixedZip(), { fileType: 'application/zip', extra: { callbackURL: receiver.url } });
			const received = await receiver.waitFor(4);
			const final = received.at(-1) as Record<string, Json>;
			expect(final).toMatchObject({ status: 'completed', step: 'processing_finished', uploadId });
			const status = await call(emu, 'GET', `/uploads/${uploadId}`);
			const processed = status.body.files.flatMap((member: Json) => member.files).filter((file: Json) => file.status === 'processed');
			expect(final.fileIds.split(',').sort()).toEqual(processed.map((file: Json) => file.fileId).sort());
			expect(final.api_request_id).toMatch(/^[0-9a-f-]{36}$/);
			expect(received.every((payload) => payload.api_request_id === final.api_request_id)).toBe(true);
		} finally {
			await receiver.close();
		}
	});
});
