import { INVOICE_EXPECTED, INVOICE_FILE_NAME, invoiceText } from '../fixtures/documents';
import { createBinaryItem, runNode } from '../harness';
import { credentialsFor, requestsTo, useEmulator } from './support';

// Processing that takes a few seconds, against a Poll Interval of a minute.
const emulator = useEmulator({ processingDelayMs: 2500 });

describe('File > Upload, Wait for Completion', () => {
	it('checks the status early (after 1 s, then doubling) before settling on the poll interval', async () => {
		const input = await createBinaryItem({ buffer: Buffer.from(invoiceText()), fileName: INVOICE_FILE_NAME });

		const { items, error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', options: { pollInterval: 60, waitTimeout: 120 } },
			credentials: credentialsFor(emulator),
			inputItems: [input],
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
		const checks = requestsTo(emulator, 'api', 'GET', /\/uploads\//).map((entry) => Date.parse(String(entry.time)));
		expect(checks.length).toBeGreaterThanOrEqual(2);
		const gaps = checks.slice(1).map((time, index) => time - checks[index]);
		// Each pause is at least the 1 s first step and at most a few seconds: never the 60 s interval.
		for (const gap of gaps) {
			expect(gap).toBeGreaterThanOrEqual(900);
			expect(gap).toBeLessThan(10_000);
		}
		for (let index = 1; index < gaps.length; index++) expect(gaps[index]).toBeGreaterThan(gaps[index - 1]);
	});
});
