/**
 * A ZIP upload is done when its archive was unpacked and every member listed in the status is
 * done or failed. A status that says the archive was unpacked but lists no member yet (the
 * service records the step before it lists what it found) is still processing: waiting on gives
 * one item per member, never a finished upload with nothing in it.
 */
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, buildZip, invoiceText, receiptText } from '../../dev/documents';
import { createBinaryItem } from '../../dev/harness';
import { runOperation } from './run-operation';
import { useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

it('a ZIP whose status lists no member yet after zip_extraction completed is waited for, then gives one item per member', async () => {
	const zip = await buildZip([
		{ name: INVOICE_FILE_NAME, data: invoiceText() },
		{ name: RECEIPT_FILE_NAME, data: receiptText() },
	]);
	const unpackedButNotListed = 3;
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: /\/uploads\//,
		count: unpackedButNotListed,
		edit: (body) => {
			const status = body as { statuses: Array<{ step: string }> };
			return {
				statuses: [
					...status.statuses.filter((step) => step.step !== 'zip_extraction'),
					{ step: 'zip_extraction', status: 'completed', timestamp: new Date().toISOString() },
				],
				files: [],
			};
		},
	});

	const { items, error } = await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', options: { pollInterval: 0.5 } }, {
		inputItems: [await createBinaryItem({ buffer: zip, fileName: 'batch.zip', mimeType: 'application/zip' })],
	});

	expect(error).toBeUndefined();
	expect(items.map((item) => item.json.zipMemberName).sort()).toEqual([INVOICE_FILE_NAME, RECEIPT_FILE_NAME].sort());
	expect(items.map((item) => item.json.status)).toEqual(['processed', 'processed']);
	const statusChecks = emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.includes('/uploads/'));
	expect(statusChecks.length).toBeGreaterThan(unpackedButNotListed);
	expect(clock.sleeps.length).toBeGreaterThanOrEqual(unpackedButNotListed);
});
