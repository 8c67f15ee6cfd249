/**
 * The Callback Trigger over generated hostile deliveries (property-based, fixed seed in `npm test`,
 * longer under `npm run fuzz`): batches of calls sent at once, batch after batch, each naming a
 * processed upload, a failed one, one still in flight, another workspace's, a random id, or no
 * upload at all, with any status, step and fileIds, repeated and reordered. Invariants, whatever
 * the sequence:
 * - every call is answered (no hang, no throw) with 200, 400, 404 or 503; 503 only for an upload
 *   the API does not show finished, or one whose check emitted nothing moments ago;
 * - each processed file of an upload whose outcome was called for is emitted exactly once, each
 *   failed one exactly once when Processing Failed is asked, each listed step exactly once when
 *   Processing Step is asked; nothing else is ever emitted;
 * - the API is asked once per upload outcome (or step) the first time it is called for; an upload
 *   it cannot confirm (unknown, still processing, a step not listed) is asked for once, and then
 *   answered from memory (404, or 503 so that the service calls again) while the memory holds (the
 *   wait clock stands still here: the whole case): never for a repeat, never for a body without an
 *   upload id or a step not asked for; a confirmable callback about an upload nobody made
 *   fruitless is always emitted.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, buildZip, emptyFile, invoiceText, receiptText } from '../../dev/documents';
import { call, uploadFile } from '../emulator/test-helpers';
import { activateCallbackTrigger, EMULATOR_OPTIONS, SEEDED_KEYS, statusRequests } from '../callback-trigger/support';
import { useEmulator, useFakeWaitClock } from '../node/support';
import { fuzzParameters, fuzzTimeout } from './runs';

const RUNS = 30;
const STEPS = ['file_uploaded', 'processing_started', 'fraud_detection'] as const;
const emulator = useEmulator(EMULATOR_OPTIONS);
// The wait clock stands still: what the trigger remembers for a short while holds for the whole case.
useFakeWaitClock();

interface Upload {
	uploadId: string;
	/** processed file ids (the API's) */
	processed: string[];
	/** failed files */
	failed: number;
	/** the API shows it finished */
	finished: boolean;
	/** in the trigger's workspace */
	ours: boolean;
	/** the step names the API lists for it */
	steps: string[];
}

const uploads: Upload[] = [];

beforeAll(async () => {
	const record = async (uploadId: string, key: string = SEEDED_KEYS.readWrite, ours = true) => {
		const status = (await call(emulator, 'GET', `/uploads/${uploadId}`, { key })).body as { files: IDataObject[]; statuses: IDataObject[] };
		const files = status.files.flatMap((file) => (Array.isArray(file.files) ? (file.files as IDataObject[]) : [file]));
		const membersFailed = status.files.filter((file) => !Array.isArray(file.files) ? false : (file.files as IDataObject[]).length === 0 || (file.files as IDataObject[]).some((f) => f.status === 'failed'));
		const failedSingles = files.filter((file) => file.status === 'failed').length;
		uploads.push({
			uploadId,
			processed: files.filter((file) => file.status === 'processed').map((file) => String(file.fileId)),
			failed: Math.max(failedSingles, membersFailed.length),
			finished: true,
			ours,
			steps: status.statuses.map((step) => String(step.step)),
		});
	};
	await record((await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText())).uploadId);
	await record((await uploadFile(emulator, RECEIPT_FILE_NAME, receiptText())).uploadId);
	await record((await uploadFile(emulator, 'empty.txt', emptyFile())).uploadId);
	const zip = await buildZip([
		{ name: INVOICE_FILE_NAME, data: `${invoiceText()}Note: zipped\n` },
		{ name: RECEIPT_FILE_NAME, data: `${receiptText()}Note: zipped\n` },
		{ name: 'empty.txt', data: emptyFile() },
	]);
	await record((await uploadFile(emulator, 'batch.zip', zip, { fileType: 'application/zip' })).uploadId);
	await record((await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText(), { key: SEEDED_KEYS.workspaceB })).uploadId, SEEDED_KEYS.workspaceB, false);
	const inFlight = await call(emulator, 'POST', '/files/upload', { body: { fileName: INVOICE_FILE_NAME, fileType: 'text/plain' } });
	uploads.push({ uploadId: inFlight.body.uploadId as string, processed: [], failed: 0, finished: false, ours: true, steps: [] });
	expect(uploads.filter((upload) => upload.ours && upload.finished).map((upload) => [upload.processed.length, upload.failed])).toEqual([
		[1, 0],
		[1, 0],
		[0, 1],
		[2, 1],
	]);
});

type Target = { kind: 'upload'; index: number } | { kind: 'random' } | { kind: 'malformed'; body: unknown };

interface Delivery {
	target: Target;
	status: string | undefined;
	step: string | undefined;
	fileIds: unknown;
}

const target: fc.Arbitrary<Target> = fc.oneof(
	{ weight: 6, arbitrary: fc.nat({ max: 5 }).map((index): Target => ({ kind: 'upload', index })) },
	{ weight: 1, arbitrary: fc.constant<Target>({ kind: 'random' }) },
	{
		weight: 1,
		arbitrary: fc
			.constantFrom<unknown>([], 'text', 7, null, {}, { uploadId: '../files' }, { uploadId: 'UPLOAD' }, { uploadId: ['a'] }, { fileIds: 'x' })
			.map((body): Target => ({ kind: 'malformed', body })),
	},
);

const delivery: fc.Arbitrary<Delivery> = fc.record({
	target,
	status: fc.constantFrom('completed', 'failed', 'waiting', 'WAITING', 'processing', undefined),
	step: fc.constantFrom<string | undefined>(...STEPS, 'processing_finished', 'invented_step', 'bad step!', undefined),
	fileIds: fc.constantFrom<unknown>(undefined, 'a,b', [randomUUID()], 12, { $gt: '' }),
});

const scenario = fc.record({
	events: fc.subarray(['fileProcessed', 'processingFailed', 'processingStep'], { minLength: 1 }),
	batches: fc.array(fc.array(delivery, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
});

function bodyOf(item: Delivery): unknown {
	if (item.target.kind === 'malformed') return item.target.body;
	const uploadId = item.target.kind === 'random' ? randomUUID() : uploads[item.target.index].uploadId;
	return { uploadId, status: item.status, step: item.step, fileIds: item.fileIds, timestamp: new Date().toISOString() };
}

let run = 0;

describe('the Callback Trigger over generated deliveries (property)', () => {
	it(
		'answers every call, emits each processed (failed, step) once, asks the API once per new key',
		async () => {
			await fc.assert(
				fc.asyncProperty(scenario, async ({ events, batches }) => {
					run += 1;
					const trigger = await activateCallbackTrigger(emulator, { events }, { nodeId: `property-${run}` });
					emulator.requests.length = 0;
					const asked = new Set(events);
					/** Keys emitted (or handled) so far. */
					const expectedKeys = new Set<string>();
					/** Uploads of ours whose check emitted nothing in an earlier batch: the trigger answers them from memory (the wait clock stands still). */
					const fruitless = new Set<string>();
					/** Uploads the API does not know for the key, asked for once (remembered as 404). */
					const unknownAsked = new Set<string>();
					let minRequests = 0;
					let maxRequests = 0;
					try {
						for (const batch of batches) {
							const bodies = batch.map(bodyOf);
							const calls = await Promise.all(batch.map(async (item, index) => ({ item, body: bodies[index], answer: await trigger.post(bodies[index]) })));
							const classified = calls.map(({ item, body, answer }) => {
								const isStep = typeof item.status === 'string' && item.status.toLowerCase() === 'waiting';
								const wanted =
									item.target.kind !== 'malformed' &&
									(isStep ? asked.has('processingStep') && item.step !== undefined && /^[a-z_]+$/.test(item.step) : asked.has('fileProcessed') || asked.has('processingFailed'));
								const uploadId = body !== null && typeof body === 'object' ? String((body as IDataObject).uploadId) : '';
								const upload = item.target.kind === 'upload' ? uploads[item.target.index] : undefined;
								const confirmable = upload?.ours === true && (isStep ? upload.steps.includes(item.step as string) : upload.finished);
								const key = isStep ? `s:${uploadId}:${String(item.step)}` : `u:${uploadId}`;
								return { item, answer, isStep, wanted, uploadId, upload, confirmable, key };
							});
							// Uploads of ours with a call in this batch whose check emits nothing (still processing, a step not listed).
							const fruitlessNow = new Set(classified.filter((entry) => entry.wanted && entry.upload?.ours && !entry.confirmable).map((entry) => entry.uploadId));
							const keysOf = (uploadId: string) => new Set(classified.filter((entry) => entry.wanted && entry.uploadId === uploadId).map((entry) => entry.key)).size;
							for (const { item, answer, isStep, wanted, uploadId, upload, confirmable, key } of classified) {
								expect(answer.hung).toBe(false);
								expect(answer.thrown).toBeUndefined();
								expect([200, 400, 404, 503]).toContain(answer.status);
								const outcome = (answer.body as IDataObject).outcome;
								if (item.target.kind === 'malformed') {
									expect(answer.status).toBe(400);
								} else if (!wanted) {
									expect(answer.status).toBe(200);
								} else if (!upload?.ours) {
									expect(answer.status).toBe(404);
								} else if (fruitless.has(uploadId)) {
									// Remembered: a handled key is a duplicate, anything else 503 without a request.
									expect(answer.status).toBe(expectedKeys.has(key) ? 200 : 503);
								} else if (confirmable) {
									if (answer.status === 200) {
										expect(['emitted', 'duplicate', 'ignored']).toContain(outcome);
										expectedKeys.add(key);
									} else {
										// Raced a concurrent call about the same upload whose check emitted nothing.
										expect(answer.status).toBe(503);
										expect(fruitlessNow.has(uploadId)).toBe(true);
									}
								} else {
									expect(answer.status).toBe(isStep && answer.status === 200 ? 200 : 503);
									if (answer.status === 200) expect(outcome).toBe('ignored');
								}
							}
							// Every confirmable call about an upload nobody made fruitless is emitted (or was before).
							for (const entry of classified) {
								if (entry.wanted && entry.confirmable && !fruitless.has(entry.uploadId) && !fruitlessNow.has(entry.uploadId)) expect(expectedKeys.has(entry.key)).toBe(true);
							}
							// Requests: at least one per upload newly checked in vain, at most one per distinct key of it in this batch.
							for (const uploadId of fruitlessNow) {
								if (fruitless.has(uploadId)) continue;
								minRequests += 1;
								maxRequests += keysOf(uploadId);
							}
							for (const entry of classified) {
								if (!entry.wanted || entry.upload?.ours || unknownAsked.has(entry.uploadId)) continue;
								minRequests += 1;
								maxRequests += keysOf(entry.uploadId);
								unknownAsked.add(entry.uploadId);
							}
							for (const uploadId of fruitlessNow) fruitless.add(uploadId);
						}
						const items = trigger.items().map((item) => item.json);
						const expected = [...expectedKeys].flatMap((key) => {
							const upload = uploads.find((candidate) => key.includes(candidate.uploadId)) as Upload;
							if (key.startsWith('s:')) return [`step:${key.slice(2)}`];
							return [
								...(asked.has('fileProcessed') ? upload.processed.map((id) => `processed:${id}`) : []),
								...(asked.has('processingFailed') ? Array.from({ length: upload.failed }, (_, index) => `failed:${upload.uploadId}:${index}`) : []),
							];
						});
						const failedSeen = new Map<string, number>();
						const got = items.map((json) => {
							if (json.step !== undefined && json.status === 'waiting') return `step:${String(json.uploadId)}:${String(json.step)}`;
							if (json.status === 'processed') return `processed:${String(json.fileId)}`;
							const owner = String(json.zipUploadId ?? json.uploadId);
							const index = failedSeen.get(owner) ?? 0;
							failedSeen.set(owner, index + 1);
							return `failed:${owner}:${index}`;
						});
						expect(got.sort()).toEqual(expected.sort());
						const requests = statusRequests(emulator).length;
						expect(requests).toBeGreaterThanOrEqual(expectedKeys.size + minRequests);
						expect(requests).toBeLessThanOrEqual(expectedKeys.size + maxRequests);
					} finally {
						await trigger.close();
					}
				}),
				fuzzParameters(RUNS, 0.01),
			);
		},
		fuzzTimeout(RUNS, 3_000, 0.01),
	);
});
