/**
 * Storage sink mode (startEmulator({ storageSink: true }), `--storage-sink`): storage PUTs are
 * checked and answered as usual (Content-Length, the MD5 ETag, part sizes and ETags verified at
 * completion) but their bytes are never written; files are created without them.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deterministicBytes } from '../../dev/documents';
import { startEmulator, waitForRequest, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, rawRequest, uploadFile, type Json } from './test-helpers';

const MB = 1024 * 1024;

const md5 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('storage sink mode', () => {
	let emu: Emulator;
	let dataDir: string;

	beforeAll(async () => {
		dataDir = await mkdtemp(join(tmpdir(), 'dex-emulator-sink-'));
		emu = await startEmulator({ processingDelayMs: 0, storageSink: true, dataDir });
	});
	afterAll(async () => {
		await emu.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	/** Every file under the data directory: sink mode writes none. */
	async function filesOnDisk(): Promise<string[]> {
		const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
		return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
	}

	async function initiate(fileSizeMB: number, extra: Record<string, unknown> = {}): Promise<Json> {
		const reply = await call(emu, 'POST', '/files/upload/multipart', { body: { fileName: 'big.bin', fileType: 'application/octet-stream', fileSize: fileSizeMB, partSizeLimit: 5, ...extra } });
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

	test('the health answer says so', async () => {
		const health = (await (await fetch(`${emu.apiUrl}/__emulator/health`)).json()) as Json;
		expect(health.storageSink).toBe(true);
	});

	test('a single PUT answers the MD5 ETag; the file is processed without bytes: values empty, fileHash not the content\'s, nothing on disk', async () => {
		const content = 'Invoice Number: SINK-1\nTotal Amount: 12.50\n';
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'sink.txt', fileType: 'text/plain' } });
		const put = await fetch(reply.body.presignedUploadURL, { method: 'PUT', body: content });
		expect(put.status).toBe(200);
		expect(put.headers.get('etag')).toBe(`"${md5(content)}"`);
		await emu.idle();
		const status = await call(emu, 'GET', `/uploads/${reply.body.uploadId}`);
		expect(status.body.statuses.map((step: Json) => step.step)).toEqual(['file_uploaded', 'processing_started', 'fraud_detection']);
		const [file] = status.body.files;
		expect(file).toMatchObject({ status: 'processed', fileSize: Buffer.byteLength(content), fileHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(file.fileHash).not.toBe(sha256(content));
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		const fields = values.body.values.formValues[0].fields as Json[];
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.every((field) => field.value === null)).toBe(true);
		expect(await filesOnDisk()).toEqual([]);
	});

	test('the same bytes again get the same fileHash (a duplicate); other bytes another one', async () => {
		const first = await uploadFile(emu, 'dup-a.txt', 'same bytes');
		const second = await uploadFile(emu, 'dup-b.txt', 'same bytes');
		const other = await uploadFile(emu, 'dup-c.txt', 'other bytes');
		const fileOf = async (uploadId: string) => (await call(emu, 'GET', `/uploads/${uploadId}`)).body.files[0];
		const [a, b, c] = [await fileOf(first.uploadId), await fileOf(second.uploadId), await fileOf(other.uploadId)];
		expect(b).toMatchObject({ isDuplicate: true, duplicateToFileId: a.fileId, fileHash: a.fileHash });
		expect(c.fileHash).not.toBe(a.fileHash);
	});

	test('a stored object cannot be read back: storage GET answers 403 InvalidObjectState, HEAD its size', async () => {
		const { s3Path } = await uploadFile(emu, 'preview.txt', 'Invoice Number: SINK-2\n');
		const preview = await call(emu, 'POST', '/files/preview', { body: { s3Path } });
		expect(preview.status).toBe(200);
		const get = await fetch(preview.body.signedUrl);
		expect(get.status).toBe(403);
		expect(await get.text()).toContain('<Code>InvalidObjectState</Code>');
		const head = await fetch(preview.body.signedUrl, { method: 'HEAD' });
		expect(head.status).toBe(200);
		expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength('Invoice Number: SINK-2\n')));
	});

	test('a PUT without Content-Length still answers 411; an empty file still fails processing as empty', async () => {
		const reply = await call(emu, 'POST', '/files/upload', { body: { fileName: 'x.txt', fileType: 'text/plain' } });
		const chunked = await rawRequest(reply.body.presignedUploadURL, 'PUT', [Buffer.from('a'), Buffer.from('b')], { 'transfer-encoding': 'chunked' });
		expect(chunked.status).toBe(411);
		const { uploadId } = await uploadFile(emu, 'empty.txt', Buffer.alloc(0));
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.statuses.at(-1)).toMatchObject({ step: 'processing_failed', status: 'error' });
	});

	test('a ZIP cannot be extracted: processing fails and says why', async () => {
		const { uploadId } = await uploadFile(emu, 'bundle.zip', Buffer.from('PK\u0003\u0004 not kept'), { fileType: 'application/zip' });
		const status = await call(emu, 'GET', `/uploads/${uploadId}`);
		expect(status.body.statuses.at(-1)).toMatchObject({ step: 'processing_failed', status: 'error', errorReason: expect.stringContaining('sink mode') });
	});

	test('multipart: each part answers the MD5 of its bytes; completion checks ETags and sizes as usual and creates the file without bytes', async () => {
		const content = deterministicBytes(11 * MB);
		const init = await initiate(11);
		const parts = await putParts(init, content);
		expect(parts.map((part) => part.eTag)).toEqual(init.presignedUrls.map((part: Json) => `"${md5(content.subarray(part.startByte, part.endByte + 1))}"`));

		const wrongTag = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts: [parts[0], { partNumber: 2, eTag: `"${md5('x')}"` }, parts[2]] } });
		expectProblem(wrongTag, 422, 'VALIDATION_FAILED');
		expect(wrongTag.body.errors[0]).toMatchObject({ code: 'ETAG_MISMATCH', pointer: '/parts/1/eTag' });
		const short = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts: parts.slice(0, 2) } });
		expect(short.body.errors[0]).toMatchObject({ code: 'PARTS_INCOMPLETE' });

		const done = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts } });
		expect(done.status).toBe(200);
		const partDigests = Buffer.concat(parts.map((part) => Buffer.from(part.eTag.replace(/"/g, ''), 'hex')));
		expect(done.body).toEqual({ location: expect.stringContaining(emu.storageUrl), key: init.key, etag: `"${md5(partDigests)}-3"`, success: true });
		await emu.idle();
		const status = await call(emu, 'GET', `/uploads/${init.uploadId}`);
		expect(status.body.files[0]).toMatchObject({ status: 'processed', fileSize: content.length });
		expect(status.body.files[0].fileHash).not.toBe(sha256(content));
		expect(await filesOnDisk()).toEqual([]);

		const record = (await (await fetch(`${emu.apiUrl}/__emulator/multipart?uploadId=${init.uploadId}`)).json()) as Json;
		expect(record).toMatchObject({ id: init.id, uploadId: init.uploadId, totalParts: 3, completed: true });
		expect(record.parts).toEqual(parts.map((part, index) => ({ partNumber: part.partNumber, eTag: part.eTag, size: init.presignedUrls[index].size })));
	});

	test('multipart: a short part is refused at completion, naming it', async () => {
		const init = await initiate(11);
		const first = await fetch(init.presignedUrls[0].presignedUrl, { method: 'PUT', body: Buffer.alloc(5 * MB, 'a') });
		const second = await fetch(init.presignedUrls[1].presignedUrl, { method: 'PUT', body: Buffer.alloc(100, 'b') });
		const third = await fetch(init.presignedUrls[2].presignedUrl, { method: 'PUT', body: Buffer.alloc(MB, 'c') });
		const parts = [first, second, third].map((response, index) => ({ partNumber: index + 1, eTag: response.headers.get('etag') as string }));
		const reply = await call(emu, 'POST', '/files/upload/multipart/complete', { body: { id: init.id, key: init.key, parts } });
		expect(reply.body.errors[0]).toMatchObject({ code: 'PART_SIZE_MISMATCH', pointer: '/parts/1' });
	});

	test('multipart: a part whose client goes away mid-body is not recorded', async () => {
		const init = await initiate(6);
		const part = init.presignedUrls[0];
		const req = request(part.presignedUrl, { method: 'PUT', headers: { 'content-length': part.size } });
		req.on('error', () => undefined);
		req.write(Buffer.alloc(256 * 1024, 'a'));
		const arrived = await waitForRequest(emu, (entry) => entry.host === 'storage' && entry.method === 'PUT' && entry.query.uploadId === init.id);
		// A condition, not a delay: the first bytes have been read by the sink.
		for (let tries = 0; arrived.bodyBytes === 0 && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
		expect(arrived.bodyBytes).toBeGreaterThan(0);
		req.destroy();
		const settled = await waitForRequest(emu, (entry) => entry.sequence === arrived.sequence && entry.durationMs !== undefined);
		expect(settled.status).toBe(0);
		const record = (await (await fetch(`${emu.apiUrl}/__emulator/multipart?id=${init.id}`)).json()) as Json;
		expect(record.parts).toEqual([]);
	});
});
