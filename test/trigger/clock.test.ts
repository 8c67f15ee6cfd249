/**
 * Start From "Now" when the service's clock is 5 minutes ahead of n8n's, or 5 minutes behind:
 * nothing processed before activation comes out, everything processed after it comes out once.
 * (A trigger that starts from n8n's clock replays the last 5 minutes in one case and drops the
 * first 5 minutes in the other.)
 */
import { OffsetClock } from '../../dev/emulator';
import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import { call, uploadAndGetFile } from '../emulator/test-helpers';
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, invoiceText, receiptText } from '../../dev/documents';
import type { Emulator } from './support';
import { ActiveTrigger, MINUTE, startTestEmulator } from './support';

let emulator: Emulator;
let clock: OffsetClock;

afterEach(async () => {
	await emulator.close();
});

async function upload(name = INVOICE_FILE_NAME, text = invoiceText()): Promise<string> {
	clock.advance(3); // distinct timestamps from one step of the story to the next
	const file = await uploadAndGetFile(emulator, name, text);
	expect(file.status).toBe('processed');
	return String(file.fileId);
}

describe.each([
	['ahead of', +5 * MINUTE],
	['behind', -5 * MINUTE],
])('the service clock 5 minutes %s n8n', (_label, offsetMs) => {
	beforeEach(async () => {
		clock = new OffsetClock();
		clock.advance(offsetMs);
		emulator = await startTestEmulator({ clock });
	});

	it('File Processed: only files processed after activation, each once, including one in flight at activation', async () => {
		const history = [await upload(), await upload(RECEIPT_FILE_NAME, receiptText())];
		const [inFlight] = addFiles(emulator.state, 1, { createdAtMs: () => clock.now(), status: () => 'processing' });

		const trigger = new ActiveTrigger(emulator, { event: 'fileProcessed' });
		const activation = await trigger.poll();
		expect(activation.error).toBeUndefined();
		expect(activation.items).toEqual([]);
		expect(trigger.staticData.pending).toEqual([inFlight.fileId]);

		const fresh = [await upload(), await upload(RECEIPT_FILE_NAME, receiptText())];
		clock.advance(3);
		finishProcessing(emulator.state, [inFlight]);
		// Changes to files from before activation do not make them new.
		await call(emulator, 'PATCH', `/files/${history[0]}`, { body: { integrationExportStatus: 'completed' } });
		await trigger.pollUntilIdle();
		const late = await upload();
		await trigger.pollUntilIdle();

		trigger.ledger.expectEachOnce([...fresh, inFlight.fileId, late]);
	});

	it('File Updated: only changes after activation, each once', async () => {
		const history = [await upload(), await upload(RECEIPT_FILE_NAME, receiptText())];
		const trigger = new ActiveTrigger(emulator, { event: 'fileUpdated' });
		const activation = await trigger.poll();
		expect(activation.error).toBeUndefined();
		expect(activation.items).toEqual([]);

		const fresh = await upload();
		clock.advance(3);
		const report = await call(emulator, 'PATCH', `/files/${history[1]}`, { body: { integrationExportStatus: 'completed' } });
		expect(report.status).toBe(200);
		await trigger.pollUntilIdle();

		trigger.ledger.expectEachOnce([fresh, history[1]]);
		expect(trigger.ledger.items.find((item) => item.fileId === history[1])).toMatchObject({
			integrationExportStatus: 'completed',
		});
	});
});

it('Start From "Now" on an empty workspace emits the first files that arrive', async () => {
	clock = new OffsetClock();
	clock.advance(-5 * MINUTE);
	emulator = await startTestEmulator({ clock });
	const processed = new ActiveTrigger(emulator, { event: 'fileProcessed' });
	const updated = new ActiveTrigger(emulator, { event: 'fileUpdated' });
	await processed.poll();
	await updated.poll();
	expect(processed.staticData.cursor).toEqual({ at: null, ids: [] });
	const first = await upload();
	await processed.pollUntilIdle();
	await updated.pollUntilIdle();
	processed.ledger.expectEachOnce([first]);
	updated.ledger.expectEachOnce([first]);
});
