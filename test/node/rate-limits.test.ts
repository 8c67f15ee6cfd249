/**
 * 429 answers and the one wait policy: every wait floored, capped and jittered, counted against
 * the item's Max Retry Wait, and a 429 holding the run's other API requests. The package's waits
 * run on the controlled clock: each is recorded (ms) and none is spent.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

async function upload(options: IDataObject = {}, inputItems?: INodeExecutionData[]) {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', operation: 'upload', options: { pollInterval: 0.5, ...options } },
		credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
		inputItems: inputItems ?? [await textItem()],
	});
}

const uploadPosts = () => requestsTo(emulator, 'api', 'POST', /\/files\/upload$/);

describe('a 429 with an unusable retryAfter never retries in a tight loop', () => {
	it.each<[string, IDataObject]>([
		['retryAfter 0', { retryAfter: 0 }],
		['retryAfter -5 in the body', { retryAfterBody: -5, retryAfterHeader: '(omit)' }],
		['no retryAfter and no Retry-After', { retryAfterBody: '(omit)', retryAfterHeader: '(omit)' }],
		['an unparsable Retry-After', { retryAfterBody: '(omit)', retryAfterHeader: 'soon' }],
		['a Retry-After date in the past', { retryAfterBody: '(omit)', retryAfterHeader: 'Wed, 21 Oct 2015 07:28:00 GMT' }],
		['retryAfter "0.2" as text', { retryAfterBody: '0.2', retryAfterHeader: '(omit)' }],
	])('%s: waits 1 s, 2 s, 4 s (+ jitter), then succeeds', async (_name, fault) => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, count: 3, ...fault });

		const { items, error } = await upload();

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		expect(uploadPosts().map((entry) => entry.status)).toEqual([429, 429, 429, 200]);
		const rateLimitWaits = clock.sleeps.slice(0, 3);
		[1000, 2000, 4000].forEach((floor, index) => {
			expect(rateLimitWaits[index]).toBeGreaterThanOrEqual(floor);
			expect(rateLimitWaits[index]).toBeLessThanOrEqual(floor * 1.2 + 1);
		});
	});
});

describe('a usable retryAfter is waited out as asked, plus jitter', () => {
	it.each<[string, IDataObject, number]>([
		['retryAfter 1', { retryAfter: 1 }, 1000],
		['retryAfter 7 in the body only', { retryAfterBody: 7, retryAfterHeader: '(omit)' }, 7000],
		['Retry-After 3 in the header only', { retryAfterBody: '(omit)', retryAfterHeader: '3' }, 3000],
	])('%s', async (_name, fault, asked) => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, ...fault });

		const { error } = await upload();

		expect(error).toBeUndefined();
		expect(clock.sleeps[0]).toBeGreaterThanOrEqual(asked);
		expect(clock.sleeps[0]).toBeLessThanOrEqual(asked * 1.2 + 1);
	});

	it('a Retry-After HTTP date in the future', async () => {
		const inTwelveSeconds = new Date(Date.now() + 12_000).toUTCString();
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: '(omit)', retryAfterHeader: inTwelveSeconds });

		const { error } = await upload();

		expect(error).toBeUndefined();
		expect(clock.sleeps[0]).toBeGreaterThanOrEqual(10_000);
		expect(clock.sleeps[0]).toBeLessThanOrEqual(12_000 * 1.2 + 1);
	});
});

describe('Max Retry Wait bounds all the waits of an item', () => {
	it('a wait longer than the budget fails at once, saying how long the API asked and what is left', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 3600 });

		const { error } = await upload();

		expect(error?.message).toContain('HTTP 429');
		expect(error?.message).toMatch(/The API asked to wait 3\d{3} s, more than this item may still wait \(Max Retry Wait is 60 s/);
		expect(uploadPosts()).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('the budget is shared by the requests of one item: the second wait that does not fit fails', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 20 });
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 429, retryAfter: 20 });

		const { error } = await upload({ maxRateLimitWait: 30 });

		expect(error?.message).toMatch(/Max Retry Wait is 30 s; 2\d s were already waited in 1 wait/);
		expect(clock.sleeps.filter((ms) => ms >= 20_000)).toHaveLength(1);
	});

	it('0 never waits: the first 429 fails the item', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 1 });

		const { error } = await upload({ maxRateLimitWait: 0 });

		expect(error?.message).toContain('HTTP 429');
		expect(uploadPosts()).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('a 503 is retried three times with backoff, then reported with the number of attempts', async () => {
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 10 });

		const { error } = await upload();

		expect(error?.message).toMatch(/HTTP 503/);
		expect(error?.message).toContain('Gave up after 4 attempts');
		expect(requestsTo(emulator, 'api', 'GET', /\/uploads\//)).toHaveLength(4);
	});
});

describe('storage Retry-After follows the same policy', () => {
	it('a storage 503 SlowDown with Retry-After 0 is floored at 1 s', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, retryAfter: 0, count: 2 });

		const { items, error } = await upload();

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('processed');
		expect(requestsTo(emulator, 'storage', 'PUT').map((entry) => entry.status)).toEqual([503, 503, 200]);
		expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1000);
		expect(clock.sleeps[1]).toBeGreaterThanOrEqual(2000);
	});

	it('a storage 429 asking for an hour fails at once instead of waiting', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 429, retryAfter: 3600 });

		const { error } = await upload();

		expect(error?.message).toMatch(/Storage refused file "invoice-INV-2024-0042\.txt".*HTTP 429/);
		expect(error?.message).toMatch(/more than this item may still wait/);
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(1);
	});
});

describe('a presigned upload URL is not waited for past its 300 s', () => {
	it('a storage 503 asking for 320 s fails at once, saying the URL would have expired', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, retryAfter: 320 });

		const { error } = await upload({ maxRateLimitWait: 900 });

		expect(error?.message).toMatch(/Storage refused file .*HTTP 503.*The presigned URL stops working at \d{4}-\d\d-\d\dT/);
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});
});

describe('a 429 holds the other items of the run', () => {
	it('while one item waits out a 429, no other item sends an API request', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 5 });
		clock.holdSleeps();

		const running = upload({ batching: { batch: { batchSize: 2, batchInterval: 0 } } }, [await textItem(), await textItem()]);
		// Both items pause: the refused one for its 429, the other held at the gate before its next API request.
		await clock.waitForHeldSleeps(2);
		const apiDuringTheWait = requestsTo(emulator, 'api');
		// Only the two uploads both items had sent before the 429 came back; no status check, no retry.
		expect(apiDuringTheWait.map((entry) => `${entry.method} ${entry.path} ${entry.status}`).sort()).toEqual([
			'POST /prod/v1/files/upload 200',
			'POST /prod/v1/files/upload 429',
		]);
		expect(clock.sleeps).toHaveLength(2);
		clock.sleeps.forEach((ms) => expect(ms).toBeGreaterThan(4000));
		clock.releaseSleeps();

		const { items, error } = await running;
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual(['processed', 'processed']);
		expect(uploadPosts().map((entry) => entry.status)).toEqual([429, 200, 200]);
	});
});
