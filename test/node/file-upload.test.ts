import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	INVOICE_EXPECTED,
	INVOICE_FILE_NAME,
	INVOICE_PDF_FILE_NAME,
	RECEIPT_EXPECTED,
	RECEIPT_FILE_NAME,
	buildZip,
	corruptPdf,
	invoicePdf,
	invoiceText,
	receiptText,
} from '../../dev/documents';
import type { BinaryDataMode } from '../../dev/harness';
import { createBinaryItem, runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

async function binaryItem(
	fileName: string,
	data: Buffer | string,
	mode: BinaryDataMode = 'default',
	mimeType?: string,
): Promise<INodeExecutionData> {
	return await createBinaryItem({
		buffer: Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'),
		fileName,
		...(mimeType ? { mimeType } : {}),
		mode,
	});
}

async function upload(
	inputItems: INodeExecutionData[],
	parameters: IDataObject = {},
	mode: BinaryDataMode = 'default',
) {
	return await runNode({
		type: 'documentExtraction',
		parameters: {
			resource: 'file',
			operation: 'upload',
			...parameters,
			options: { pollInterval: 0.5, ...((parameters.options as IDataObject) ?? {}) },
		},
		credentials: credentialsFor(emulator),
		inputItems,
		binaryDataMode: mode,
	});
}

describe('File > Upload with Wait for Completion', () => {
	it('uploads a text invoice and outputs the processed file with its simplified values', async () => {
		const { items, error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())]);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			fileName: INVOICE_FILE_NAME,
			fileType: 'text/plain',
			status: 'processed',
			fileClass: 'Invoice',
		});
		expect(item.json.fileId).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.uploadId).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.values).toEqual(INVOICE_EXPECTED);
		expect(JSON.stringify(item.json)).not.toContain('presignedUploadURL');
	});

	it('streams a PDF from filesystem binary storage and gets the same values', async () => {
		const pdf = invoicePdf();
		const input = await binaryItem(INVOICE_PDF_FILE_NAME, pdf, 'filesystem');
		expect(input.binary?.data.id).toMatch(/^filesystem/);

		const { items, error } = await upload([input], {}, 'filesystem');

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			fileName: INVOICE_PDF_FILE_NAME,
			fileType: 'application/pdf',
			fileSize: pdf.length,
			status: 'processed',
		});
		expect(items[0].json.values).toEqual(INVOICE_EXPECTED);
		const [put] = requestsTo(emulator, 'storage', 'PUT');
		expect(put.bodyBytes).toBe(pdf.length);
		expect(put.headers['content-length']).toBe(String(pdf.length));
	});

	it('sends the bytes to the presigned URL without the API key, and the key only to the API', async () => {
		await upload([await binaryItem(RECEIPT_FILE_NAME, receiptText())]);

		const storage = requestsTo(emulator, 'storage');
		expect(storage.map((entry) => entry.method)).toEqual(['PUT']);
		for (const entry of storage) {
			expect(entry.headers['x-api-key']).toBeUndefined();
			expect(JSON.stringify(entry)).not.toContain(SEEDED_KEYS.readWrite);
		}
		const api = requestsTo(emulator, 'api');
		expect(api.length).toBeGreaterThanOrEqual(3);
		for (const entry of api) expect(entry.headers['x-api-key']).toBe(SEEDED_KEYS.readWrite);
	});

	it('outputs one item per ZIP member, with failed members saying why', async () => {
		const zip = await buildZip([
			{ name: INVOICE_FILE_NAME, data: invoiceText() },
			{ name: RECEIPT_FILE_NAME, data: receiptText() },
			{ name: 'broken.pdf', data: corruptPdf() },
		]);

		const { items, error } = await upload([await binaryItem('batch.zip', zip)], {
			options: { retainOriginalZipFileName: true },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
		const byMember = Object.fromEntries(items.map((item) => [item.json.zipMemberName, item.json]));
		expect(byMember[INVOICE_FILE_NAME]).toMatchObject({ status: 'processed', zipArchiveName: 'batch.zip' });
		expect(byMember[INVOICE_FILE_NAME].values).toEqual(INVOICE_EXPECTED);
		expect(byMember[RECEIPT_FILE_NAME]).toMatchObject({ status: 'processed', fileClass: 'Receipt' });
		expect(byMember[RECEIPT_FILE_NAME].values).toEqual(RECEIPT_EXPECTED);
		expect(byMember['broken.pdf']).toMatchObject({
			status: 'failed',
			errorReason: 'The PDF could not be read',
			failedStep: 'processing_failed',
		});
		const zipUploadIds = new Set(items.map((item) => item.json.zipUploadId));
		expect(zipUploadIds.size).toBe(1);
	});

	it('uploads each input item separately and pairs every output with its input', async () => {
		const { items, error } = await upload([
			await binaryItem(INVOICE_FILE_NAME, invoiceText()),
			await binaryItem(RECEIPT_FILE_NAME, receiptText()),
		]);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.fileName, item.pairedItem])).toEqual([
			[INVOICE_FILE_NAME, { item: 0 }],
			[RECEIPT_FILE_NAME, { item: 1 }],
		]);
		const keys = requestsTo(emulator, 'api', 'POST', /\/files\/upload$/).map(
			(entry) => entry.headers['idempotency-key'],
		);
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
	});

	it('sends the upload options and file name/MIME overrides in the upload request', async () => {
		const { items, error } = await upload(
			[await binaryItem('scan.bin', invoiceText(), 'default', 'application/octet-stream')],
			{
				includeExtractedValues: false,
				options: {
					fileName: 'renamed-invoice.txt',
					mimeType: 'text/plain',
					isEphemeral: true,
					isSplit: false,
					pageCount: 2,
					apiRequestId: 'batch-42',
					destinationPath: 'invoices/2024',
					ocrModel: { mode: 'list', value: 'Beethoven_ENG_GP25.2' },
				},
			},
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ fileName: 'renamed-invoice.txt', fileType: 'text/plain' });
		expect(items[0].json.values).toBeUndefined();
		const record = [...emulator.state.uploads.values()].find(
			(candidate) => candidate.params.fileName === 'renamed-invoice.txt',
		);
		expect(record?.params).toMatchObject({
			fileType: 'text/plain',
			isEphemeral: true,
			pageCount: 2,
			apiRequestId: 'batch-42',
			destinationPath: 'invoices/2024',
			ocrModel: 'Beethoven_ENG_GP25.2',
		});
	});

	it('returns the raw form records when Simplify is off', async () => {
		const { items } = await upload([await binaryItem(RECEIPT_FILE_NAME, receiptText())], {
			simplify: false,
		});

		const formValues = items[0].json.formValues as IDataObject[];
		expect(formValues).toHaveLength(1);
		const fields = formValues[0].fields as IDataObject[];
		expect(fields.find((field) => field.title === 'Total')).toMatchObject({ type: 'number', value: 12.4 });
	});
});

describe('File > Upload refuses an empty file', () => {
	it.each(['default', 'filesystem'] as const)('a 0-byte binary (%s binary mode) fails before any request, naming item, field and file', async (mode) => {
		const empty = await createBinaryItem({ buffer: Buffer.alloc(0), fileName: 'empty.pdf', mimeType: 'application/pdf', mode });

		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload' },
			credentials: credentialsFor(emulator),
			inputItems: [empty],
			binaryDataMode: mode,
		});

		expect(error?.message).toBe('The file "empty.pdf" in the binary field "data" of item 0 is empty (0 bytes): nothing was uploaded');
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('File > Upload without waiting, then Get Upload Status and Get Values', () => {
	it('outputs the upload ID at once; the status and values can be read later', async () => {
		const uploaded = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], {
			waitForCompletion: false,
		});
		expect(uploaded.error).toBeUndefined();
		const uploadId = uploaded.items[0].json.uploadId as string;
		expect(uploaded.items[0].json).toMatchObject({ status: 'uploaded', fileName: INVOICE_FILE_NAME });
		expect(uploaded.items[0].json.presignedUploadURL).toBeUndefined();
		expect(requestsTo(emulator, 'api', 'GET', /\/uploads\//)).toHaveLength(0);
		await emulator.idle();

		const status = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getUploadStatus', uploadId: '={{ $json.uploadId }}' },
			credentials: credentialsFor(emulator),
			inputItems: [{ json: { uploadId } }],
		});
		expect(status.error).toBeUndefined();
		expect(status.items[0].json).toMatchObject({ uploadId, state: 'completed' });
		const fileId = (status.items[0].json.processedFileIds as string[])[0];
		expect(fileId).toMatch(/^[0-9a-f-]{36}$/);

		const simplified = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getValues', fileId: { mode: 'id', value: fileId } },
			credentials: credentialsFor(emulator),
		});
		expect(simplified.error).toBeUndefined();
		expect(simplified.items.map((item) => item.json)).toEqual([INVOICE_EXPECTED]);

		const raw = await runNode({
			type: 'documentExtraction',
			parameters: {
				resource: 'file',
				operation: 'getValues',
				fileId: { mode: 'id', value: fileId },
				simplify: false,
			},
			credentials: credentialsFor(emulator),
		});
		expect(raw.items).toHaveLength(1);
		expect(raw.items[0].json).toMatchObject({ fileId, fileName: INVOICE_FILE_NAME });
		expect(Array.isArray(raw.items[0].json.fields)).toBe(true);
	});
});

describe('File > Upload refuses bad options before any request, naming the parameter, the item and the form', () => {
	const LONG_MIME_TYPE = `application/${'x'.repeat(300)}`;
	const LONG_URL = `https://example.com/${'a'.repeat(3000)}`;
	const DIRECTORY_ID = '6650a00000000000000e9999';
	const FOLDERS = 'folder names of 1 to 255 characters separated by "/" (no "\\", no empty, "." or ".." names)';
	const NOT_PLAIN_URL = 'an https:// URL without spaces, control or invisible characters or backslashes';

	it.each<[string, IDataObject, string]>([
		['File Name from an expression giving an object', { fileName: '={{ { name: "a.pdf" } }}' }, 'Invalid File Name in item 0: expected text of 1 to 255 characters, not an object, got "{"name":"a.pdf"}"'],
		['File Name with a line break', { fileName: 'inv\noice.pdf' }, 'Invalid File Name in item 0: expected text of 1 to 255 characters on one line (no line breaks or control characters), got "inv\\noice.pdf"'],
		['a MIME Type of 312 characters', { mimeType: LONG_MIME_TYPE }, `Invalid MIME Type in item 0: expected text of 1 to 255 characters, got "${LONG_MIME_TYPE.slice(0, 80)}…"`],
		['a Callback URL with a user name and password', { callbackURL: 'https://user:pass@example.com/hook' }, 'Invalid Callback URL in item 0: expected an https:// URL without a user name or password (user:password@), got "https://user:pass@example.com/hook"'],
		['a Callback URL with a space', { callbackURL: 'https://example.com/my hook' }, `Invalid Callback URL in item 0: expected ${NOT_PLAIN_URL}, got "https://example.com/my hook"`],
		['a Callback URL with a tab in the host (the URL parser would drop it)', { callbackURL: 'https://exa\tmple.com/hook' }, `Invalid Callback URL in item 0: expected ${NOT_PLAIN_URL}, got "https://exa\\tmple.com/hook"`],
		['a Callback URL with a control character', { callbackURL: 'https://example.com/\u0000hook' }, `Invalid Callback URL in item 0: expected ${NOT_PLAIN_URL}, got "https://example.com/\\u0000hook"`],
		['a Callback URL with backslashes', { callbackURL: 'https:\\\\example.com\\hook' }, `Invalid Callback URL in item 0: expected ${NOT_PLAIN_URL}, got "https:\\\\example.com\\hook"`],
		['a Callback URL of 3,020 characters', { callbackURL: LONG_URL }, `Invalid Callback URL in item 0: expected an https:// URL of at most 2048 characters, got "${LONG_URL.slice(0, 80)}…"`],
		['a Directory ID from an expression giving an array', { directoryId: `={{ ["${DIRECTORY_ID}"] }}` }, `Invalid Directory ID in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, not an array, got "["${DIRECTORY_ID}"]"`],
		['a Destination Path with an encoded ..', { destinationPath: 'invoices/%2e%2e/x' }, `Invalid Destination Path in item 0: expected ${FOLDERS}, got "invoices/%2e%2e/x"`],
		['a Destination Path with an empty folder name', { destinationPath: 'invoices//2024' }, `Invalid Destination Path in item 0: expected ${FOLDERS}, got "invoices//2024"`],
		['a Destination Path whose folder name is 300 characters', { destinationPath: `invoices/${'x'.repeat(300)}` }, `Invalid Destination Path in item 0: expected ${FOLDERS}, got "invoices/${'x'.repeat(71)}…"`],
		['a Destination Path with a control character', { destinationPath: 'invoices/\u0000' }, 'Invalid Destination Path in item 0: expected text on one line (no line breaks or control characters), got "invoices/\\u0000"'],
		['API Request ID from an expression giving an object', { apiRequestId: '={{ { id: 1 } }}' }, 'Invalid API Request ID in item 0: expected text of 1 to 255 characters, not an object, got "{"id":1}"'],
		['Split Document "yes"', { isSplit: '={{ "yes" }}' }, 'Invalid Split Document in item 0: expected true or false, got "yes"'],
		['a Part Size of 2 MB with Multipart Upload "Auto" and a small file', { partSize: 2 }, 'Invalid Part Size (MB) in item 0: expected a number of MB from 5 to 5120, got "2"'],
		['a Part Concurrency of 1000', { multipart: 'always', partConcurrency: 1000 }, 'Invalid Part Concurrency in item 0: expected a whole number from 1 to 32, got "1000"'],
		['a Poll Interval "fast"', { pollInterval: '={{ "fast" }}' }, 'Invalid Poll Interval (Seconds) in item 0: expected a number of seconds, 0.5 or more, got "fast"'],
		['a Poll Interval of 0', { pollInterval: 0 }, 'Invalid Poll Interval (Seconds) in item 0: expected a number of seconds, 0.5 or more, got "0"'],
		['a Wait Timeout "forever"', { waitTimeout: '={{ "forever" }}' }, 'Invalid Wait Timeout (Seconds) in item 0: expected a number of seconds, 1 or more, got "forever"'],
		['a Wait Timeout of 0', { waitTimeout: 0 }, 'Invalid Wait Timeout (Seconds) in item 0: expected a number of seconds, 1 or more, got "0"'],
	])('%s', async (_case, options, message) => {
		const { error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], { options });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});

	it('Wait for Completion "no" from an expression', async () => {
		const { error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], { waitForCompletion: '={{ "no" }}' });

		expect(error?.message).toBe('Invalid Wait for Completion in item 0: expected true or false, got "no"');
		expect(emulator.requests).toHaveLength(0);
	});

	it('an Input Binary Field the item does not have, naming the fields it has', async () => {
		const { error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], { binaryPropertyName: 'attachment' });

		expect(error?.message).toBe(
			'Invalid Input Binary Field in item 0: expected the name of a binary field of the input item, which has: data, got "attachment"',
		);
		expect(emulator.requests).toHaveLength(0);
	});

	it('an input item without binary data', async () => {
		const { error } = await upload([{ json: { invoice: 42 } }]);

		expect(error?.message).toBe(
			'Invalid Input Binary Field in item 0: expected the name of a binary field of the input item, which has no binary data (the node before this one must output a file), got "data"',
		);
		expect(emulator.requests).toHaveLength(0);
	});

	it('takes a number from an expression in a text option as its text (API Request ID 2024)', async () => {
		const { error } = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], {
			waitForCompletion: false,
			options: { apiRequestId: '={{ 2024 }}' },
		});

		expect(error).toBeUndefined();
		const [record] = [...emulator.state.uploads.values()].filter((candidate) => candidate.params.apiRequestId === '2024');
		expect(record).toBeDefined();
	});
});

describe('Get Upload Status and Get Values refuse an array where one ID is expected', () => {
	const UPLOAD_ID = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';

	it('Upload ID from an expression giving an array of one UUID', async () => {
		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getUploadStatus', uploadId: `={{ ["${UPLOAD_ID}"] }}` },
			credentials: credentialsFor(emulator),
		});

		expect(error?.message).toBe(
			`Invalid Upload ID in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, not an array, got "["${UPLOAD_ID}"]"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});

	it('File from an expression giving an array of one UUID', async () => {
		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'getValues', fileId: { __rl: true, mode: 'id', value: `={{ ["${UPLOAD_ID}"] }}` } },
			credentials: credentialsFor(emulator),
		});

		expect(error?.message).toBe(
			`Invalid File in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, not an array, got "["${UPLOAD_ID}"]"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe("File > Upload's items and the callback URL", () => {
	it("leave out the callback URL the upload got (the key's default, e.g. a Callback Trigger's URL, or the user's own); callbackURLSource says which", async () => {
		const triggerUrl = 'https://n8n.example.com/webhook/6f1c2a9e-4b7d-4c03-9e2a-5b7d9c0e1f23/callback';
		emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, triggerUrl);
		try {
			const byDefault = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], { waitForCompletion: false });
			const own = await upload([await binaryItem(INVOICE_FILE_NAME, invoiceText())], { waitForCompletion: false, options: { callbackURL: 'https://hooks.example.com/mine' } });

			expect(byDefault.items[0].json).toMatchObject({ status: 'uploaded', callbackURLSource: 'api_key' });
			expect(own.items[0].json).toMatchObject({ status: 'uploaded', callbackURLSource: 'user' });
			for (const item of [...byDefault.items, ...own.items]) {
				expect(item.json.callbackURL).toBeUndefined();
				expect(JSON.stringify(item.json)).not.toContain('n8n.example.com');
				expect(JSON.stringify(item.json)).not.toContain('hooks.example.com');
			}
		} finally {
			emulator.setDefaultCallbackUrl(SEEDED_KEYS.readWrite, undefined);
		}
	});
});
