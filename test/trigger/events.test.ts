/**
 * What each event fires for, the output of an item (values, filters), Fetch Test Event, and a
 * change of parameters on an active trigger.
 */
import { SEED_IDS } from '../../dev/emulator';
import { addFiles } from '../../dev/emulator/bulk-files';
import { call, uploadAndGetFile } from '../emulator/test-helpers';
import {
	INVOICE_EXPECTED,
	INVOICE_FILE_NAME,
	RECEIPT_EXPECTED,
	RECEIPT_FILE_NAME,
	invoiceText,
	receiptText,
} from '../../dev/documents';
import { ActiveTrigger, MINUTE, SEEDED_KEYS, iso, triggerLoadOptions, useEmulator } from './support';

const emulator = useEmulator({}, 'test');

function tick(ms = 5): void {
	(emulator.clock as unknown as { advance(ms: number): void }).advance(ms);
}

async function upload(name: string, text: string): Promise<Record<string, unknown>> {
	tick();
	return await uploadAndGetFile(emulator, name, text);
}

describe('File Updated and File Processed over the life of one document', () => {
	it('a rerun, an edit of values and an export report each fire File Updated once more, File Processed never', async () => {
		const processed = new ActiveTrigger(emulator, { event: 'fileProcessed' });
		const updated = new ActiveTrigger(emulator, { event: 'fileUpdated' });
		await processed.poll();
		await updated.poll();

		const file = await upload(INVOICE_FILE_NAME, invoiceText());
		const fileId = String(file.fileId);
		await processed.pollUntilIdle();
		await updated.pollUntilIdle();
		expect(processed.ledger.ids()).toEqual([fileId]);
		expect(updated.ledger.ids()).toEqual([fileId]);

		tick();
		const rerun = await call(emulator, 'PATCH', '/files/schema/rerun', { body: { fileId, backgroundRerun: false } });
		expect(rerun.status).toBe(200);
		expect((await processed.poll()).outputs).toBeNull();
		expect((await updated.poll()).items).toHaveLength(1);

		tick();
		const edit = await call(emulator, 'PATCH', `/files/${fileId}/values`, { body: { fields: [{ title: 'Invoice Number', value: 'INV-EDITED' }] } });
		expect(edit.status).toBe(200);
		expect((await processed.poll()).outputs).toBeNull();
		expect((await updated.poll()).items).toHaveLength(1);

		tick();
		const report = await call(emulator, 'PATCH', `/files/${fileId}`, { body: { integrationExportStatus: 'completed', integrationExportMessages: ['booked'] } });
		expect(report.status).toBe(200);
		expect((await processed.poll()).outputs).toBeNull();
		const afterReport = await updated.poll();
		expect(afterReport.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ fileId, integrationExportStatus: 'completed', integrationExportMessages: ['booked'] }),
		]);

		// Nothing more happens: nothing more fires.
		expect((await processed.poll()).outputs).toBeNull();
		expect((await updated.poll()).outputs).toBeNull();
		expect(processed.ledger.ids()).toEqual([fileId]);
		expect(updated.ledger.ids()).toEqual([fileId, fileId, fileId, fileId]);
		expect(updated.ledger.duplicateVersions()).toEqual([]);
	});

	it('files still uploading or processing fire neither event until they are processed; failed files never', async () => {
		const processed = new ActiveTrigger(emulator, { event: 'fileProcessed' });
		const updated = new ActiveTrigger(emulator, { event: 'fileUpdated' });
		await processed.poll();
		await updated.poll();
		const now = emulator.clock.now();
		const [uploading, processing, failed] = addFiles(emulator.state, 3, {
			createdAtMs: (i) => now + 10 + i,
			status: (i) => ['uploaded', 'processing', 'failed'][i],
		});
		expect((await processed.poll()).outputs).toBeNull();
		expect((await updated.poll()).outputs).toBeNull();
		expect(processed.staticData.pending).toEqual([uploading.fileId, processing.fileId]);
		expect(failed.status).toBe('failed');
	});
});

describe('output items', () => {
	it('Include Extracted Values adds the simplified values of each document', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', options: { includeValues: true } });
		await trigger.poll();
		const invoice = await upload(INVOICE_FILE_NAME, invoiceText());
		const receipt = await upload(RECEIPT_FILE_NAME, receiptText());
		const result = await trigger.poll();
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ fileId: invoice.fileId, fileName: INVOICE_FILE_NAME, status: 'processed', values: INVOICE_EXPECTED }),
			expect.objectContaining({ fileId: receipt.fileId, fileName: RECEIPT_FILE_NAME, status: 'processed', values: RECEIPT_EXPECTED }),
		]);
		for (const item of result.items) expect(JSON.stringify(item)).not.toContain(SEEDED_KEYS.readWrite);
	});

	it('without values each item is the file as the API lists it, and costs no extra request', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed' });
		await trigger.poll();
		const invoice = await upload(INVOICE_FILE_NAME, invoiceText());
		emulator.requests.length = 0;
		const result = await trigger.poll();
		const pollRequests = emulator.requests.map((entry) => `${entry.method} ${entry.path}`);
		const listed = await call(emulator, 'GET', '/files', { query: { fileIds: JSON.stringify([invoice.fileId]) } });
		expect(result.items.map((item) => item.json)).toEqual(listed.body.files);
		expect(result.items[0].json).not.toHaveProperty('values');
		expect(pollRequests).toEqual(['GET /prod/v1/files']);
	});

	it.each(['fileProcessed', 'fileUpdated'] as const)('%s: the file type filters keep documents of the chosen class or schema', async (event) => {
		const start = emulator.clock.now() - MINUTE;
		const invoices = addFiles(emulator.state, 3, { createdAtMs: (i) => start + i });
		const receipts = addFiles(emulator.state, 2, {
			createdAtMs: (i) => start + 10 + i,
			fileClass: 'Receipt',
			schemaId: SEED_IDS.receiptSchemaV1A,
			fileTypeId: SEED_IDS.receiptFileTypeA,
		});
		const byClass = new ActiveTrigger(emulator, { event, startFrom: 'date', startDate: iso(start), filters: { fileClasses: ['Receipt'] } });
		await byClass.pollUntilIdle();
		byClass.ledger.expectEachOnce(receipts.map((file) => file.fileId));

		const bySchema = new ActiveTrigger(emulator, {
			event,
			startFrom: 'date',
			startDate: iso(start),
			filters: { schemaIds: ` ${SEED_IDS.invoiceSchemaV2A.toUpperCase()} ` },
		});
		await bySchema.pollUntilIdle();
		bySchema.ledger.expectEachOnce(invoices.map((file) => file.fileId));

		const either = new ActiveTrigger(emulator, {
			event,
			startFrom: 'date',
			startDate: iso(start),
			filters: { fileClasses: ['receipt'], schemaIds: SEED_IDS.invoiceSchemaV2A },
		});
		await either.pollUntilIdle();
		either.ledger.expectEachOnce([...invoices, ...receipts].map((file) => file.fileId));
	});

	it('the File Types filter offers the workspace\'s file types by the class files carry', async () => {
		const options = await triggerLoadOptions(emulator, 'getFileClasses');
		expect(options).toEqual([
			{ name: 'Invoice', value: 'Invoice', description: 'Supplier invoices' },
			{ name: 'Purchase Order', value: 'Purchase Order', description: 'Orders placed with suppliers' },
			{ name: 'Receipt', value: 'Receipt', description: 'Till and card receipts' },
		]);
		const invoice = await upload(INVOICE_FILE_NAME, invoiceText());
		expect(options.map((option) => option.value)).toContain(invoice.fileClass);
	});

	it('an invalid schema ID or start date is reported before any request', async () => {
		const badSchema = new ActiveTrigger(emulator, { event: 'fileProcessed', filters: { schemaIds: 'invoice-v2' } });
		emulator.requests.length = 0;
		const first = await badSchema.poll();
		expect(first.error?.message).toBe('Invalid Schema IDs (entry 1): expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "invoice-v2"');
		expect((first.error as { description?: string } | undefined)?.description).toBe('Correct "Schema IDs (entry 1)" (it is checked before anything is sent to the API).');
		const badDate = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: 'yesterday' });
		const second = await badDate.poll();
		expect(second.error?.message).toBe(
			'Invalid Start Date: expected a date and time such as 2026-01-31T00:00:00Z (without a zone, the workflow time zone applies), got "yesterday"',
		);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	it('File Processed: the most recently uploaded processed document that passes the filters, not the most recently changed; moves nothing', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', options: { includeValues: true } });
		await trigger.poll();
		const cursor = structuredClone(trigger.staticData);
		const invoice = await upload(INVOICE_FILE_NAME, invoiceText());
		const receipt = await upload(RECEIPT_FILE_NAME, receiptText());
		// The invoice changes after the receipt was uploaded: it is now the most recently changed.
		tick();
		const report = await call(emulator, 'PATCH', `/files/${String(invoice.fileId)}`, { body: { integrationExportStatus: 'completed', integrationExportMessages: ['booked'] } });
		expect(report.status).toBe(200);

		const manual = await trigger.poll({ mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(manual.items.map((item) => item.json)).toEqual([expect.objectContaining({ fileId: receipt.fileId, values: RECEIPT_EXPECTED })]);
		expect(manual.staticData).toEqual(cursor);

		// The active trigger still emits both documents afterwards.
		const next = await trigger.poll();
		expect(next.items).toHaveLength(2);
	});

	it('File Updated: the most recently changed processed document that passes the filters', async () => {
		const invoice = await upload(INVOICE_FILE_NAME, invoiceText());
		await upload(RECEIPT_FILE_NAME, receiptText());
		tick();
		expect((await call(emulator, 'PATCH', `/files/${String(invoice.fileId)}`, { body: { integrationExportStatus: 'completed', integrationExportMessages: ['booked'] } })).status).toBe(200);

		const updated = await new ActiveTrigger(emulator, { event: 'fileUpdated' }).poll({ mode: 'manual' });
		expect(updated.items.map((item) => item.json.fileId)).toEqual([invoice.fileId]);

		const invoicesOnly = await new ActiveTrigger(emulator, { event: 'fileUpdated', filters: { fileClasses: ['Invoice'] } }).poll({ mode: 'manual' });
		expect(invoicesOnly.items.map((item) => item.json.fileName)).toEqual([INVOICE_FILE_NAME]);
	});

	it('with no processed document (an empty workspace, or none passing the filters) nothing fires and the run ends without an error', async () => {
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed' });
		const empty = await trigger.poll({ mode: 'manual' });
		expect(empty.error).toBeUndefined();
		expect(empty.outputs).toBeNull();

		await upload(INVOICE_FILE_NAME, invoiceText());
		const none = await new ActiveTrigger(emulator, { event: 'fileProcessed', filters: { fileClasses: ['Receipt'] } }).poll({ mode: 'manual' });
		expect(none.error).toBeUndefined();
		expect(none.outputs).toBeNull();
	});
});

describe('parameters changed on an active trigger', () => {
	it('a new Start Date on an active trigger starts afresh from that date', async () => {
		const start = emulator.clock.now() - 60 * MINUTE;
		const files = addFiles(emulator.state, 10, { createdAtMs: (i) => start + i * MINUTE });
		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(start + 5 * MINUTE) });
		await trigger.pollUntilIdle();
		trigger.ledger.expectEachOnce(files.slice(5).map((file) => file.fileId));

		const replay = new ActiveTrigger(emulator, { event: 'fileProcessed', startFrom: 'date', startDate: iso(start) });
		replay.staticData = trigger.staticData;
		await replay.pollUntilIdle();
		replay.ledger.expectEachOnce(files.map((file) => file.fileId));
		expect(replay.staticData.config).toBe(`fileProcessed|date:${iso(start)}`);
	});
});
