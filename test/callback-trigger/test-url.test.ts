/**
 * The Callback Trigger's test URL (the editor listening for a test event: n8n runs the node in mode
 * "manual", with the workflow's stored static data). A test call fires for an upload whatever
 * production handled: it neither reads production's history (static data, the process's memory)
 * nor writes it, so production still fires for an upload a test call fired for.
 */
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, invoiceText, receiptText } from '../../dev/documents';
import { uploadFile } from '../emulator/test-helpers';
import { loadBuiltPackage, useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, SEEDED_KEYS, activateCallbackTrigger, callBackTo, callbacksSettled, completedBody, emittedFileIds, statusRequests } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);
// The package and n8n-core loaded before the first test (slow on a busy machine), not within its time.
beforeAll(async () => {
	await loadBuiltPackage();
}, 300_000);

describe("the Callback Trigger's test URL", () => {
	it('fires for the upload production has just handled, and leaves production\'s history as it was', async () => {
		const production = await activateCallbackTrigger(emulator);
		callBackTo(emulator, production);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		await callbacksSettled(emulator, production);
		emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
		expect(emittedFileIds(production)).toHaveLength(1);
		const history = production.staticData();
		expect(JSON.stringify(history)).toContain(uploadId);

		// The editor listens: the same workflow and node, its stored static data.
		const test = await activateCallbackTrigger(emulator, {}, { mode: 'manual', staticData: history });
		const answer = await test.post(completedBody(uploadId));

		expect(answer).toMatchObject({ status: 200, body: { received: true, outcome: 'emitted', items: 1 } });
		expect(answer.emitted?.[0].map((item) => item.json.uploadId)).toEqual([uploadId]);
		expect(test.staticData()).toEqual(history);
		// Production still answers a repeat as the duplicate it is.
		expect(await production.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
	});

	it('with Claim Across Processes a test call claims nothing and fires for an upload production claimed (on another process)', async () => {
		const claim = { options: { claimAcrossProcesses: true } };
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, `${invoiceText()}Note: claimed\n`);
		const production = await activateCallbackTrigger(emulator, claim, { nodeId: 'claimed-test-url', process: 'production' });
		expect(await production.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		const patches = () => emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'PATCH').length;
		const claimsBefore = patches();
		expect(claimsBefore).toBe(1);

		const test = await activateCallbackTrigger(emulator, claim, { nodeId: 'claimed-test-url', process: 'editor', mode: 'manual', staticData: {} });
		expect(await test.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });
		expect(await test.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });
		expect(patches()).toBe(claimsBefore);
	});

	it('a test call is not remembered: production fires for the upload afterwards, and the test URL fires for it again', async () => {
		const { uploadId } = await uploadFile(emulator, RECEIPT_FILE_NAME, receiptText());
		const test = await activateCallbackTrigger(emulator, {}, { mode: 'manual' });
		expect(await test.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		expect(await test.post(completedBody(uploadId))).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		expect(test.staticData()).toEqual({});

		const production = await activateCallbackTrigger(emulator);
		const answer = await production.post(completedBody(uploadId));

		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });
		expect(statusRequests(emulator).length).toBeGreaterThanOrEqual(3);
	});
});
