/**
 * Upload's Wait Mode "When the Service Calls Back": what a caller's secret and the node's own name
 * cannot break. A wrong secret is a 401 whatever its characters (the secret is compared as bytes,
 * nodes/shared/sameSecret.ts); a node named with expression syntax (`}}`, `{{`), quotes,
 * backslashes or any unicode still reads its saved wait and resumes.
 */
import fc from 'fast-check';

import { documents, outputAfterWait, startCallbackRun, useWaitingWebhooks } from './callback-wait-support';
import { loadBuiltPackage, requestsTo, useEmulator } from './support';

const emulator = useEmulator({ processingDelayMs: 300, callbackRetryBaseMs: 100 }, 'test');
// The package and n8n-core loaded before the first test (slow on a busy machine), not within its time.
beforeAll(async () => {
	await loadBuiltPackage();
}, 300_000);
const waiting = useWaitingWebhooks();

/** The callback URL the node gave an upload (read from the emulator's record of it). */
function callbackUrlOf(uploadId: string): URL {
	const url = emulator.state.uploads.get(uploadId)?.params.callbackURL;
	if (!url) throw new Error(`upload ${uploadId} has no callback URL`);
	return new URL(url);
}

async function post(url: URL, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a wrong secret', () => {
	it.each([
		['one non-ASCII character in place of the first (same UTF-16 length, one byte more)', (secret: string) => `é${secret.slice(1)}`],
		['an emoji in place of the first two (same UTF-16 length, two bytes more)', (secret: string) => `😀${secret.slice(2)}`],
		['non-ASCII of another length', () => 'ü'.repeat(7)],
	])('%s: 401 from the node, no API request, the execution keeps waiting', async (_name, wrong) => {
		emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
		emulator.setProcessingDelay(60_000);
		const { parked, executionId } = await startCallbackRun(emulator, waiting, await documents(1));
		expect(parked.result.status).toBe('waiting');
		const url = callbackUrlOf(String(parked.items[0].json.uploadId));
		const secret = url.searchParams.get('dexToken') ?? '';
		expect(secret.length).toBeGreaterThan(2);
		url.searchParams.set('dexToken', wrong(secret));
		emulator.requests.length = 0;

		const answer = await post(url, { status: 'completed', step: 'processing_finished' });

		expect(answer).toMatchObject({ status: 401, body: { error: 'This callback URL does not belong to the wait of this execution' } });
		expect(requestsTo(emulator, 'api')).toEqual([]);
		expect(waiting.statusOf(executionId)).toBe('waiting');
	});
});

/** Node names a user may type, with the syntax of n8n's expressions and of JavaScript strings in them. */
const HOSTILE_NAMES = [
	'Upload }} now',
	'}}',
	'{{ $json }}',
	'Upload {{',
	'Say "hi"',
	"It's mine",
	'back\\slash \\',
	'\\}}',
	'`tick` ${x}',
	'Ünïcödé 文档 📄',
	'tab\there',
];

/** More names, generated from the same characters (a fixed seed: the same names every run). */
const GENERATED_NAMES = fc.sample(
	fc.string({ unit: fc.constantFrom('}', '{', '"', "'", '\\', '`', '$', ']', '[', 'a', ' ', 'é', '📄'), minLength: 1, maxLength: 12 }),
	{ seed: 39, numRuns: 5 },
).filter((name) => name.trim() !== '');

describe('the node\'s own name', () => {
	it.each([...HOSTILE_NAMES, ...GENERATED_NAMES].map((name) => [name]))('named %j: the callbacks read the saved wait and resume it once', async (nodeName) => {
		const { parked, executionId } = await startCallbackRun(emulator, waiting, await documents(2), {}, { nodeName });
		expect(parked.result.status).toBe('waiting');

		const output = await outputAfterWait(waiting, executionId, 20_000, nodeName);

		expect(output.map((item) => item.json.status)).toEqual(['processed', 'processed']);
		expect(waiting.resumesOf(executionId)).toBe(1);
		expect(waiting.calls.filter((call) => call.status === 404)).toEqual([]);
	});
});

describe('what a final callback costs while its upload is still processing', () => {
	async function parked(count: number) {
		emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
		emulator.setProcessingDelay(60_000);
		const { parked: run, executionId } = await startCallbackRun(emulator, waiting, await documents(count));
		expect(run.result.status).toBe('waiting');
		emulator.requests.length = 0;
		return { executionId, uploadIds: run.items.map((item) => String(item.json.uploadId)) };
	}
	const statusRequestsFor = (uploadId: string) => requestsTo(emulator, 'api', 'GET', /\/uploads\//).filter((entry) => entry.path.endsWith(uploadId));

	it("the first one asks once per upload (the first look's answer is its own: 503); its repeats within verifySpacingMs ask nothing (503)", async () => {
		const { uploadIds, executionId } = await parked(2);
		const url = callbackUrlOf(uploadIds[0]);

		expect(await post(url, { status: 'completed', step: 'processing_finished' })).toMatchObject({ status: 503 });
		expect(statusRequestsFor(uploadIds[0])).toHaveLength(1);
		expect(statusRequestsFor(uploadIds[1])).toHaveLength(1);

		for (let index = 0; index < 5; index++) expect((await post(url, { status: 'completed', step: 'processing_finished' })).status).toBe(503);
		expect(requestsTo(emulator, 'api')).toHaveLength(2);
		expect(waiting.statusOf(executionId)).toBe('waiting');
	});

	it('while the API cannot be reached: the first look asks once (503), and repeats within verifySpacingMs ask nothing', async () => {
		const { uploadIds } = await parked(1);
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 1000 });
		const url = callbackUrlOf(uploadIds[0]);

		expect((await post(url, { status: 'completed', step: 'processing_finished' })).status).toBe(503);
		const asked = statusRequestsFor(uploadIds[0]).length;
		for (let index = 0; index < 5; index++) expect((await post(url, { status: 'completed', step: 'processing_finished' })).status).toBe(503);

		expect(statusRequestsFor(uploadIds[0])).toHaveLength(asked);
	});
});
