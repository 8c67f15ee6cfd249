import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, invoiceText, receiptText } from '../../dev/documents';
import { HarnessCredentialsHelper, createBinaryItem, runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, startTestEmulator, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

const UNKNOWN_FILE_ID = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';

async function textItem(fileName = INVOICE_FILE_NAME, text = invoiceText()): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(text, 'utf8'), fileName, mimeType: 'text/plain' });
}

async function run(
	parameters: IDataObject,
	{
		apiKey = SEEDED_KEYS.readWrite,
		inputItems,
		continueOnFail = false,
	}: { apiKey?: string; inputItems?: INodeExecutionData[]; continueOnFail?: boolean } = {},
) {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', ...parameters },
		credentials: credentialsFor(emulator, apiKey),
		inputItems,
		continueOnFail,
	});
}

const uploadParameters = (options: IDataObject = {}): IDataObject => ({
	operation: 'upload',
	options: { pollInterval: 0.5, ...options },
});

function messageOf(error: unknown): string {
	return String((error as { message?: string }).message);
}

describe('API errors become messages a person can act on', () => {
	it('401: names the problem, the status, the request id and what to do, without the key', async () => {
		const wrongKey = 'dex_wrong_key_0000000000000000';
		const { error } = await run(
			{ operation: 'getValues', fileId: { mode: 'id', value: UNKNOWN_FILE_ID } },
			{ apiKey: wrongKey },
		);

		const message = messageOf(error);
		expect(message).toContain('HTTP 401');
		expect(message).toMatch(/check the API key/i);
		expect(message).toMatch(/Request ID: \S+/);
		expect((error as { httpCode?: string }).httpCode).toBe('401');
		expect(JSON.stringify(error)).not.toContain(wrongKey);
	});

	it('the headline says the problem and what to do once; the description adds only the request line', async () => {
		const { error } = await run({ operation: 'getValues', fileId: { mode: 'id', value: UNKNOWN_FILE_ID } }, { apiKey: 'dex_wrong_key_0000000000000000' });

		const message = messageOf(error);
		const description = String((error as { description?: string }).description);
		expect(description).toMatch(/^GET \/prod\/v1\/files\/[\w-]+\/values answered HTTP 401( \(\w+\))?\.(\nItem index: \d+)?$/);
		// No sentence of the headline comes again below it.
		for (const sentence of message.split('. ').filter((part) => part.length > 12)) expect(description).not.toContain(sentence);
	});

	it('403: a read-only key trying to upload is told the key is read-only', async () => {
		const { error } = await run(uploadParameters(), {
			apiKey: SEEDED_KEYS.readOnly,
			inputItems: [await textItem()],
		});

		const message = messageOf(error);
		expect(message).toContain('HTTP 403');
		expect(message).toMatch(/read-only/i);
		expect(message).toMatch(/write access/);
		expect(requestsTo(emulator, 'storage')).toHaveLength(0);
		expect(JSON.stringify(error)).not.toContain(SEEDED_KEYS.readOnly);
	});

	it('404: an unknown file names the status and code and says to check the ID', async () => {
		const { error } = await run({ operation: 'getValues', fileId: { mode: 'id', value: UNKNOWN_FILE_ID } });

		const message = messageOf(error);
		expect(message).toContain('HTTP 404 NOT_FOUND');
		expect(message).toContain(UNKNOWN_FILE_ID);
		expect(message).toMatch(/Check the ID/);
		expect(message).toMatch(/Request ID: \S+/);
	});

	it('422: each field violation is named with its pointer', async () => {
		const { error } = await run(uploadParameters({ fileName: 'invoice-without-extension' }), {
			inputItems: [await textItem()],
		});

		const message = messageOf(error);
		expect(message).toContain('HTTP 422 VALIDATION_FAILED');
		expect(message).toMatch(/field \/fileName: [^;]*extension/);
		expect(message).toMatch(/Request ID: \S+/);
		expect(requestsTo(emulator, 'storage')).toHaveLength(0);
	});

	it('checks parameters locally before any request, naming the parameter, item and form', async () => {
		const { error } = await run(uploadParameters({ directoryId: 'not-an-id' }), {
			inputItems: [await textItem()],
		});

		expect(messageOf(error)).toBe(
			'Invalid Directory ID in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "not-an-id"',
		);
		expect(emulator.requests).toHaveLength(0);

		const callback = await run(uploadParameters({ callbackURL: 'http://example.com/hook' }), {
			inputItems: [await textItem()],
		});
		expect(messageOf(callback.error)).toMatch(/Invalid Callback URL in item 0: expected an https:\/\/ URL/);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('retries', () => {
	it('429: waits the Retry-After the API asks for, then succeeds', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 1 });

		const { items, error } = await run(uploadParameters(), { inputItems: [await textItem()] });

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		const posts = requestsTo(emulator, 'api', 'POST', /\/files\/upload$/);
		expect(posts.map((entry) => entry.status)).toEqual([429, 200]);
		// The retry waited at least what the API asked for.
		expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1000);
	});

	it('429 beyond Max Retry Wait fails with a message that says so', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 30 });

		const { error } = await run(uploadParameters({ maxRateLimitWait: 5 }), { inputItems: [await textItem()] });

		const message = messageOf(error);
		expect(message).toContain('HTTP 429');
		expect(message).toMatch(/Max Retry Wait is 5 s/);
		expect(requestsTo(emulator, 'api', 'POST')).toHaveLength(1);
	});

	it('503 on an upload (an idempotent write) is retried once with the same Idempotency-Key', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 503 });

		const { items, error } = await run(uploadParameters(), { inputItems: [await textItem()] });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const posts = requestsTo(emulator, 'api', 'POST', /\/files\/upload$/);
		expect(posts.map((entry) => entry.status)).toEqual([503, 200]);
		const [first, second] = posts.map((entry) => entry.headers['idempotency-key']);
		expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(second).toBe(first);
		expect(emulator.state.uploads.size).toBeGreaterThan(0);
		expect([...emulator.state.uploads.values()].filter((u) => u.params.fileName === INVOICE_FILE_NAME && !u.parentUploadId).length).toBeGreaterThanOrEqual(1);
	});

	it('a lost connection during the storage PUT is retried with a fresh stream', async () => {
		emulator.faults.resetConnectionNext({ host: 'storage', method: 'PUT', afterBytes: 0 });

		const { items, error } = await run(uploadParameters(), { inputItems: [await textItem()] });

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		const puts = requestsTo(emulator, 'storage', 'PUT');
		expect(puts.map((entry) => entry.status)).toEqual([0, 200]);
	});

	it('a GET answered 503 is retried', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 2 });

		const { items, error } = await run(uploadParameters(), { inputItems: [await textItem()] });

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		const polls = requestsTo(emulator, 'api', 'GET', /\/uploads\//).map((entry) => entry.status);
		expect(polls.slice(0, 2)).toEqual([503, 503]);
	});

	it('a repeated run of the workflow (a new execution) uploads again with a new key', async () => {
		await run(uploadParameters(), { inputItems: [await textItem()] });
		await run(uploadParameters(), { inputItems: [await textItem()] });

		const keys = requestsTo(emulator, 'api', 'POST', /\/files\/upload$/).map(
			(entry) => entry.headers['idempotency-key'],
		);
		expect(keys).toHaveLength(2);
		expect(keys[0]).not.toBe(keys[1]);
	});
});

describe('credential', () => {
	afterEach(() => {
		jest.restoreAllMocks();
	});

	it('is read once per item, not once per request', async () => {
		const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');

		const { items, error } = await run(uploadParameters(), {
			inputItems: [await textItem(), await textItem(RECEIPT_FILE_NAME, receiptText())],
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual(['processed', 'processed']);
		// Each item: the upload request, then at least one status request while waiting.
		expect(requestsTo(emulator, 'api').length).toBeGreaterThanOrEqual(4);
		expect(reads).toHaveBeenCalledTimes(2);
	});
});

describe('continueOnFail', () => {
	it('turns a failed item into an error item paired with it and goes on with the next', async () => {
		const { items, error, result } = await run(uploadParameters(), {
			continueOnFail: true,
			inputItems: [
				{ json: { note: 'no binary' } },
				await textItem(RECEIPT_FILE_NAME, receiptText()),
			],
		});

		expect(error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(String(items[0].json.error)).toMatch(/binary/i);
		expect(items[1]).toMatchObject({ pairedItem: { item: 1 }, json: { fileName: RECEIPT_FILE_NAME, status: 'processed' } });
	});

	it('keeps the HTTP status and request id of an API error in the error item', async () => {
		const { items } = await run(
			{ operation: 'getValues', fileId: { mode: 'id', value: UNKNOWN_FILE_ID } },
			{ continueOnFail: true },
		);

		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ httpCode: '404' });
		expect(items[0].json.requestId).toEqual(expect.any(String));
		expect(String(items[0].json.error)).toContain('HTTP 404');
	});
});

describe('Wait for Completion timeout', () => {
	let slow: Emulator;
	beforeAll(async () => {
		slow = await startTestEmulator({ processingDelayMs: 6000 });
	});
	afterAll(async () => {
		await slow.close();
	});

	it('fails with the upload ID and says to continue with Get Upload Status', async () => {
		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', options: { pollInterval: 0.5, waitTimeout: 1 } },
			credentials: credentialsFor(slow),
			inputItems: [await textItem()],
		});

		const message = messageOf(error);
		const uploadId = [...slow.state.uploads.keys()][0];
		expect(message).toContain('did not finish within 1 seconds');
		expect(message).toContain('Get Upload Status');
		expect(message).toContain(uploadId);
		expect((error as { context?: IDataObject }).context?.uploadId).toBe(uploadId);
	});
});
