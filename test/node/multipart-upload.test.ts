/**
 * Upload in parts (multipart) through the n8n engine against the emulator, with the binary in
 * n8n's filesystem storage (read part by part) and in memory (sliced).
 */
import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RequestLogEntry } from '../../dev/emulator';
import { waitForRequest } from '../../dev/emulator';
import { INVOICE_EXPECTED, invoiceText } from '../../dev/documents';
import type { BinaryDataMode } from '../../dev/harness';
import { createBinaryItem, installFakeWaitClock, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, useEmulator } from './support';

const MIB = 1024 * 1024;

const emulator = useEmulator();

function sha256(data: Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

async function binaryItem(
	data: Buffer,
	fileName = 'scan.bin',
	mode: BinaryDataMode = 'filesystem',
	mimeType = 'application/octet-stream',
): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: data, fileName, mimeType, mode });
}

async function upload(inputItems: INodeExecutionData[], options: IDataObject = {}, extra: IDataObject = {}, mode: BinaryDataMode = 'filesystem') {
	return await runNode({
		type: 'documentExtraction',
		parameters: {
			resource: 'file',
			operation: 'upload',
			waitForCompletion: false,
			...extra,
			// A 1 MB threshold and 5 MB parts: a 12 MiB file goes in 3 parts (5, 5 and 2 MiB).
			options: { multipartThreshold: 1, partSize: 5, pollInterval: 0.5, ...options },
		},
		credentials: credentialsFor(emulator),
		inputItems,
		binaryDataMode: mode,
	});
}

function storedObjectOf(uploadId: string) {
	const record = emulator.state.uploads.get(uploadId);
	return record ? emulator.state.objects.get(record.s3Path) : undefined;
}

function partPuts() {
	return requestsTo(emulator, 'storage', 'PUT').map((entry) => ({
		partNumber: Number(entry.query.partNumber),
		status: entry.status,
		bytes: entry.bodyBytes,
	}));
}

describe('File > Upload in parts (multipart)', () => {
	it('sends a file above the threshold from filesystem storage in parts; it arrives byte-identical', async () => {
		const data = randomBytes(12 * MIB);
		const input = await binaryItem(data);
		expect(input.binary?.data.id).toMatch(/^filesystem/);

		const { items, error } = await upload([input]);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const json = items[0].json;
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(json).toMatchObject({ fileName: 'scan.bin', fileSize: data.length, status: 'uploaded', totalParts: 3 });
		expect(json).not.toHaveProperty('presignedUrls');

		const initiations = requestsTo(emulator, 'api', 'POST', /\/files\/upload\/multipart$/);
		expect(initiations).toHaveLength(1);
		expect(initiations[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/upload$/)).toHaveLength(0);

		const puts = partPuts().sort((left, right) => left.partNumber - right.partNumber);
		expect(puts).toEqual([
			{ partNumber: 1, status: 200, bytes: 5 * MIB },
			{ partNumber: 2, status: 200, bytes: 5 * MIB },
			{ partNumber: 3, status: 200, bytes: 2 * MIB },
		]);
		for (const put of requestsTo(emulator, 'storage', 'PUT')) expect(put.headers['x-api-key']).toBeUndefined();

		const completions = requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/);
		expect(completions).toHaveLength(1);
		expect(completions[0].status).toBe(200);
		expect(completions[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
		expect(completions[0].headers['idempotency-key']).not.toBe(initiations[0].headers['idempotency-key']);

		const stored = storedObjectOf(json.uploadId as string);
		expect(stored?.size).toBe(data.length);
		expect(stored?.hash).toBe(sha256(data));
	});

	it('slices a binary held in memory into the same parts', async () => {
		const data = randomBytes(11 * MIB + 123);
		const input = await binaryItem(data, 'memory.bin', 'default');
		expect(input.binary?.data.id).toBeUndefined();

		const { items, error } = await upload([input], {}, {}, 'default');

		expect(error).toBeUndefined();
		expect(partPuts().map((put) => put.bytes).sort((a, b) => b - a)).toEqual([5 * MIB, 5 * MIB, MIB + 123]);
		expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));
	});

	it('waits for completion after a multipart upload and outputs the extracted values', async () => {
		// A text invoice padded beyond the threshold: the extracted values stay those of the invoice.
		const text = `${invoiceText()}\n${'Note: page filler line for a large scan.\n'.repeat(160_000)}`;
		const data = Buffer.from(text, 'utf8');
		expect(data.length).toBeGreaterThan(6 * MIB);

		const { items, error } = await upload(
			[await binaryItem(data, 'large-invoice.txt', 'filesystem', 'text/plain')],
			{},
			{ waitForCompletion: true },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ fileName: 'large-invoice.txt', status: 'processed', fileSize: data.length });
		expect(items[0].json.values).toMatchObject({ 'Invoice Number': INVOICE_EXPECTED['Invoice Number'] });
		expect(requestsTo(emulator, 'api', 'GET', /\/uploads\//).length).toBeGreaterThan(0);
	});

	it('uses one request below the threshold, and parts for any size with Multipart Upload "Always"', async () => {
		const data = randomBytes(64 * 1024);
		await upload([await binaryItem(data)]);
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/upload$/)).toHaveLength(1);
		expect(requestsTo(emulator, 'api', 'POST', /\/multipart$/)).toHaveLength(0);

		emulator.requests.length = 0;
		const { items, error } = await upload([await binaryItem(data)], { multipart: 'always' });
		expect(error).toBeUndefined();
		expect(partPuts()).toEqual([{ partNumber: 1, status: 200, bytes: data.length }]);
		expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));

		emulator.requests.length = 0;
		await upload([await binaryItem(randomBytes(6 * MIB))], { multipart: 'never' });
		expect(requestsTo(emulator, 'api', 'POST', /\/multipart$/)).toHaveLength(0);
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(1);
	});

	it('retries a part that fails twice, then completes with the file intact', async () => {
		const data = randomBytes(12 * MIB);
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 2 });

		const { items, error } = await upload([await binaryItem(data)], { partConcurrency: 1 });

		expect(error).toBeUndefined();
		expect(partPuts()).toEqual([
			{ partNumber: 1, status: 503, bytes: expect.any(Number) },
			{ partNumber: 1, status: 503, bytes: expect.any(Number) },
			{ partNumber: 1, status: 200, bytes: 5 * MIB },
			{ partNumber: 2, status: 200, bytes: 5 * MIB },
			{ partNumber: 3, status: 200, bytes: 2 * MIB },
		]);
		expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));
	});

	it('sends parts that start and end inside one read of binary storage byte-identical from filesystem and memory, also when sent again', async () => {
		// 5.3 MB parts over a file of 12 MiB + 777 bytes: no part boundary falls on a boundary of the
		// pieces n8n's binary stream hands out, so pieces are split between parts; the first part PUT
		// is refused (503) and the next one cut off mid-body, so two parts are sent again.
		const data = randomBytes(12 * MIB + 777);
		const sentSizes: Record<string, number[]> = {};
		for (const mode of ['filesystem', 'default'] as const) {
			emulator.requests.length = 0;
			emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 1 });
			emulator.faults.resetConnectionNext({ host: 'storage', method: 'PUT', afterBytes: 300 * 1024 });

			const { items, error } = await upload([await binaryItem(data, 'odd.bin', mode)], { partSize: 5.3, partConcurrency: 2 }, {}, mode);

			expect(error).toBeUndefined();
			const puts = partPuts();
			expect(puts.filter((put) => put.status !== 200)).toHaveLength(2);
			sentSizes[mode] = puts.filter((put) => put.status === 200).sort((a, b) => a.partNumber - b.partNumber).map((put) => put.bytes);
			expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));
		}
		expect(sentSizes.filesystem).toHaveLength(3);
		expect(sentSizes.filesystem).toEqual(sentSizes.default);
	});

	it('resends a part whose connection was reset mid-body', async () => {
		const data = randomBytes(12 * MIB);
		emulator.faults.resetConnectionNext({ host: 'storage', method: 'PUT', afterBytes: 256 * 1024 });

		const { items, error } = await upload([await binaryItem(data)], { partConcurrency: 2 });

		expect(error).toBeUndefined();
		expect(partPuts().filter((put) => put.status === 0)).toHaveLength(1);
		expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));
	});

	it('names the part and the upload when a part keeps failing, and completes nothing', async () => {
		const data = randomBytes(12 * MIB);
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 50 });
		const filesBefore = emulator.state.files.size;

		const { error } = await upload([await binaryItem(data)], { partConcurrency: 1 });

		expect(error).toBeDefined();
		const uploadId = [...emulator.state.uploads.values()].at(-1)?.uploadId as string;
		expect(error?.message).toContain(`part 1 of 3 of "scan.bin" (upload ID ${uploadId})`);
		expect(error?.message).toContain('after 5 attempts');
		expect(error?.message).toContain('HTTP 503');
		expect(error?.message).toContain(`The multipart upload ${uploadId} was not completed (0 of 3 parts sent)`);
		expect(partPuts().every((put) => put.partNumber === 1 && put.status === 503)).toBe(true);
		expect(requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/)).toHaveLength(0);
		expect(emulator.state.files.size).toBe(filesBefore);
	});

	it('gives the failing part and upload in a continueOnFail item', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 500, count: 50 });
		const result = await runNode({
			type: 'documentExtraction',
			parameters: {
				resource: 'file',
				operation: 'upload',
				waitForCompletion: false,
				options: { multipart: 'always', partSize: 5, partConcurrency: 1 },
			},
			credentials: credentialsFor(emulator),
			inputItems: [await binaryItem(randomBytes(1024))],
			binaryDataMode: 'filesystem',
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toMatchObject({
			uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			partNumber: 1,
			error: expect.stringContaining('part 1 of 1'),
		});
	});

	it('says that the part URLs expired when storage rejects them as expired', async () => {
		const data = randomBytes(12 * MIB);
		// Hold the first part back, and expire every URL of the upload meanwhile.
		emulator.faults.delayNext({ host: 'storage', method: 'PUT', delayMs: 400 });
		const firstPart = waitForRequest(emulator, (entry) => entry.host === 'storage' && entry.method === 'PUT');
		const running = upload([await binaryItem(data)], { partConcurrency: 1 });
		await firstPart;
		emulator.faults.expirePresignedUrls();
		const { error } = await running;

		expect(error).toBeDefined();
		const uploadId = [...emulator.state.uploads.values()].at(-1)?.uploadId as string;
		expect(error?.message).toMatch(
			new RegExp(`^The presigned part URLs of upload ${uploadId} expired before part 1 of 3 was sent: part URLs are valid for 900 seconds, and 0 of 3 parts were sent`),
		);
		expect(error?.message).toContain('Run the node again');
		// An expired URL is not retried: it cannot start working again.
		expect(partPuts()).toEqual([{ partNumber: 1, status: 403, bytes: expect.any(Number) }]);
		expect(requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/)).toHaveLength(0);
	});

	it('sends no part once the part URLs are older than 900 seconds, and says so', async () => {
		const data = randomBytes(12 * MIB);
		// The node's clock jumps 901 s ahead while the multipart upload is being started.
		const clock = installFakeWaitClock();
		const onRequest = (entry: RequestLogEntry) => {
			if (entry.method === 'POST' && entry.path.endsWith('/files/upload/multipart')) clock.advance(901_000);
		};
		emulator.events.on('request', onRequest);
		try {
			const { error } = await upload([await binaryItem(data)], { partConcurrency: 2 });

			const uploadId = [...emulator.state.uploads.values()].at(-1)?.uploadId as string;
			expect(error?.message).toMatch(
				new RegExp(`^The presigned part URLs of upload ${uploadId} expired before part 1 of 3 was sent: part URLs are valid for 900 seconds, and 0 of 3 parts were sent in 90[0-9] s`),
			);
			expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(0);
		} finally {
			emulator.events.off('request', onRequest);
			clock.restore();
		}
	});

	it('creates one document when the answer to "complete" is lost and the call is retried', async () => {
		const data = randomBytes(6 * MIB);
		const filesBefore = emulator.state.files.size;
		emulator.faults.failNext({ host: 'api', method: 'POST', path: '/files/upload/multipart/complete', status: 503, phase: 'after' });

		const { items, error } = await upload([await binaryItem(data)]);

		expect(error).toBeUndefined();
		const completions = requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/);
		expect(completions.map((entry) => entry.status)).toEqual([503, 200]);
		expect(completions[1].headers['idempotency-key']).toBe(completions[0].headers['idempotency-key']);
		expect(storedObjectOf(items[0].json.uploadId as string)?.hash).toBe(sha256(data));
		await emulator.idle();
		expect(emulator.state.files.size).toBe(filesBefore + 1);
	});

	it('replays the initiation when its answer is lost, so only one upload exists', async () => {
		const uploadsBefore = emulator.state.uploads.size;
		emulator.faults.failNext({ host: 'api', method: 'POST', path: '/files/upload/multipart', status: 502, phase: 'after' });

		const { error } = await upload([await binaryItem(randomBytes(6 * MIB))]);

		expect(error).toBeUndefined();
		const initiations = requestsTo(emulator, 'api', 'POST', /\/files\/upload\/multipart$/);
		expect(initiations.map((entry) => entry.status)).toEqual([502, 200]);
		expect(emulator.state.uploads.size).toBe(uploadsBefore + 1);
	});

	it('refuses a part size outside 5 MB to 5 GB before sending anything', async () => {
		const { error } = await upload([await binaryItem(randomBytes(2 * MIB))], { partSize: 2 });

		expect(error?.message).toBe('Invalid Part Size (MB) in item 0: expected a number of MB from 5 to 5120, got "2"');
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('the service part plan is checked before any part is sent', () => {
	it.each<[string, number[], RegExp]>([
		// The security review's case: 5 MB parts asked for a 40 MiB file, 36 + 1 + 1 + 1 + 1 MiB answered.
		['a part larger than the Part Size asked', [36 * MIB, MIB, MIB, MIB, MIB], /part 1 is 37748736 bytes, larger than the Part Size asked \(5242880 bytes\)/],
		['parts that stop short of the file', [5 * MIB, 5 * MIB], /its parts cover 10485760 bytes of 41943040/],
		['parts that go past the end of the file', [...Array.from({ length: 8 }, () => 5 * MIB), 5 * MIB], /its parts go past the end of the file \(41943040 bytes\) at part 9/],
	])('%s: refused, nothing PUT, no document', async (_name, sizes, expected) => {
		emulator.faults.partPlanNext({ method: 'POST', path: '/files/upload/multipart', sizes });

		const { error } = await upload([await binaryItem(randomBytes(40 * MIB))]);

		expect(error?.message).toMatch(expected);
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(0);
		expect(requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/)).toHaveLength(0);
	});
});
