/**
 * The multipart part plan, property-based, through the n8n engine against the emulator: File >
 * Upload (multipart always, Part Size 5 MB, one part at a time) of a small file, the emulator's
 * initiation answer replaced by a generated plan (every part URL the real one). A refused plan
 * sends no byte and completes nothing; an accepted one sends exactly the planned parts, in
 * order, that together are the file. Fewer runs than in process: each is a workflow.
 */
import { randomBytes } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { JsonText } from '../../dev/emulator';
import { createBinaryItem, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, useEmulator } from '../node/support';
import { planCase } from './part-plan-arbitraries';
import { fuzzParameters, fuzzTimeout } from './runs';

const RUNS = 40;

/**
 * The plan as the service's JSON would carry it: an infinite number as 1e400 (what JSON.parse
 * reads as Infinity), where JSON.stringify would write null and turn a broken plan into one
 * without that field (npm run fuzz, seed 7: endByte Infinity arrived as null and the plan went through).
 */
function jsonWithInfinities(value: unknown): string {
	const marked = JSON.stringify(value, (_key, entry: unknown) => (entry === Infinity ? '@@infinity@@' : entry === -Infinity ? '@@-infinity@@' : entry));
	return marked.replace(/"@@(-?)infinity@@"/g, '$11e400');
}

const MIB = 1024 * 1024;
const emulator = useEmulator();

describe('File > Upload in parts with generated part plans, through the engine (property)', () => {
	it(
		'a refused plan sends nothing; an accepted plan sends exactly its parts, which are the file',
		async () => {
			await fc.assert(
				fc.asyncProperty(planCase(fc.integer({ min: 1, max: 64 * 1024 }), 8, 'https://replaced.invalid/part'), async (plan) => {
					emulator.requests.length = 0;
					const expectedSizes = plan.verdict === 'valid' ? plan.ranges.map((range) => range.size) : undefined;
					emulator.faults.editAnswerNext({
						method: 'POST',
						path: '/files/upload/multipart',
						edit: (body) => {
							const real = body as IDataObject;
							const url = String((real.presignedUrls as IDataObject[])[0].presignedUrl);
							// The generated plan, every URL the emulator's own (a plan's URLs are the service's).
							const text = jsonWithInfinities({ ...plan.answer, id: real.id, key: real.key, uploadId: real.uploadId });
							return new JsonText(text.replace(/https:\/\/replaced\.invalid\/part\?partNumber=\d+/g, url));
						},
					});
					const input = await createBinaryItem({ buffer: randomBytes(plan.fileSize), fileName: 'plan.bin', mimeType: 'application/octet-stream' });

					const { error } = await runNode({
						type: 'documentExtraction',
						parameters: { resource: 'file', operation: 'upload', waitForCompletion: false, options: { multipart: 'always', partSize: 5, partConcurrency: 1 } },
						credentials: credentialsFor(emulator),
						inputItems: [input],
					});

					const puts = requestsTo(emulator, 'storage', 'PUT');
					if (error?.message.includes('unexpected part plan')) {
						expect(plan.verdict).not.toBe('valid');
						expect(puts).toHaveLength(0);
						expect(requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/)).toHaveLength(0);
						return;
					}
					expect(plan.verdict).not.toBe('broken');
					const sizes = puts.map((put) => put.bodyBytes);
					expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(plan.fileSize);
					expect(sizes.every((size) => size >= 1 && size <= 5 * MIB)).toBe(true);
					if (expectedSizes) expect(sizes).toEqual(expectedSizes);
				}),
				fuzzParameters(RUNS, 0.02),
			);
		},
		fuzzTimeout(RUNS, 400, 0.02),
	);
});
