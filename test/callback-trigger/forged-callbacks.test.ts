/**
 * A callback is a hint, never evidence: forged, malformed and hostile calls to the trigger's URL
 * emit nothing, are answered at once (no 5xx for what the service should not repeat), and cost at
 * most one request to the API (none for a body that names no upload).
 */
import { randomUUID } from 'node:crypto';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { call, uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import {
	EMULATOR_OPTIONS,
	SEEDED_KEYS,
	activateCallbackTrigger,
	callBackTo,
	callbacksSettled,
	completedBody,
	emittedFileIds,
	statusRequests,
} from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);

describe('forged callbacks', () => {
	it('an upload nobody made: 404, nothing emitted, one status request', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const answer = await trigger.post(completedBody(randomUUID(), 'b1c2d3e4-0000-4000-8000-000000000000'));
		expect(answer).toMatchObject({ status: 404, body: { outcome: 'unknownUpload' }, hung: false });
		expect(answer.emitted).toBeUndefined();
		expect(statusRequests(emulator)).toHaveLength(1);
	});

	it("another key's upload (workspace B): 404, nothing emitted, and B's file ids in the body change nothing", async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText(), { key: SEEDED_KEYS.workspaceB });
		const status = await call(emulator, 'GET', `/uploads/${uploadId}`, { key: SEEDED_KEYS.workspaceB });
		const answer = await trigger.post(completedBody(uploadId, status.body.files[0].fileId));
		expect(answer).toMatchObject({ status: 404, body: { outcome: 'unknownUpload' } });
		expect(trigger.emissions()).toEqual([]);
	});

	it('a forged "completed" for an upload still in flight: 503 and nothing emitted; the true callback later emits it once', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		// The key's default callback URL is taken when the upload is requested.
		callBackTo(emulator, trigger);
		const requested = await call(emulator, 'POST', '/files/upload', { body: { fileName: INVOICE_FILE_NAME, fileType: 'text/plain' } });
		const { uploadId, presignedUploadURL } = requested.body;
		const forged = await trigger.post(completedBody(uploadId, randomUUID()));
		expect(forged).toMatchObject({ status: 503, body: { outcome: 'retryLater' } });
		expect(forged.emitted).toBeUndefined();

		await fetch(presignedUploadURL, { method: 'PUT', body: invoiceText() });
		await callbacksSettled(emulator, trigger);
		expect(emittedFileIds(trigger)).toHaveLength(1);
		expect(trigger.items()[0].json).toMatchObject({ uploadId, status: 'processed' });
		emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
	});

	it.each([
		['a JSON array', [{ uploadId: randomUUID() }]],
		['an empty object', {}],
		['no uploadId, only fileIds', { status: 'completed', fileIds: [randomUUID()] }],
		['an uploadId that is a path', { status: 'completed', uploadId: '../files' }],
		['an uploadId that is a number', { status: 'completed', uploadId: 42 }],
		['an uploadId of a million characters', { status: 'completed', uploadId: 'a'.repeat(1_000_000) }],
		['an uploadId in an object', { status: 'completed', uploadId: { $ne: null } }],
	])('%s: 400, nothing asked of the API, nothing emitted', async (_name, body) => {
		const trigger = await activateCallbackTrigger(emulator);
		const answer = await trigger.post(body);
		expect(answer).toMatchObject({ status: 400, body: { outcome: 'invalid' }, hung: false });
		expect(answer.thrown).toBeUndefined();
		expect(statusRequests(emulator)).toHaveLength(0);
		expect(trigger.emissions()).toEqual([]);
	});

	it('an uploadId only under "__proto__" is not read; a text body is refused unless it is JSON', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const proto = await trigger.post(`{"__proto__": {"uploadId": "${randomUUID()}"}, "status": "completed"}`, { raw: true });
		expect(proto).toMatchObject({ status: 400 });
		const text = await trigger.post(`uploadId=${randomUUID()}`, { raw: true, contentType: 'text/plain' });
		expect(text).toMatchObject({ status: 400 });
		// JSON sent as text is read as JSON (a callback is not refused for its content type).
		const jsonAsText = await trigger.post(JSON.stringify(completedBody(randomUUID())), { raw: true, contentType: 'text/plain' });
		expect(jsonAsText).toMatchObject({ status: 404, body: { outcome: 'unknownUpload' } });
		const form = await trigger.post(`uploadId=${randomUUID()}&status=completed`, { raw: true, contentType: 'application/x-www-form-urlencoded' });
		expect(form).toMatchObject({ status: 404 });
		expect(statusRequests(emulator)).toHaveLength(2);
	});

	it('a body of 2 MB of file ids around a true upload id: the ids are never read, the API decides', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		const fileIds = Array.from({ length: 50_000 }, () => randomUUID());
		const answer = await trigger.post({ ...completedBody(uploadId), fileIds, step: 'x'.repeat(10_000) });
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });
		expect(emittedFileIds(trigger)).toHaveLength(1);
		expect(fileIds).not.toContain(emittedFileIds(trigger)[0]);
	});

	it('a "waiting" callback costs nothing when steps are not asked for, whatever it names', async () => {
		const trigger = await activateCallbackTrigger(emulator);
		const answer = await trigger.post({ status: 'waiting', step: 'processing_started', uploadId: randomUUID() });
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
		expect(statusRequests(emulator)).toHaveLength(0);
	});
});
