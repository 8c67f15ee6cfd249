import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { INVOICE_EXPECTED, INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, startTestEmulator, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

async function upload(target = emulator, options: INodeParameters = {}) {
	const parameters: INodeParameters = { resource: 'file', operation: 'upload', options };
	const input = await createBinaryItem({ buffer: Buffer.from(invoiceText()), fileName: INVOICE_FILE_NAME });
	return await runNode({
		type: 'documentExtraction',
		parameters,
		credentials: credentialsFor(target),
		inputItems: [input],
	});
}

describe('File > Upload, Wait for Completion', () => {
	it('outputs the processed file with its values once processing is done', async () => {
		const { items, error } = await upload();

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
	});

	it('checks early (after 1 s, then doubling) up to the Poll Interval, and stops at the Wait Timeout with the upload ID', async () => {
		// Processing that does not end within the wait (the emulator's own, real-time delay).
		const slow = await startTestEmulator({ processingDelayMs: 600_000 });
		try {
			const { error } = await upload(slow, { pollInterval: 60, waitTimeout: 120 });

			expect(clock.sleeps).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 56_000]);
			expect(requestsTo(slow, 'api', 'GET', /\/uploads\//)).toHaveLength(8);
			const uploadId = [...slow.state.uploads.keys()][0];
			expect(error?.message).toContain('did not finish within 120 seconds');
			expect(error?.message).toContain(`Get Upload Status operation and upload ID ${uploadId}`);
			expect((error as { context?: IDataObject }).context?.uploadId).toBe(uploadId);
		} finally {
			await slow.close();
		}
	});

	it('when the status cannot be read, says that the file was uploaded and how to pick it up', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 10 });

		const { error } = await upload();

		const uploadId = [...emulator.state.uploads.keys()].at(-1);
		expect(error?.message).toMatch(/^Could not read the processing status of "invoice-INV-2024-0042\.txt": .*HTTP 503.*Gave up after 4 attempts/);
		expect(error?.message).toContain(`The file was uploaded: continue with the Get Upload Status operation and upload ID ${uploadId}`);
		expect((error as { context?: IDataObject }).context?.uploadId).toBe(uploadId);
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/upload$/)).toHaveLength(1);
	});
});
