import { createHash } from 'node:crypto';
import { invoiceText, deterministicBytes } from '../../dev/documents';
import { ManualClock, startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, rawRequest, startReceiver, uploadAndGetFile, uploadFile, type Json } from './test-helpers';

const MB = 1024 * 1024;

describe('single upload', () => {
	let emu: Emulator;
	let clock: ManualClock;
	beforeAll(async () => {
		clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
		emu = await startEmulator({ processingDelayMs: 0, clock });
	});
	afterAll(() => emu.close());

	test('fileName needs an extension; fileType must be a MIME type', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'invoice', fileType: 'pdf' } });
		expectProblem(reply, 422, 'VALIDATION_FAILED');
		expect(reply.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['/fileName', '/fileType']);
	});

	test('callbackURL must be HTTPS except for loopback hosts', async () => {
		const plain = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', callbackURL: 'http://hooks.example.com/x' } });
		expectProblem(plain, 422, 'VALIDATION_FAILED');
		expect(plain.body.errors[0].pointer).toBe('/callbackURL');
		const notUrl = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', callbackURL: 'not a url' } });
		expect(notUrl.body.errors[0]).toMatchObject({ pointer: '/callbackURL', code: 'INVALID_FORMAT' });
		const loopback = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', callbackURL: 'http://127.0.0.1:9/hook' } });
		expect(loopback.status).toBe(200);
	});

	test("without callbackURL the key's default is used (callbackURLSource api_key)", async () => {
		emu.setDefaultCallbackUrl(emu.keys.readWrite, 'https://default.example.com/hook');
		try {
			const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain' } });
			expect(reply.body).toMatchObject({ callbackURL: 'https://default.example.com/hook', callbackURLSource: 'api_key' });
			const own = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', callbackURL: 'https://mine.example.com/' } });
			expect(own.body).toMatchObject({ callbackURL: 'https://mine.example.com/', callbackURLSource: 'user' });
		} finally {
			emu.setDefaultCallbackUrl(emu.keys.readWrite, undefined);
		}
	});

	test('options are echoed; Json ocrModel string is accepted; booleans must be booleans', async () => {
		const reply = await call(emu, 'POST', '/files/upload', {
			body: { fileName: 'a.pdf', fileType: 'application/pdf', ocrModel: 'Beethoven_Custom_X', schemaLocking: true, isEphemeral: true, isSplit: true, isSplitExcel: false, pageCount: 3, apiRequestId: 'batch-1', retainOriginalZipFileName: true },
		});
		expect(reply.body).toMatchObject({ ocrModel: 'Beethoven_Custom_X', schemaLocking: true, isEphemeral: true, isSplit: true, isSplitExcel: false });
		const wrong = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.pdf', fileType: 'application/pdf', schemaLocking: 'true', isEphemeral: 1 } });
		expect(wrong.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['/schemaLocking', '/isEphemeral']);
	});

	test('pageCount above the page limit answers 422', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.pdf', fileType: 'application/pdf', pageCount: 501 } });
		expect(reply.body.errors[0]).toMatchObject({ pointer: '/pageCount', code: 'PAGE_LIMIT_EXCEEDED' });
	});

	test('an unknown directoryId answers 404; a malformed one 422', async () => {
		expectProblem(await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', directoryId: '0123456789abcdef01234567' } }), 404, 'NOT_FOUND');
		const malformed = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', directoryId: 'xyz' } });
		expect(malformed.body.errors[0]).toMatchObject({ pointer: '/directoryId', code: 'INVALID_FORMAT' });
	});

	test('destinationPath creates missing folders once, under directoryId when given, within the depth limit', async () => {
		const first = await call(emu, 'POST', '/files/upload', { body: { fileName: 'a.txt', fileType: 'text/plain', destinationPath: 'Finance/2026' } });
		expect(first.status).toBe(200);
		expect(first.body.destinationPath).toBe('Finance/2026');
		const folders = [...emu.state.directories.values()].filter((directory) => ['Finance', '2026'].includes(directory.name));
		expect(folders.map((directory) => [directory.name, directory.depth])).toEqual([
			['Finance', 0],
			['2026', 1],
		]);
		expect(first.body.directoryId).toBe(folders[1].id);
		const again = await call(emu, 'POST', '/files/upload', { body: { fileName: 'b.txt', fileType: 'text/plain', destinationPath: '/Finance/2026/' } });
		expect(again.body.directoryId).toBe(folders[1].id);
		const under = await call(emu, 'POST', '/files/upload', { body: { fileName: 'c.txt', fileType: 'text/plain', directoryId: folders[0].id, destinationPath: 'Q1' } });
		expect(emu.state.directories.get(under.body.directoryId)).toMatchObject({ name: 'Q1', parentId: folders[0].id, depth: 1 });
		const tooDeep = await call(emu, 'POST', '/files/upload', { body: { fileName: 'd.txt', fileType: 'text/plain', destinationPath: 'A/B/C' } });
		expect(tooDeep.body.errors[0]).toMatchObject({ pointer: '/destinationPath', code: 'MAX_DEPTH_EXCEEDED' });
		expect([...emu.state.directories.values()].some((directory) => directory.name === 'A')).toBe(false);
		const dots = await call(emu, 'POST', '/files/upload', { body: { fileName: 'd.txt', fileType: 'text/plain', destinationPath: 'A/../B' } });
		expect(dots.body.errors[0].pointer).toBe('/destinationPath');
	});

	test('the presigned URL is reusable for 300 s (clock) and then answers 403 expired', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'reuse.txt', fileType: 'text/plain' } });
		const url = reply.body.presignedUploadURL as string;
		expect(url).toContain('X-Amz-Expires=300');
		expect((await fetch(url, { method: 'PUT', body: 'Invoice Number: R-1\n' })).status).toBe(200);
		clock.advance(299_000);
		expect((await fetch(url, { method: 'PUT', body: 'Invoice Number: R-2\n' })).status).toBe(200);
		clock.advance(2_000);
		const expired = await fetch(url, { method: 'PUT', body: 'Invoice Number: R-3\n' });
		expect(expired.status).toBe(403);
		expect(await expired.text()).toContain('Request has expired');
		await emu.idle();
		const status = await call(emu, 'GET', `/uploads/${reply.body.uploadId}`);
		// every completed PUT is processed: two files for two PUTs
		expect(status.body.files).toHaveLength(2);
	});

	test('a tampered or wrong-method presigned URL answers 403', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'x.txt', fileType: 'text/plain' } });
		const url = new URL(reply.body.presignedUploadURL);
		url.searchParams.set('X-Amz-Signature', 'f'.repeat(64));
		expect((await fetch(url, { method: 'PUT', body: 'x' })).status).toBe(403);
		expect((await fetch(reply.body.presignedUploadURL, { method: 'GET' })).status).toBe(403);
	});

	test('faults.expirePresignedUrls() expires every issued URL at once', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'x.txt', fileType: 'text/plain' } });
		expect(emu.faults.expirePresignedUrls()).toBeGreaterThan(0);
		expect((await fetch(reply.body.presignedUploadURL, { method: 'PUT', body: 'x' })).status).toBe(403);
	});

	test('a PUT without Content-Length (chunked) answers 411 like S3', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'x.txt', fileType: 'text/plain' } });
		const result = await rawRequest(reply.body.presignedUploadURL, 'PUT', [Buffer.from('Invoice Number: '), Buffer.from('C-1\n')], { 'transfer-encoding': 'chunked' });
		expect(result.status).toBe(411);
		expect(result.body).toContain('MissingContentLength');
	});

	test('a connection reset mid-body stores nothing; the retry succeeds', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'big.txt', fileType: 'text/plain' } });
		emu.faults.resetConnectionNext({ host: 'storage', method: 'PUT', afterBytes: 64 * 1024 });
		const body = Buffer.concat([Buffer.from('Invoice Number: BIG-1\n'), Buffer.alloc(512 * 1024, 'a')]);
		await expect(fetch(reply.body.presignedUploadURL, { method: 'PUT', body })).rejects.toThrow();
		await emu.idle();
		const during = await call(emu, 'GET', `/uploads/${reply.body.uploadId}`);
		expect(during.body).toEqual({ statuses: [], files: [] });
		const resetEntry = emu.requests.filter((entry) => entry.fault === 'reset').pop();
		expect(resetEntry?.status).toBe(0);
		expect((await fetch(reply.body.presignedUploadURL, { method: 'PUT', body })).status).toBe(200);
		await emu.idle();
		const after = await call(emu, 'GET', `/uploads/${reply.body.uploadId}`);
		expect(after.body.files).toHaveLength(1);
		expect(after.body.files[0].fileSize).toBe(body.length);
	});

	test('the same content again is flagged as a duplicate of the first file', async () => {
		const content = 'Invoice Number: DUP-1\nTotal Amount: 10\n';
		const first = await uploadAndGetFile(emu, 'dup-a.txt', content);
		const second = await uploadAndGetFile(emu, 'dup-b.txt', content);
		expect(first).toMatchObject({ isDuplicate: false, duplicateToFileId: null });
		expect(second).toMatchObject({ isDuplicate: true, duplicateToFileId: first.fileId, fileHash: first.fileHash });
		expect(second.fileHash).toBe(createHash('sha256').update(content).digest('hex'));
	});

	test('an upload that was never PUT has no steps yet', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'later.txt', fileType: 'text/plain' } });
		const status = await call(emu, 'GET', `/uploads/${reply.body.uploadId}`);
		expect(status).toMatchObject({ status: 200, body: { statuses: [], files: [] } });
	});

	test('an unreadable file (binary declared as text) fails with its reason', async () => {
		const { uploadId } = await uploadFile(emu, 'blob.txt', Buffer.alloc(2048, 0));
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.statuses.at(-1)).toMatchObject({ step: 'processing_failed', status: 'error', errorReason: 'The file is not readable text' });
	});

	test('isEphemeral files vanish 24 hours after upload (clock)', async () => {
		const file = await uploadAndGetFile(emu, 'ephemeral.txt', 'Invoice Number: EPH-1\n', { extra: { isEphemeral: true } });
		clock.advance(24 * 3600_000 - 1000);
		expect((await call(emu, 'GET', `/files/${file.fileId}/values`)).status).toBe(200);
		clock.advance(1000);
		expectProblem(await call(emu, 'GET', `/files/${file.fileId}/values`), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'GET', `/uploads/${file.uploadId}`), 404, 'NOT_FOUND');
		const list = await call(emu, 'GET', '/files', { query: { fileIds: file.fileId } });
		expect(list.body.files).toEqual([]);
	});

	test('importCount and storageInGB move with uploads', async () => {
		const before = (await call(emu, 'GET', '/subscription')).body.subscription;
		await uploadFile(emu, 'count.txt', Buffer.concat([Buffer.from('Invoice Number: C\n'), Buffer.alloc(3 * MB, 'x')]));
		const after = (await call(emu, 'GET', '/subscription')).body.subscription;
		expect(after.importCount).toBe(before.importCount + 1);
		expect(after.storageInGB).toBeGreaterThan(before.storageInGB + 0.0025);
		const otherWorkspace = (await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).body.subscription;
		expect(otherWorkspace.importCount).toBe(0);
	});
});

describe('callback notifications', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0, callbackRetryBaseMs: 20 });
	});
	afterAll(() => emu.close());

	test('the callbackURL receives step notifications and a final one with fileIds', async () => {
		const receiver = await startReceiver();
		try {
			const { uploadId } = await uploadFile(emu, 'cb.txt', invoiceText(), { extra: { callbackURL: receiver.url, apiRequestId: 'req-42' } });
			const received = await receiver.waitFor(4);
			expect(received.map((payload) => [payload.status, payload.step])).toEqual([
				['waiting', 'file_uploaded'],
				['waiting', 'processing_started'],
				['waiting', 'fraud_detection'],
				['completed', 'processing_finished'],
			]);
			const file = (await call(emu, 'GET', `/uploads/${uploadId}`)).body.files[0];
			expect(received[3]).toMatchObject({ uploadId, fileIds: file.fileId, api_request_id: 'req-42', timestamp: expect.any(String) });
			expect(received[0].fileIds).toBeUndefined();
			for (const payload of received) expect(payload.__headers['x-api-key']).toBeUndefined();
		} finally {
			await receiver.close();
		}
	});

	test('a failing receiver is retried with backoff', async () => {
		const receiver = await startReceiver();
		receiver.status = 500;
		try {
			await uploadFile(emu, 'retry.txt', 'Invoice Number: RT-1\n', { extra: { callbackURL: receiver.url } });
			await new Promise((resolve) => setTimeout(resolve, 50));
			receiver.status = 200;
			const received = await receiver.waitFor(4);
			expect(received[0].step).toBe('file_uploaded');
			const delivery = emu.state.callbacks.find((entry) => entry.url === receiver.url && entry.payload.step === 'file_uploaded');
			expect(delivery?.attempts).toBeGreaterThan(1);
			expect(delivery?.delivered).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	test('a processing failure is notified as failed with the reason', async () => {
		const receiver = await startReceiver();
		try {
			await uploadFile(emu, 'empty.txt', Buffer.alloc(0), { extra: { callbackURL: receiver.url } });
			const received = await receiver.waitFor(4);
			expect(received[3]).toMatchObject({ status: 'failed', step: 'processing_failed', errorReason: 'The file is empty', fileIds: expect.any(String) });
		} finally {
			await receiver.close();
		}
	});

	test('non-loopback callback URLs are recorded but never contacted', async () => {
		await uploadFile(emu, 'remote.txt', 'Invoice Number: REM\n', { extra: { callbackURL: 'https://hooks.example.com/never' } });
		const deliveries = emu.state.callbacks.filter((entry) => entry.url === 'https://hooks.example.com/never');
		expect(deliveries.length).toBeGreaterThan(0);
		expect(deliveries.every((entry) => entry.attempts === 0 && !entry.delivered)).toBe(true);
	});
});

describe('multipart upload', () => {
	let emu: Emulator;
	let clock: ManualClock;
	beforeAll(async () => {
		clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
		emu = await startEmulator({ processingDelayMs: 0, clock });
	});
	afterAll(() => emu.close());

	async function initiate(fileSizeMB: number, extra: Record<string, unknown> = {}) {
		const reply = await call(emu, 'POST', '/files/upload/multipart', { body: { fileName: 'big.txt', fileType: 'text/plain', fileSize: fileSizeMB, ...extra } });
		expect(reply.status).toBe(200);
		return reply.body;
	}

	async function putParts(init: Json, content: Buffer): Promise<Array<{ partNumber: number; eTag: string }>> {
		const parts = [];
		for (const part of init.presignedUrls) {
			const response = await fetch(part.presignedUrl, { method: 'PUT', body: content.subarray(part.startByte, part.endByte + 1) });
			expect(response.status).toBe(200);
			parts.push({ partNumber: part.partNumber, eTag: response.headers.get('etag') as string });
		}
		return parts;
	}

	test('initiation computes parts and answers the documented shape', async () => {
		const init = await initiate(12, { partSizeLimit: 5 });
		expect(init).toMatchObject({
			id: expect.any(String),
			key: expect.stringContaining('big.txt'),
			s3Path: expect.stringContaining('big.txt'),
			partSize: 5 * MB,
			totalParts: 3,
			totalSize: 12 * MB,
			uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			apiRequestId: expect.any(String),
			callbackURL: null,
			ocrModel: expect.any(String),
			schemaLocking: false,
			isSplit: false,
			isSplitExcel: false,
			directoryId: null,
			isEphemeral: false,
		});
		expect(init.key).toBe(init.s3Path);
		expect(init.presignedUrls.map((part: Json) => [part.partNumber, part.startByte, part.endByte, part.size])).toEqual([
			[1, 0, 5 * MB - 1, 5 * MB],
			[2, 5 * MB, 10 * MB - 1, 5 * MB],
			[3, 10 * MB, 12 * MB - 1, 2 * MB],
		]);
		for (const part of init.presignedUrls) {
			expect(part.presignedUrl.startsWith(emu.storageUrl)).toBe(true);
			expect(part.presignedUrl).toContain('X-Amz-Expires=900');
		}
		const computed = await initiate(25);
		expect(computed).toMatchObject({ partSize: 10 * MB, totalParts: 3 });
		const fractional = await initiate(5.5, { partSizeLimit: 5 });
		expect(fractional).toMatchObject({ totalSize: Math.round(5.5 * MB), totalParts: 2 });
	});

	test('initiation validation: fileSize required and positive, partSizeLimit at least 5 MB', async () => {
		const reply = await call(emu, 'POST', '/files/upload/multipart', { body: { fileName: 'big.txt', fileType: 'text/plain', partSizeLimit: 1 } });
		expectProblem(reply, 422, 'VALIDATION_FAILED');
		expect(reply.body.errors.map((error: Json) => error.pointer).sort()).toEqual(['/fileSize', '/partSizeLimit']);
		const zero = await call(emu, 'POST', '/files/upload/multipart', { body: { fileName: 'big.txt', fileType: 'text/plain', fileSize: 0 } });
		expect(zero.body.errors[0].pointer).toBe('/fileSize');
	});

	test('parts PUT answer an ETag; complete assembles, hashes and processes the file', async () => {
		const content = Buffer.concat([Buffer.from('Invoice Number: MP-1\nTotal Amount: 99\n'), deterministicBytes(11 * MB).map((byte) => 97 + (byte % 26))]);
		const init = await initiate(content.length / MB, { partSizeLimit: 5 });
		const parts = await putParts(init, content);
		for (const part of parts) expect(part.eTag).toMatch(/^"[0-9a-f]{32}"$/);
		const done = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts } });
		expect(done.status).toBe(200);
		expect(done.body).toEqual({ location: expect.stringContaining(emu.storageUrl), key: init.key, etag: expect.stringMatching(/^"[0-9a-f]{32}-3"$/), success: true });
		await emu.idle();
		const status = await call(emu, 'GET', `/uploads/${init.uploadId}`);
		expect(status.body.files[0]).toMatchObject({ status: 'processed', fileSize: content.length, fileHash: createHash('sha256').update(content).digest('hex') });
		const values = await call(emu, 'GET', `/files/${status.body.files[0].fileId}/values`);
		expect(values.body.values.formValues[0].fields.find((field: Json) => field.title === 'Invoice Number').value).toBe('MP-1');
		const again = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts } });
		expect(again.body.errors[0]).toMatchObject({ code: 'ALREADY_COMPLETED', pointer: '/id' });
	});

	test('complete rejects gaps, wrong eTags, missing and short parts, naming the part', async () => {
		const content = Buffer.alloc(11 * MB, 'b');
		const init = await initiate(11, { partSizeLimit: 5 });
		const parts = await putParts(init, content);
		const gap = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts: [parts[0], parts[2]] } });
		expectProblem(gap, 422, 'VALIDATION_FAILED');
		expect(gap.body.errors[0]).toMatchObject({ code: 'INVALID_PART_ORDER', pointer: '/parts/1/partNumber' });
		expect(gap.body.errors[0].detail).toMatch(/expected 2/);
		const wrongTag = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts: [parts[0], { partNumber: 2, eTag: '"0123"' }, parts[2]] } });
		expect(wrongTag.body.errors[0]).toMatchObject({ code: 'ETAG_MISMATCH', pointer: '/parts/1/eTag' });
		expect(wrongTag.body.errors[0].detail).toMatch(/^Part 2/);
		const short = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts: parts.slice(0, 2) } });
		expect(short.body.errors[0]).toMatchObject({ code: 'PARTS_INCOMPLETE', pointer: '/parts' });
		expect(short.body.errors[0].detail).toMatch(/part 3 is missing/);
		const wrongKey = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: 'other', parts } });
		expect(wrongKey.body.errors[0].pointer).toBe('/key');
		expectProblem(await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: 'mpu-unknown', key: init.key, parts } }), 404, 'NOT_FOUND');
		const missingFields = await call(emu, 'POST', '/files/upload/multipart/complete', { body: {} });
		expect(missingFields.body.errors.map((error: Json) => error.pointer)).toEqual(['/id', '/key', '/parts']);

		const init2 = await initiate(11, { partSizeLimit: 5 });
		const first = await fetch(init2.presignedUrls[0].presignedUrl, { method: 'PUT', body: Buffer.alloc(5 * MB, 'c') });
		const notUploaded = await call(emu, 'POST', '/files/upload/multipart/complete', {
			body: { id: init2.id, key: init2.key, parts: [{ partNumber: 1, eTag: first.headers.get('etag') }, { partNumber: 2, eTag: '"x"' }, { partNumber: 3, eTag: '"y"' }] },
		});
		expect(notUploaded.body.errors[0]).toMatchObject({ code: 'PART_MISSING', pointer: '/parts/1' });
		const shortPart = await fetch(init2.presignedUrls[1].presignedUrl, { method: 'PUT', body: Buffer.alloc(100, 'c') });
		const lastPart = await fetch(init2.presignedUrls[2].presignedUrl, { method: 'PUT', body: Buffer.alloc(MB, 'c') });
		const sizes = await call(emu, 'POST', '/files/upload/multipart/complete', {
			body: { id: init2.id, key: init2.key, parts: [{ partNumber: 1, eTag: first.headers.get('etag') }, { partNumber: 2, eTag: shortPart.headers.get('etag') }, { partNumber: 3, eTag: lastPart.headers.get('etag') }] },
		});
		expect(sizes.body.errors[0]).toMatchObject({ code: 'PART_SIZE_MISMATCH', pointer: '/parts/1' });
	});

	test('the legacy name uploadId is accepted for id', async () => {
		const content = Buffer.from('Invoice Number: LEGACY\n');
		const init = await initiate(content.length / MB);
		const parts = await putParts(init, content);
		const done = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { uploadId: init.id, key: init.key, parts } });
		expect(done.body.success).toBe(true);
	});

	test('part URLs are valid for 900 s', async () => {
		const init = await initiate(1);
		clock.advance(899_000);
		expect((await fetch(init.presignedUrls[0].presignedUrl, { method: 'PUT', body: Buffer.alloc(MB) })).status).toBe(200);
		clock.advance(2_000);
		expect((await fetch(init.presignedUrls[0].presignedUrl, { method: 'PUT', body: Buffer.alloc(MB) })).status).toBe(403);
	});

	test('a part URL works only for its own part number', async () => {
		const init = await initiate(11, { partSizeLimit: 5 });
		const url = new URL(init.presignedUrls[0].presignedUrl);
		url.searchParams.set('partNumber', '2');
		expect((await fetch(url, { method: 'PUT', body: Buffer.alloc(10) })).status).toBe(403);
	});
});
