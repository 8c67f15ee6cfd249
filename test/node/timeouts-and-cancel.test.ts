/**
 * Every request has a timeout, and a stopped execution stops sending requests. Request timeouts
 * are real time (the emulator holds a request, the node gives up on it); the package's own waits
 * run on the controlled clock. Nothing here measures elapsed time: outcomes and the emulator's
 * request log are the evidence.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RequestLogEntry } from '../../dev/emulator';
import { waitForRequest } from '../../dev/emulator';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

async function run(parameters: IDataObject, inputItems?: INodeExecutionData[], cancelWhen?: Promise<unknown>) {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', ...parameters },
		credentials: credentialsFor(emulator),
		inputItems,
		cancelWhen,
	});
}

describe('Request Timeout', () => {
	it('an API that accepts the request and never answers: each attempt times out, the item fails saying so', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.hangNext({ method: 'GET', path: /\/values$/, count: 4 });

		const { error } = await run({ operation: 'getValues', fileId: byId(file.fileId), options: { requestTimeout: 1 } });

		expect(error?.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:\d+: no answer within 1 s \(the Request Timeout option\) \(4 attempts\)/);
		expect(requestsTo(emulator, 'api', 'GET', /\/values$/)).toHaveLength(4);
	});

	it('an answer that stops halfway times out as well, and a later attempt succeeds', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.hangNext({ method: 'GET', path: /\/values$/, mode: 'stall-body', afterBytes: 20 });

		const { items, error } = await run({ operation: 'getValues', fileId: byId(file.fileId), options: { requestTimeout: 1 } });

		expect(error).toBeUndefined();
		expect(items[0].json['Invoice Number']).toBe('INV-2024-0042');
		expect(requestsTo(emulator, 'api', 'GET', /\/values$/)).toHaveLength(2);
	});

	it('an answer whose connection closes halfway through the body is retried like a lost connection', async () => {
		emulator.faults.hangNext({ method: 'GET', path: /\/uploads\//, mode: 'close-body' });

		const { items, error } = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		expect(requestsTo(emulator, 'api', 'GET', /\/uploads\//)[0].fault).toBe('hang');
	});

	it('a storage PUT that gets no answer is abandoned after the idle time and sent again', async () => {
		emulator.faults.hangNext({ host: 'storage', method: 'PUT' });

		const { items, error } = await run({ operation: 'upload', options: { pollInterval: 0.5, requestTimeout: 1 } }, [await textItem()]);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(2);
	});

	it('a download that keeps stalling after its first bytes is tried again, then fails naming the file and the idle time', async () => {
		const file = await seedFile(emulator);
		emulator.faults.hangNext({ host: 'storage', method: 'GET', mode: 'stall-body', afterBytes: 10, count: 10 });

		const { error } = await run({ operation: 'download', fileId: byId(file.fileId), options: { requestTimeout: 1 } });

		expect(error?.message).toMatch(
			/^The download of file "invoice-INV-2024-0042\.txt" from storage \(http:\/\/127\.0\.0\.1:\d+\) stopped: 10 bytes of 400 bytes came in [\d.]+ s \(\d+ bytes\/s\); it was ended when nothing had moved for 1 s \(the Request Timeout option\) \(4 attempts\)\. Check the network/,
		);
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(4);
	});

	it('a download that stalls once is tried again and the next attempt stores the file', async () => {
		const file = await seedFile(emulator);
		emulator.faults.hangNext({ host: 'storage', method: 'GET', mode: 'stall-body', afterBytes: 10 });

		const { error, items } = await run({ operation: 'download', fileId: byId(file.fileId), options: { requestTimeout: 1 } });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.fileName).toBe('invoice-INV-2024-0042.txt');
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(2);
	});

	it('the Wait Timeout bounds a status check in flight, whatever the Request Timeout', async () => {
		const slowEmulatorUpload = emulator.faults;
		slowEmulatorUpload.hangNext({ method: 'GET', path: /\/uploads\//, count: 10 });

		const { error } = await run(
			{ operation: 'upload', options: { pollInterval: 0.5, waitTimeout: 2, requestTimeout: 600 } },
			[await textItem()],
		);

		const uploadId = [...emulator.state.uploads.keys()].at(-1);
		expect(error?.message).toMatch(/did not finish within 2 seconds: the last status check got no answer in time/);
		expect(error?.message).toContain(`upload ID ${uploadId}`);
	});
});

describe('a stopped execution stops sending requests', () => {
	/** Requests that arrived after `entry` (the one the stop was triggered by). */
	const after = (entry: RequestLogEntry) => emulator.requests.filter((other) => other.sequence > entry.sequence);

	it('during Wait for Completion', async () => {
		emulator.faults.hangNext({ method: 'GET', path: /\/uploads\//, count: 1 });
		const stopAt = waitForRequest(emulator, (entry) => entry.method === 'GET' && /\/uploads\//.test(entry.path));

		const { error, result } = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()], stopAt);

		expect(result.status).toBe('canceled');
		expect(error).toBeUndefined();
		expect(after(await stopAt)).toEqual([]);
	});

	it('during a 429 wait of 30 s (real time: the test would take 30 s if the wait ignored the stop)', async () => {
		clock.restore();
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 30 });
		const stopAt = waitForRequest(emulator, (entry) => entry.status === 429);

		const { result } = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()], stopAt);

		expect(result.status).toBe('canceled');
		expect(after(await stopAt)).toEqual([]);
	});

	it('during a request that never gets an answer', async () => {
		const file = await seedFile(emulator);
		emulator.faults.hangNext({ method: 'GET', path: /\/values$/ });
		const stopAt = waitForRequest(emulator, (entry) => /\/values$/.test(entry.path));

		const { result } = await run({ operation: 'getValues', fileId: byId(file.fileId), options: { requestTimeout: 600 } }, undefined, stopAt);

		expect(result.status).toBe('canceled');
		expect(after(await stopAt)).toEqual([]);
	});

	it('between the items of a run: no item starts after the stop', async () => {
		emulator.faults.hangNext({ host: 'storage', method: 'PUT' });
		const stopAt = waitForRequest(emulator, (entry) => entry.host === 'storage');
		const items = [await textItem(), await textItem(), await textItem()];

		const { result } = await run({ operation: 'upload', options: { pollInterval: 0.5, requestTimeout: 600 } }, items, stopAt);

		expect(result.status).toBe('canceled');
		expect(after(await stopAt)).toEqual([]);
		expect(requestsTo(emulator, 'api', 'POST')).toHaveLength(1);
	});
});
