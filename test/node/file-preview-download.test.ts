import { randomUUID } from 'node:crypto';

import { waitForRequest } from '../../dev/emulator';
import { INVOICE_PDF_FILE_NAME, invoicePdf } from '../../dev/documents';
import { binaryFilePath, readBinary } from '../../dev/harness';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { SEEDED_KEYS, requestsTo, useEmulator } from './support';

const emulator = useEmulator();
let pdf: Buffer;
let file: SeededFile;

beforeAll(async () => {
	pdf = invoicePdf();
	file = await seedFile(emulator, INVOICE_PDF_FILE_NAME, pdf, 'application/pdf');
});

describe('File > Get Preview URL', () => {
	it('creates a fresh link for every item, never reusing one', async () => {
		const { items, error } = await runFileOperation(
			emulator,
			'getPreviewUrl',
			{ fileId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ inputItems: [{ json: { id: file.fileId } }, { json: { id: file.fileId } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toEqual({
			fileId: file.fileId,
			fileName: INVOICE_PDF_FILE_NAME,
			fileType: 'application/pdf',
			fileSize: pdf.length,
			signedUrl: expect.stringContaining(emulator.storageUrl),
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/preview$/)).toHaveLength(2);

		const fetched = await fetch(String(items[1].json.signedUrl));
		expect(fetched.status).toBe(200);
		expect(Buffer.from(await fetched.arrayBuffer()).equals(pdf)).toBe(true);
	});

	it('repeats the preview request after a 503: it only reads, so no Idempotency-Key is needed', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/preview', status: 503 });

		const { items, error } = await runFileOperation(emulator, 'getPreviewUrl', { fileId: byId(file.fileId) });

		expect(error).toBeUndefined();
		expect(items[0].json.signedUrl).toEqual(expect.stringContaining(emulator.storageUrl));
		const posts = requestsTo(emulator, 'api', 'POST', /\/files\/preview$/);
		expect(posts.map((entry) => entry.status)).toEqual([503, 200]);
		for (const entry of posts) expect(entry.headers['idempotency-key']).toBeUndefined();
	});

	it('says which file was not found', async () => {
		const missing = randomUUID();
		const { error } = await runFileOperation(emulator, 'getPreviewUrl', { fileId: byId(missing) });
		expect(error?.message).toBe(`File ${missing} was not found in this workspace`);
		expect(requestsTo(emulator, 'api', 'POST')).toHaveLength(0);
	});
});

describe('File > Download', () => {
	it.each(['default', 'filesystem'] as const)(
		'puts the stored bytes into a binary field with the name and MIME type of the file (%s binary mode)',
		async (binaryDataMode) => {
			const { items, error } = await runFileOperation(
				emulator,
				'download',
				{ fileId: byId(file.fileId), binaryPropertyName: 'document' },
				{ binaryDataMode },
			);

			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			const [item] = items;
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({ fileId: file.fileId, fileName: INVOICE_PDF_FILE_NAME, status: 'processed' });
			const binary = item.binary?.document;
			expect(binary).toMatchObject({ fileName: INVOICE_PDF_FILE_NAME, mimeType: 'application/pdf', fileExtension: 'pdf' });
			expect((await readBinary(binary!)).equals(pdf)).toBe(true);
			if (binaryDataMode === 'filesystem') {
				expect(binary?.id).toMatch(/^filesystem/);
				expect(binaryFilePath(binary!)).toBeTruthy();
			}
		},
	);

	it('sends the API key to the API only, never to the storage host', async () => {
		await runFileOperation(emulator, 'download', { fileId: byId(file.fileId), binaryPropertyName: 'data' });

		// The emulator logs a status when its response has finished, which can come just after the
		// client has read the last byte.
		await waitForRequest(emulator, (entry) => entry.host === 'storage' && entry.durationMs !== undefined);
		const storage = requestsTo(emulator, 'storage');
		expect(storage.map((entry) => [entry.method, entry.status])).toEqual([['GET', 200]]);
		expect(storage[0].headers['x-api-key']).toBeUndefined();
		expect(JSON.stringify(storage[0])).not.toContain(SEEDED_KEYS.readWrite);
		const api = requestsTo(emulator, 'api');
		expect(api.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /prod/v1/files', 'POST /prod/v1/files/preview']);
		for (const entry of api) expect(entry.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
	});

	it('with Continue On Fail, an expired storage link and a missing file become error items', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'GET', status: 403, count: 1 });
		const missing = randomUUID();
		const { items, error } = await runFileOperation(
			emulator,
			'download',
			{ fileId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, binaryPropertyName: 'data' },
			{
				continueOnFail: true,
				inputItems: [{ json: { id: file.fileId } }, { json: { id: missing } }, { json: { id: file.fileId } }],
			},
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(String(items[0].json.error)).toContain('Storage refused file "invoice-INV-2024-0042.pdf"');
		expect(items[0].binary).toBeUndefined();
		expect(items[1].json).toMatchObject({ error: `File ${missing} was not found in this workspace`, fileId: missing });
		expect((await readBinary(items[2].binary!.data)).equals(pdf)).toBe(true);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('File > Download refuses a bad output field name before any request', () => {
	it.each<[string, string, string]>([
		[
			'an object from an expression',
			'={{ { a: 1 } }}',
			'Invalid Put Output File in Field in item 0: expected text of 1 to 255 characters, not an object, got "{"a":1}"',
		],
		[
			'a name with a line break',
			'my\nfield',
			'Invalid Put Output File in Field in item 0: expected text of 1 to 255 characters on one line (no line breaks or control characters), got "my\\nfield"',
		],
	])('%s', async (_case, binaryPropertyName, message) => {
		const { error } = await runFileOperation(emulator, 'download', { fileId: byId(file.fileId), binaryPropertyName });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
