/**
 * The emulator's callback faults (dev/emulator/callback-faults.ts): delayed, duplicated, out of
 * order, forged, replayed, never sent and before-parked notifications, in process and over the
 * control API, against a receiver on 127.0.0.1 that records every attempt.
 */
import { createServer, type Server } from 'node:http';

import { startEmulator, type CallbackDelivery, type Emulator } from '../../dev/emulator/index';
import { invoiceText } from '../../dev/documents';
import { call, uploadFile, type Json } from './test-helpers';

interface Hit {
	payload: Record<string, Json>;
	status: number;
	sequence: number;
}

/** A receiver that records every attempt and answers `answer(payload)` (default 200). */
async function startRecorder(): Promise<{ url: string; hits: Hit[]; answer: (payload: Record<string, Json>) => number; waitFor(predicate: (hits: Hit[]) => boolean, what: string): Promise<Hit[]>; close(): Promise<void> }> {
	const hits: Hit[] = [];
	let waiters: Array<() => void> = [];
	const recorder = {
		url: '',
		hits,
		answer: (_payload: Record<string, Json>) => 200,
		waitFor: (predicate: (hits: Hit[]) => boolean, what: string) =>
			new Promise<Hit[]>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(hits.map((hit) => [hit.payload.step, hit.status]))}`)), 20_000);
				const check = () => {
					if (!predicate(hits)) return;
					clearTimeout(timer);
					resolve(hits);
				};
				waiters.push(check);
				check();
			}),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, Json>;
			const status = recorder.answer(payload);
			hits.push({ payload, status, sequence: hits.length });
			res.writeHead(status).end();
			for (const waiter of [...waiters]) waiter();
			waiters = waiters.filter(() => true);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	recorder.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
	return recorder;
}

const FINAL = 'processing_finished';
const steps = (hits: Hit[], uploadId: string) => hits.filter((hit) => hit.payload.uploadId === uploadId).map((hit) => hit.payload.step);
const deliveriesOf = (emu: Emulator, uploadId: string): CallbackDelivery[] => emu.state.callbacks.filter((delivery) => delivery.payload.uploadId === uploadId);

/** The upload's deliveries once `count` of them have ended (delivered, given up or never sent). */
async function settledDeliveries(emu: Emulator, uploadId: string, count: number): Promise<CallbackDelivery[]> {
	for (let round = 0; round < 400; round++) {
		const deliveries = deliveriesOf(emu, uploadId);
		if (deliveries.filter((delivery) => delivery.delivered || delivery.reason || delivery.lastAttemptAt !== undefined).length >= count) return deliveries;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`the deliveries of ${uploadId} did not settle: ${JSON.stringify(deliveriesOf(emu, uploadId))}`);
}

async function control(emu: Emulator, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
	const response = await fetch(`${emu.apiUrl}/__emulator${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Json };
}

describe('callback faults', () => {
	let emu: Emulator;
	let recorder: Awaited<ReturnType<typeof startRecorder>>;
	const upload = async (name: string) => (await uploadFile(emu, name, invoiceText(), { extra: { callbackURL: recorder.url }, wait: false })).uploadId;

	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0, callbackRetryBaseMs: 20 });
	});
	afterAll(() => emu.close());
	beforeEach(async () => {
		emu.callbackFaults.clear();
		emu.setProcessingDelay(0);
		recorder = await startRecorder();
	});
	afterEach(() => recorder.close());

	test('without a fault: four notifications per upload, in order, the last one final', async () => {
		const uploadId = await upload('plain.txt');
		await recorder.waitFor((hits) => steps(hits, uploadId).includes(FINAL), 'the final notification');
		expect(steps(recorder.hits, uploadId)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection', FINAL]);
		const deliveries = await settledDeliveries(emu, uploadId, 4);
		expect(deliveries.every((delivery) => delivery.fault === undefined && delivery.statuses.join() === '200')).toBe(true);
	});

	test('delay: the delayed upload is heard from after one processed later without the fault', async () => {
		emu.callbackFaults.add({ kind: 'delay', delayMs: 600 });
		const delayed = await upload('delayed.txt');
		const prompt = await upload('prompt.txt');
		await recorder.waitFor((hits) => steps(hits, delayed).includes(FINAL), 'the delayed final notification');
		const firstDelayed = recorder.hits.find((hit) => hit.payload.uploadId === delayed)!.sequence;
		const lastPrompt = recorder.hits.find((hit) => hit.payload.uploadId === prompt && hit.payload.step === FINAL)!.sequence;
		expect(lastPrompt).toBeLessThan(firstDelayed);
		expect(deliveriesOf(emu, delayed).every((delivery) => delivery.fault === 'delay')).toBe(true);
	});

	test('duplicate: every notification arrives 1 + copies times, also all at once', async () => {
		emu.callbackFaults.add({ kind: 'duplicate', copies: 2, count: 2, concurrent: true });
		const first = await upload('dup-1.txt');
		const second = await upload('dup-2.txt');
		const third = await upload('dup-3.txt');
		await recorder.waitFor((hits) => [first, second, third].every((id) => steps(hits, id).filter((step) => step === FINAL).length >= (id === third ? 1 : 3)), 'the duplicated finals');
		for (const id of [first, second]) {
			expect(steps(recorder.hits, id).filter((step) => step === FINAL)).toHaveLength(3);
			expect(steps(recorder.hits, id).filter((step) => step === 'file_uploaded')).toHaveLength(3);
			expect(deliveriesOf(emu, id).filter((delivery) => delivery.fault === 'duplicate')).toHaveLength(8);
		}
		// count 2: the third upload is not bound.
		expect(steps(recorder.hits, third)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection', FINAL]);
	});

	test('reorder: notifications held over a window arrive newest first, the final before the first step', async () => {
		emu.callbackFaults.add({ kind: 'reorder', windowMs: 500, count: 'all' });
		const uploadId = await upload('reorder.txt');
		await recorder.waitFor((hits) => steps(hits, uploadId).length === 4, 'four notifications');
		expect(steps(recorder.hits, uploadId)).toEqual([FINAL, 'fraud_detection', 'processing_started', 'file_uploaded']);
	});

	test('forge: a "completed" notification arrives while the upload is still processing, naming a file that is not its', async () => {
		emu.setProcessingDelay(1500);
		emu.callbackFaults.add({ kind: 'forge' });
		const uploadId = await upload('forged.txt');
		const [forged] = await recorder.waitFor((hits) => hits.some((hit) => hit.payload.uploadId === uploadId), 'the forged notification');
		expect(forged.payload).toMatchObject({ status: 'completed', step: FINAL, uploadId });
		const status = (await call(emu, 'GET', `/uploads/${uploadId}`)).body;
		expect((status.files as Json[]).map((file) => file.status)).not.toContain('processed');
		await recorder.waitFor((hits) => steps(hits, uploadId).filter((step) => step === FINAL).length === 2, 'the real final notification');
		const real = recorder.hits.filter((hit) => hit.payload.uploadId === uploadId && hit.payload.step === FINAL)[1];
		expect(real.payload.fileIds).not.toBe(forged.payload.fileIds);
		expect(deliveriesOf(emu, uploadId)[0].fault).toBe('forge');
	});

	test('replay: the final notification comes again after it was delivered', async () => {
		emu.callbackFaults.add({ kind: 'replay', afterMs: 200, times: 2 });
		const uploadId = await upload('replay.txt');
		await recorder.waitFor((hits) => steps(hits, uploadId).filter((step) => step === FINAL).length === 3, 'the final three times');
		expect(steps(recorder.hits, uploadId)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection', FINAL, FINAL, FINAL]);
		expect(deliveriesOf(emu, uploadId).filter((delivery) => delivery.fault === 'replay')).toHaveLength(2);
	});

	test('drop: the final notification is never sent (recorded with the reason); steps "all" sends none', async () => {
		emu.callbackFaults.add({ kind: 'drop', steps: 'final' });
		const finalDropped = await upload('drop-final.txt');
		await emu.idle();
		await recorder.waitFor((hits) => steps(hits, finalDropped).length === 3, 'the three intermediate notifications');
		const dropped = deliveriesOf(emu, finalDropped).find((delivery) => delivery.payload.step === FINAL)!;
		expect(dropped).toMatchObject({ attempts: 0, delivered: false, fault: 'drop', reason: expect.stringContaining('never-sent') });

		emu.callbackFaults.add({ kind: 'drop' });
		const allDropped = await upload('drop-all.txt');
		await emu.idle();
		expect(deliveriesOf(emu, allDropped)).toHaveLength(4);
		expect(deliveriesOf(emu, allDropped).every((delivery) => delivery.attempts === 0)).toBe(true);
		expect(steps(recorder.hits, allDropped)).toEqual([]);
	});

	test('before-parked: processed at once whatever the delay, and a refused notification is not retried', async () => {
		emu.setProcessingDelay(60_000);
		recorder.answer = () => 409; // n8n's answer while the execution still runs
		emu.callbackFaults.add({ kind: 'before-parked' });
		const uploadId = await upload('early.txt');
		await recorder.waitFor((hits) => steps(hits, uploadId).includes(FINAL), 'the final notification');
		const status = (await call(emu, 'GET', `/uploads/${uploadId}`)).body;
		expect((status.files as Json[])[0].status).toBe('processed');
		const deliveries = await settledDeliveries(emu, uploadId, 4);
		expect(deliveries.map((delivery) => delivery.statuses)).toEqual([[409], [409], [409], [409]]);
	});

	test('uploadId binds exactly that upload, count "all" every upload until cleared', async () => {
		const other = await upload('not-bound.txt');
		await recorder.waitFor((hits) => steps(hits, other).includes(FINAL), 'the first upload');
		emu.callbackFaults.add({ kind: 'duplicate', count: 'all' });
		const a = await upload('all-a.txt');
		const b = await upload('all-b.txt');
		await recorder.waitFor((hits) => [a, b].every((id) => steps(hits, id).length === 8), 'both duplicated');
		emu.callbackFaults.clear();
		const fault = emu.callbackFaults.add({ kind: 'replay', uploadId: other, afterMs: 10 });
		expect(fault.uploadIds).toEqual([]);
		const c = await upload('not-the-one.txt');
		await recorder.waitFor((hits) => steps(hits, c).includes(FINAL), 'the unbound upload');
		expect(emu.callbackFaults.pending()[0].uploadIds).toEqual([]);
		expect(steps(recorder.hits, c)).toHaveLength(4);
	});

	test('over the control API: set, list, refuse a bad spec, clear; the processing delay; deliveries by upload', async () => {
		expect(await control(emu, 'POST', '/callbacks/faults', { kind: 'explode' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('kind must be one of') } });
		expect(await control(emu, 'POST', '/callbacks/faults', { kind: 'delay', count: 0 })).toMatchObject({ status: 400 });
		expect(await control(emu, 'POST', '/callbacks/faults', { kind: 'drop', steps: 'sometimes' })).toMatchObject({ status: 400 });
		const set = await control(emu, 'POST', '/callbacks/faults', { kind: 'duplicate', copies: 1, count: 'all' });
		expect(set).toMatchObject({ status: 200, body: { success: true, id: expect.any(String) } });
		expect((await control(emu, 'POST', '/processing-delay', { delayMs: -1 })).status).toBe(400);
		expect(await control(emu, 'POST', '/processing-delay', { delayMs: 0 })).toEqual({ status: 200, body: { processingDelayMs: 0 } });
		const uploadId = await upload('control.txt');
		await recorder.waitFor((hits) => steps(hits, uploadId).length === 8, 'eight notifications');
		const listed = await control(emu, 'GET', '/callbacks/faults');
		expect(listed.body.faults).toEqual([expect.objectContaining({ kind: 'duplicate', remaining: 'all', uploadIds: [uploadId] })]);
		const deliveries = await control(emu, 'GET', `/callbacks?uploadId=${uploadId}`);
		expect((deliveries.body.callbacks as Json[]).every((delivery) => delivery.payload && (delivery.payload as Json).uploadId === uploadId)).toBe(true);
		expect(deliveries.body.callbacks).toHaveLength(8);
		expect(await control(emu, 'DELETE', '/callbacks/faults')).toEqual({ status: 200, body: { success: true } });
		expect((await control(emu, 'GET', '/callbacks/faults')).body.faults).toEqual([]);
		expect(await control(emu, 'DELETE', '/callbacks')).toEqual({ status: 200, body: { success: true } });
		expect((await control(emu, 'GET', '/callbacks')).body.callbacks).toEqual([]);
	});
});
