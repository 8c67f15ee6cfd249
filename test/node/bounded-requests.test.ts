/**
 * Bounded by construction: whatever the service answers (never, a few bytes a second, 400 MB,
 * the same page for ever, a 429 for another execution), a request ends within the bounds the
 * user set. Evidence is the outcome, the messages and the emulator's request log, never elapsed
 * time. Request timeouts and transfer speeds are real time; the package's waits run on the
 * controlled clock except where a test says it needs real waits.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { addFiles } from '../../dev/emulator/bulk-files';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();

function run(operation: string, parameters: IDataObject, resource = 'file', inputItems?: INodeExecutionData[]) {
	return runNode({
		type: 'documentExtraction',
		parameters: { resource, operation, ...parameters },
		credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
		inputItems,
	});
}

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

describe('a call ends within Request Timeout + Max Retry Wait (real waits)', () => {
	it('an API that accepts and never answers: the retry gets only what Max Retry Wait has left, then the item fails', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.hangNext({ method: 'GET', path: /\/values$/, count: 10 });

		// Attempt 1 has the 2 s Request Timeout; the backoff (0.25-0.5 s) and attempt 2 share the 2 s of
		// Max Retry Wait, so after attempt 2 nothing is left for a third (before: 4 attempts of 2 s each).
		const { error } = await run('getValues', { fileId: byId(file.fileId), options: { requestTimeout: 2, maxRateLimitWait: 2 } });

		expect(error?.message).toMatch(/no answer within [12] s/);
		expect(error?.message).toMatch(/Max Retry Wait is 2 s/);
		expect(requestsTo(emulator, 'api', 'GET', /\/values$/)).toHaveLength(2);
	});
});

describe('bounds applied by the request path', () => {
	useFakeWaitClock();

	it('an API answer that trickles a few bytes per second ends at the Request Timeout, not at its last byte', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		// About 2 KB at 50 bytes/s would take 40 s; a byte arrives every 0.2 s, so no idle timeout fires.
		emulator.faults.trickleNext({ host: 'api', method: 'GET', path: /\/values$/, bytesPerSecond: 50, chunkBytes: 10 });

		const { error } = await run('getValues', { fileId: byId(file.fileId), options: { requestTimeout: 1, maxRateLimitWait: 0 } });

		expect(error?.message).toMatch(/no answer within 1 s \(the Request Timeout option\)/);
		expect(requestsTo(emulator, 'api', 'GET', /\/values$/)).toHaveLength(1);
	});

	it('a storage download that trickles is abandoned below Min Transfer Speed and fails naming the bytes, the speed it saw and the bound', async () => {
		const file = await seedFile(emulator, 'big-note.txt', 'x'.repeat(64 * 1024));
		emulator.requests.length = 0;
		emulator.faults.trickleNext({ host: 'storage', method: 'GET', bytesPerSecond: 100, chunkBytes: 20, count: 10 });

		const { error, items } = await run('download', {
			fileId: byId(file.fileId),
			options: { minTransferSpeed: 1, lowSpeedTime: 2, maxRateLimitWait: 0 },
		});

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/^The download of file "big-note\.txt" from storage \(http:\/\/127\.0\.0\.1:\d+\) stopped: \d+ bytes of 64 KB came in [\d.]+ s \(\d+ bytes\/s\); it was ended because it moved at \d+ bytes\/s over the last 2 s, below the Min Transfer Speed of 1 KB\/s\./,
		);
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(1);
	});

	it('a 1 MiB download trickled at 20 bytes/s: the repeated attempt ends with what Max Retry Wait had left, and the error names the bytes and the speed first', async () => {
		const file = await seedFile(emulator, 'one-mebibyte.txt', 'x'.repeat(1024 * 1024));
		emulator.requests.length = 0;
		emulator.faults.trickleNext({ host: 'storage', method: 'GET', bytesPerSecond: 20, chunkBytes: 1, count: 10 });

		// Attempt 1 is ended by the speed limit after 2 s; its backoff (at most 0.5 s) and attempt 2 share the 1 s of Max Retry Wait.
		const { error } = await run('download', { fileId: byId(file.fileId), options: { lowSpeedTime: 2, maxRateLimitWait: 1 } });

		expect(error?.message).toMatch(
			/^The download of file "one-mebibyte\.txt" from storage \(http:\/\/127\.0\.0\.1:\d+\) stopped: \d+ bytes of 1 MB came in 0\.\d s \(\d+ bytes\/s\); it was ended when the 0\.\d s that Max Retry Wait had left for this repeated attempt were spent \(2 attempts\)\./,
		);
		expect(error?.message).not.toContain('Could not reach');
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(2);
	});

	it('Min Transfer Speed cannot turn the low-speed limit off: 0 is refused before any request', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;

		const { error } = await run('download', { fileId: byId(file.fileId), options: { minTransferSpeed: 0 } });

		expect(error?.message).toBe('Invalid Min Transfer Speed (KB/s) in item 0: expected a number of KB/s, 0.1 or more, got "0"');
		expect(emulator.requests).toHaveLength(0);
	});

	it('a slow download is tried again under the policy and the next attempt succeeds', async () => {
		const content = 'y'.repeat(48 * 1024);
		const file = await seedFile(emulator, 'slow-then-fast.txt', content);
		emulator.requests.length = 0;
		emulator.faults.trickleNext({ host: 'storage', method: 'GET', bytesPerSecond: 100, chunkBytes: 20 });

		const { error, items } = await run('download', { fileId: byId(file.fileId), options: { lowSpeedTime: 1 } });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.fileSize).toBeDefined();
		expect(requestsTo(emulator, 'storage', 'GET')).toHaveLength(2);
	});

	it.each([
		['streamed without a length', false],
		['announced by Content-Length', true],
	])('an answer past Max Answer Size (%s) fails naming the cap, before the rest is read', async (_name, withContentLength) => {
		emulator.faults.hugeAnswerNext({ host: 'api', method: 'GET', path: '/files', bytes: 40 * 1024 * 1024, withContentLength });

		const { error, items } = await run('getMany', { returnAll: false, limit: 5, options: { maxAnswerSize: 2 } });

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/larger than 2 MB, the Max Answer Size: reading stopped there/);
		expect(error?.message).toContain('raise "Max Answer Size (MB)"');
		// Not repeated: the same answer would come again.
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(1);
	});

	it('a download larger than the size its record announced is stopped, nothing stored', async () => {
		const file = await seedFile(emulator, 'announced-small.txt', 'z'.repeat(256 * 1024));
		const record = emulator.state.files.get(file.fileId);
		if (!record) throw new Error('seeded file not found');
		record.fileSize = 10;

		const { error, items } = await run('download', { fileId: byId(file.fileId) });

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/brought more bytes than the size the service announced/);
	});

	it('Return All against a service that ignores page: fails clearly after the page that brought nothing new', async () => {
		addFiles(emulator.state, 150, { createdAtMs: (index) => Date.parse('2026-01-01T00:00:00Z') + index * 1000 });
		emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 1000 });

		const { error, items } = await run('getMany', { returnAll: true });

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/made no progress: page 2 brought no item it had not already sent/);
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(2);
	});

	it('Return All never sends more than total / page size + 1 requests when the service gives a total', async () => {
		addFiles(emulator.state, 250, { createdAtMs: (index) => Date.parse('2026-02-01T00:00:00Z') + index * 1000 });

		const { error, items } = await run('getMany', { returnAll: true });

		expect(error).toBeUndefined();
		const ids = items.map((item) => item.json.fileId);
		expect(new Set(ids).size).toBe(ids.length);
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/).length).toBeLessThanOrEqual(Math.ceil(ids.length / 100) + 1);
	});
});

describe('repeated storage attempts are charged to Max Retry Wait', () => {
	const clock = useFakeWaitClock();

	it('a PUT that storage never acknowledges: the retry gets only what Max Retry Wait has left, then the item fails', async () => {
		// Storage reads the body at 100 bytes/s: the socket takes the 256 KB at once, then no answer comes,
		// so every attempt ends at the Request Timeout (3 s) of idle time.
		const item = await createBinaryItem({ buffer: Buffer.alloc(256 * 1024, 97), fileName: 'slow-put.txt', mimeType: 'text/plain', mode: 'filesystem' });
		emulator.faults.trickleNext({ host: 'storage', method: 'PUT', direction: 'request', bytesPerSecond: 100, count: 100 });

		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', options: { requestTimeout: 3, maxRateLimitWait: 2 } },
			credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
			inputItems: [item],
			binaryDataMode: 'filesystem',
		});

		// The first backoff (at most 0.5 s) and attempt 2 (cut at what is left, at least 1.5 s) share the
		// 2 s of Max Retry Wait: no time is left for attempt 3. Before, repeated storage attempts were not
		// charged: the backoffs alone (at most 1.5 s for two) let 3 or 4 attempts of 3 s each go out.
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(2);
		expect(clock.sleeps).toHaveLength(1);
		// Storage was reached and took the bytes: the error says what they did, then which bound ended the attempt.
		expect(error?.message).toMatch(
			/^The upload of file "slow-put\.txt" \(upload ID [\w-]+\) to storage \(http:\/\/127\.0\.0\.1:\d+\) stopped: all 256 KB were sent in [\d.]+ s, then storage did not answer for 1\.\d s; it was ended when the 1\.\d s that Max Retry Wait had left for this repeated attempt were spent \(2 attempts\)\./,
		);
		expect(error?.message).not.toContain('Could not reach');
		expect(error?.message).toMatch(/\(Max Retry Wait is 2 s; \d s were already waited in 1 wait\(s\) and [12] s spent in repeated attempts\)/);
	});
});

describe('one rate limit, many executions', () => {
	const clock = useFakeWaitClock();

	it('a 429 answered to one execution holds the requests of another execution with the same key', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 3 });
		clock.holdSleeps();

		const first = run('upload', { options: { pollInterval: 0.5 } }, 'file', [await textItem()]);
		await clock.waitForHeldSleeps(1);
		const second = run('getSubscription', {}, 'workspace');
		await clock.waitForHeldSleeps(2);

		// The second execution's request waits at the key's gate: nothing of it reached the API.
		expect(requestsTo(emulator, 'api', 'GET', /\/subscription$/)).toHaveLength(0);
		expect(clock.sleeps[1]).toBeGreaterThan(2000);
		clock.releaseSleeps();

		const [uploaded, subscription] = await Promise.all([first, second]);
		expect(uploaded.error).toBeUndefined();
		expect(subscription.error).toBeUndefined();
		expect(requestsTo(emulator, 'api', 'GET', /\/subscription$/)).toHaveLength(1);
	});

	it('stopping an execution held at the key\'s gate ends it at once: nothing of it is sent', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 30 });
		clock.holdSleeps();

		const first = run('upload', { options: { pollInterval: 0.5 } }, 'file', [await textItem()]);
		await clock.waitForHeldSleeps(1);
		let stop: () => void = () => {};
		const stopped = new Promise<void>((resolve) => (stop = resolve));
		const second = runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
			cancelWhen: stopped,
		});
		await clock.waitForHeldSleeps(2);
		stop();

		const held = await second;
		expect(held.result.status).toBe('canceled');
		expect(requestsTo(emulator, 'api', 'GET', /\/subscription$/)).toHaveLength(0);
		clock.releaseSleeps();
		expect((await first).error).toBeUndefined();
	});

	it('another key is not held', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 3 });
		clock.holdSleeps();

		const first = run('upload', { options: { pollInterval: 0.5 } }, 'file', [await textItem()]);
		await clock.waitForHeldSleeps(1);
		const otherKey = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: credentialsFor(emulator, SEEDED_KEYS.readOnly),
		});

		expect(otherKey.error).toBeUndefined();
		clock.releaseSleeps();
		expect((await first).error).toBeUndefined();
	});

	it('when the pause ends, the requests it held leave one by one, not in the same millisecond', async () => {
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 3 });
		clock.holdSleeps();

		const items = [await textItem(), await textItem(), await textItem()];
		const running = run('upload', { options: { pollInterval: 0.5, batching: { batch: { batchSize: 3, batchInterval: 0 } } } }, 'file', items);
		await clock.waitForHeldSleeps(3);

		const held = [...clock.sleeps].sort((a, b) => a - b);
		expect(held[1] - held[0]).toBeGreaterThanOrEqual(100);
		expect(held[2] - held[1]).toBeGreaterThanOrEqual(100);
		clock.releaseSleeps();
		expect((await running).error).toBeUndefined();
	});
});

describe('text from the service costs time linear in a bounded part of it', () => {
	useFakeWaitClock();

	it.each([
		['a megabyte of "<" (markup that never closes)', '<'.repeat(1024 * 1024)],
		['a megabyte of spaces and full stops before a letter', `${' .'.repeat(512 * 1024)}x`],
		['an HTML page with a huge unclosed tag', `<html><body><h1>Bad gateway</h1><p ${'a'.repeat(1024 * 1024)}`],
	])('an error page of %s: the item fails with a short message', async (_name, rawBody) => {
		const file = await seedFile(emulator);
		emulator.faults.failNext({ method: 'GET', path: /\/values$/, status: 502, rawBody });

		// Before: the whole body went through /<[^>]*>/g and /[.\s]+$/ (quadratic): minutes of a blocked event loop.
		const { error } = await run('getValues', { fileId: byId(file.fileId), options: { maxRateLimitWait: 0 } });

		expect(error?.message).toContain('HTTP 502');
		expect(error?.message.length).toBeLessThan(1500);
	});
});
