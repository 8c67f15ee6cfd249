/**
 * The multipart part plan (planParts), property-based, in process: any initiation answer is
 * either accepted and tiles the file exactly (parts 1 to N, whole byte counts, in order, no gap,
 * no overlap, none larger than the Part Size asked, agreeing with every count the answer gives),
 * or refused with the "unexpected part plan" error, never another error. A plan as documented is
 * always accepted, as it was made; one broken by a single hostile change is always refused. The
 * same through the engine and the emulator: part-plan-engine.property.test.ts.
 */
import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PlannedPart } from '../../nodes/DocumentExtraction/actions/file/upload/partPlan';
import { planParts } from '../../nodes/DocumentExtraction/actions/file/upload/partPlan';
import type { PlanCase } from './part-plan-arbitraries';
import { planCase } from './part-plan-arbitraries';
import { checkTiling } from './part-plan-invariants';
import { fuzzParameters } from './runs';

const RUNS = 500;

const node = { id: 'node', name: 'Document Extraction', type: 'n8n-nodes-document-extraction.documentExtraction', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
const context = { getNode: () => node } as unknown as IExecuteFunctions;

/** planParts' verdict on a case: its parts, or its error. */
function judge(plan: PlanCase): { parts?: PlannedPart[]; error?: unknown } {
	try {
		return { parts: planParts(context, plan.answer, plan.fileSize, plan.maxPartBytes, 0) };
	} catch (error) {
		return { error };
	}
}

describe('The multipart part plan on generated answers (property)', () => {
	it('is accepted and tiles the file exactly, or refused as an unexpected part plan; documented plans accepted, broken ones refused', () => {
		fc.assert(
			fc.property(planCase(fc.integer({ min: 1, max: 50_000_000 })), (plan) => {
				const { parts, error } = judge(plan);
				if (error !== undefined) {
					expect(error).toBeInstanceOf(NodeApiError);
					expect((error as Error).message).toMatch(/^The API answered the multipart upload request with an unexpected part plan: .+\. It was refused before any part was sent/);
					expect(plan.verdict).not.toBe('valid');
					return;
				}
				expect(plan.verdict).not.toBe('broken');
				checkTiling(parts as PlannedPart[], plan);
				if (plan.verdict === 'valid') expect((parts as PlannedPart[]).map(({ start, size }) => ({ start, size }))).toEqual(plan.ranges);
			}),
			fuzzParameters(RUNS),
		);
	});

	it('the error shows the answer without its part URLs', () => {
		const answer: IDataObject = { id: 'mpu-1', key: 'k', partSize: 1.5, presignedUrls: [{ partNumber: 1, presignedUrl: 'https://storage.example.com/secret-signature' }] };
		const { error } = judge({ fileSize: 3, maxPartBytes: 3, answer, verdict: 'broken', mutations: [], ranges: [] });
		expect((error as NodeApiError).description).toContain('"partSize":1.5');
		expect((error as NodeApiError).description).toContain('"presignedUrls":"1 parts"');
		expect(JSON.stringify(error)).not.toContain('secret-signature');
	});

	it('an answer with a field nested 100,000 levels deep is still refused with the clear error (its description names the field only)', () => {
		let deep: unknown = 'bottom';
		for (let level = 0; level < 100_000; level++) deep = [deep];
		const answer: IDataObject = { id: 'mpu-1', key: 'k', extra: deep as IDataObject, presignedUrls: [null] };
		const { error } = judge({ fileSize: 3, maxPartBytes: 3, answer, verdict: 'broken', mutations: [], ranges: [] });
		expect((error as Error).message).toMatch(/unexpected part plan: a part is null/);
		expect((error as NodeApiError).description).toContain('"extra":"a list"');
	});
});
