/**
 * What waiting for callbacks costs in API requests, counted, against the polling mode on the same
 * documents and the same processing time (issue 31: "no more API requests per document than
 * polling, also with 100+ items whose callbacks arrive out of order"; checking every upload on
 * every callback would be quadratic).
 *
 * Polling's cost per document does not depend on how many items the node has (each item polls
 * for itself: first after 1 s, then 2 s, 4 s … up to the Poll Interval), so a few documents give
 * its figure; the callback run has 120, whose callbacks come reordered, duplicated (concurrently)
 * and replayed.
 */
import type { Emulator } from '../../dev/emulator';
import { CALLBACK_UPLOAD, documents, outputAfterWait, startCallbackRun, useWaitingWebhooks } from './callback-wait-support';
import { credentialsFor, useEmulator } from './support';
import { runNode } from '../../dev/harness';

/** Long enough that polling asks twice (at 1 s and 3 s), as it does for any real document. */
const PROCESSING_MS = 2500;
const CALLBACK_DOCUMENTS = 120;
const POLLING_DOCUMENTS = 4;

const emulator = useEmulator({ processingDelayMs: PROCESSING_MS, callbackRetryBaseMs: 100 }, 'test');
const waiting = useWaitingWebhooks();

/** API requests made since `after` (a sequence number of the emulator's request log). */
function apiRequestsSince(on: Emulator, after: number) {
	return on.requests.filter((entry) => entry.host === 'api' && entry.sequence > after);
}

const lastSequence = (on: Emulator) => on.requests.at(-1)?.sequence ?? 0;

describe('API requests per document: callbacks against polling', () => {
	it(`${CALLBACK_DOCUMENTS} documents whose callbacks arrive out of order, duplicated and replayed cost no more API requests per document than polling; status requests stay linear (each upload at most 3, at most 2 per document in all)`, async () => {
		// Polling, the default Poll Interval: the baseline of the same emulator and processing time.
		const beforePolling = lastSequence(emulator);
		const polled = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', waitForCompletion: true, waitMode: 'poll' },
			credentials: credentialsFor(emulator),
			inputItems: await documents(POLLING_DOCUMENTS),
		});
		expect(polled.error).toBeUndefined();
		expect(polled.outputs[0].map((item) => item.json.status)).toEqual(Array.from({ length: POLLING_DOCUMENTS }, () => 'processed'));
		const pollingPerDocument = apiRequestsSince(emulator, beforePolling).length / POLLING_DOCUMENTS;

		emulator.callbackFaults.add({ kind: 'reorder', windowMs: 400, count: 'all' });
		emulator.callbackFaults.add({ kind: 'duplicate', copies: 2, concurrent: true, count: 'all' });
		emulator.callbackFaults.add({ kind: 'replay', afterMs: 300, count: 'all' });
		const beforeCallbacks = lastSequence(emulator);
		const inputs = await documents(CALLBACK_DOCUMENTS);
		const { executionId } = await startCallbackRun(emulator, waiting, inputs, CALLBACK_UPLOAD);
		const output = await outputAfterWait(waiting, executionId, 120_000);

		expect(output.map((item) => item.json.status)).toEqual(inputs.map(() => 'processed'));
		expect(waiting.resumesOf(executionId)).toBe(1);
		const callbackRequests = apiRequestsSince(emulator, beforeCallbacks);
		const callbackPerDocument = callbackRequests.length / CALLBACK_DOCUMENTS;
		process.stderr.write(
			`[callback cost] API requests per document: callbacks ${callbackPerDocument.toFixed(2)} (${CALLBACK_DOCUMENTS} documents, ${waiting.calls.length} callbacks), polling ${pollingPerDocument.toFixed(2)} (${PROCESSING_MS} ms processing)\n`,
		);
		expect(callbackPerDocument).toBeLessThanOrEqual(pollingPerDocument);
		// Linear, never quadratic: each upload's status is asked for at most twice (the first look, its
		// own callback), once more for the one asked before the wait; and far fewer than the callbacks.
		const perUpload = new Map<string, number>();
		for (const entry of callbackRequests.filter((request) => request.method === 'GET' && /\/uploads\/[^/]+$/.test(request.path))) {
			const uploadId = entry.path.split('/').pop()!;
			perUpload.set(uploadId, (perUpload.get(uploadId) ?? 0) + 1);
		}
		expect(perUpload.size).toBe(CALLBACK_DOCUMENTS);
		expect(Math.max(...perUpload.values())).toBeLessThanOrEqual(3);
		expect([...perUpload.values()].reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(2 * CALLBACK_DOCUMENTS + 1);
		expect(waiting.calls.length).toBeGreaterThan(CALLBACK_DOCUMENTS * 2);
	});
});
