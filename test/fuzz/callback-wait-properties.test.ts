/**
 * Upload's Wait Mode "When the Service Calls Back" over generated hostile callbacks (property-based,
 * fixed seed in `npm test`, longer under `npm run fuzz`). Each case runs one Upload of 1 to 4
 * documents through n8n-core's engine and the in-process waiting-webhook server; the emulator's own
 * callbacks are dropped, and the test sends batches of calls at once instead: to any item number
 * (also none or one past the end), with the run's secret, a wrong one or none, bodies naming the
 * item's upload, another item's, a random id or junk, with any status and step, or bodies that are
 * not JSON objects, some while the documents are still processed. Then one genuine final callback
 * per item. Invariants, whatever the sequence:
 * - every call is answered by the node (no throw, no hang), never with a 5xx; an intermediate step
 *   is answered 200 "noted" before anything is read (whatever the secret: it changes nothing);
 *   otherwise a wrong or missing secret gets 401 and an item the run does not have 400, both
 *   without an API request;
 * - the execution resumes exactly once, and only with every document processed (a forged
 *   "completed" never resumes it early: its items would then say "did not finish");
 * - the output is the polling mode's: one processed item per document, in order, paired with it;
 * - status requests stay linear: at most one before the wait, per upload one first look and one
 *   look near the end (its callback may have gone to another process), and one per call that
 *   carries the secret and a real item.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';

import type { Emulator } from '../../dev/emulator';
import { documents, outputAfterWait, startCallbackRun, useWaitingWebhooks } from '../node/callback-wait-support';
import { useEmulator } from '../node/support';
import { fuzzParameters, fuzzTimeout } from './runs';

const RUNS = 16;
const PROCESSING_MS = 400;
const emulator = useEmulator({ processingDelayMs: PROCESSING_MS, callbackRetryBaseMs: 100 });
const waiting = useWaitingWebhooks();

type Secret = 'valid' | 'wrong' | 'none';
type Named = 'own' | 'other' | 'random' | 'junk';

interface Call {
	/** An item of the run (taken modulo its count), or a number it does not have. */
	item: number | 'past-end' | 'negative';
	secret: Secret;
	body: { kind: 'json'; status: string | undefined; step: string | undefined; named: Named } | { kind: 'malformed'; text: string; contentType: string };
}

const call: fc.Arbitrary<Call> = fc.record({
	item: fc.oneof({ weight: 6, arbitrary: fc.nat({ max: 3 }) }, { weight: 1, arbitrary: fc.constantFrom<'past-end' | 'negative'>('past-end', 'negative') }),
	secret: fc.constantFrom<Secret>('valid', 'valid', 'valid', 'wrong', 'none'),
	body: fc.oneof(
		{
			weight: 5,
			arbitrary: fc.record({
				kind: fc.constant('json' as const),
				status: fc.constantFrom('completed', 'failed', 'waiting', 'COMPLETED', 'processing', undefined),
				step: fc.constantFrom('file_uploaded', 'processing_started', 'fraud_detection', 'processing_finished', 'processing_failed', 'x'.repeat(300), undefined),
				named: fc.constantFrom<Named>('own', 'other', 'random', 'junk'),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('malformed' as const),
				text: fc.constantFrom('[]', '7', 'null', '"completed"', 'status=completed', 'not json'),
				contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
			}),
		},
	),
});

const scenario = fc.record({
	count: fc.integer({ min: 1, max: 4 }),
	batches: fc.array(fc.record({ calls: fc.array(call, { minLength: 1, maxLength: 8 }), pauseMs: fc.constantFrom(0, 0, 150, 500) }), { minLength: 1, maxLength: 4 }),
});

/** The callback URL the node gave each item's upload, by item. */
function callbackUrls(on: Emulator, executionId: string): Map<number, { url: URL; uploadId: string }> {
	const byItem = new Map<number, { url: URL; uploadId: string }>();
	for (const [uploadId, upload] of on.state.uploads) {
		const text = upload.params.callbackURL;
		if (!text?.includes(`/webhook-waiting/${executionId}/`)) continue;
		const url = new URL(text);
		byItem.set(Number(url.searchParams.get('dexItem')), { url, uploadId });
	}
	return byItem;
}

function statusRequestsFor(on: Emulator, uploadIds: Set<string>): number {
	return on.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && uploadIds.has(entry.path.split('/').pop() ?? '')).length;
}

/** A body n8n's own parser refuses (JSON content type, text that is not JSON): the seed 20261127 counterexample. */
function unparsableJson(item: Call): boolean {
	if (item.body.kind !== 'malformed' || !item.body.contentType.includes('json')) return false;
	try {
		JSON.parse(item.body.text);
		return false;
	} catch {
		return true;
	}
}

function noted(text: string): boolean {
	try {
		return (JSON.parse(text) as { status?: unknown }).status === 'noted';
	} catch {
		return false;
	}
}

async function send(target: URL, item: Call, urls: Map<number, { url: URL; uploadId: string }>, count: number): Promise<Response> {
	const url = new URL(target);
	if (item.secret === 'wrong') url.searchParams.set('dexToken', 'f'.repeat(64));
	if (item.secret === 'none') url.searchParams.delete('dexToken');
	const index = typeof item.item === 'number' ? item.item % count : item.item === 'past-end' ? count : -1;
	url.searchParams.set('dexItem', String(index));
	if (item.body.kind === 'malformed') {
		return await fetch(url, { method: 'POST', headers: { 'content-type': item.body.contentType }, body: item.body.text });
	}
	const own = urls.get(Math.max(0, Math.min(index, count - 1)))!.uploadId;
	const other = urls.get((Math.max(0, index) + 1) % count)!.uploadId;
	const uploadId = { own, other, random: randomUUID(), junk: '../files?x=1' }[item.body.named];
	const body = { uploadId, status: item.body.status, step: item.body.step, timestamp: new Date().toISOString() };
	return await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('Upload waiting for callbacks over generated hostile callbacks (property)', () => {
	it(
		'answers every call with 2xx/4xx, resumes once with every document processed, and asks the API a linear number of times',
		async () => {
			await fc.assert(
				fc.asyncProperty(scenario, async ({ count, batches }) => {
					emulator.callbackFaults.clear();
					emulator.callbackFaults.add({ kind: 'drop', count: 'all' });
					const callsBefore = waiting.calls.length;
					const { executionId, parked } = await startCallbackRun(emulator, waiting, await documents(count));
					expect(parked.error).toBeUndefined();
					const urls = callbackUrls(emulator, executionId);
					expect(urls.size).toBe(count);
					const uploadIds = new Set([...urls.values()].map((entry) => entry.uploadId));
					const target = urls.get(0)!.url;
					let chargeable = 0;

					for (const batch of batches) {
						if (batch.pauseMs) await new Promise((resolve) => setTimeout(resolve, batch.pauseMs));
						const answers = await Promise.all(batch.calls.map(async (item) => ({ item, response: await send(target, item, urls, count) })));
						for (const { item, response } of answers) {
							const text = await response.text();
							expect(response.status).toBeGreaterThanOrEqual(200);
							expect(response.status < 500 || response.status === 503).toBe(true);
							// Once the execution has resumed, n8n answers 409 itself ("running already", "finished").
							const afterResume = waiting.resumesOf(executionId) > 0 && response.status === 409;
							// n8n answers a body that is not JSON under a JSON content type 422 itself, before the node runs.
							const refusedByN8n = unparsableJson(item) && response.status === 422;
							// An intermediate step is answered "noted" before anything is read, secret or not: it
							// changes nothing (the resume and request invariants below hold it to that).
							if (response.status === 200 && noted(text)) {
								// Only for what the service calls an intermediate step: status "waiting", a step that is not final.
								expect(item.body.kind === 'json' && item.body.status?.trim().toLowerCase() === 'waiting' && !['processing_finished', 'processing_failed'].includes(item.body.step ?? '')).toBe(true);
								continue;
							}
							if (item.secret !== 'valid') expect(afterResume || refusedByN8n || response.status === 401).toBe(true);
							else if (typeof item.item !== 'number') expect(afterResume || refusedByN8n || response.status === 400).toBe(true);
							else chargeable += 1;
						}
					}

					// The genuine callbacks, once every document is processed, each sent again as the service
					// does while it is not answered 2xx (a 503 after a forged call that the API refuted moments ago).
					await new Promise((resolve) => setTimeout(resolve, PROCESSING_MS + 300));
					for (const [, { url, uploadId }] of urls) {
						for (let attempt = 0; attempt < 5 && waiting.resumesOf(executionId) === 0; attempt++) {
							if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 2100));
							const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uploadId, status: 'completed', step: 'processing_finished' }) });
							await response.arrayBuffer();
							expect(response.status < 500 || response.status === 503).toBe(true);
							chargeable += 1;
							if (response.ok) break;
						}
					}
					const output = await outputAfterWait(waiting, executionId, 30_000);

					expect(waiting.resumesOf(executionId)).toBe(1);
					expect(output.map((entry) => [entry.json.status, entry.json.error, entry.pairedItem])).toEqual(
						Array.from({ length: count }, (_, item) => ['processed', undefined, { item }]),
					);
					const calls = waiting.calls.slice(callsBefore).filter((entry) => entry.executionId === executionId);
					expect(calls.filter((entry) => entry.outcome === 'threw' || entry.outcome === 'hung' || (entry.status >= 500 && entry.status !== 503))).toEqual([]);
					expect(statusRequestsFor(emulator, uploadIds)).toBeLessThanOrEqual(1 + 2 * count + chargeable);
				}),
				{ ...fuzzParameters(RUNS, 0.02), endOnFailure: true },
			);
		},
		fuzzTimeout(RUNS, 8000, 0.02),
	);
});
