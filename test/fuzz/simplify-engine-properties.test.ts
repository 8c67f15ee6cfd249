/**
 * Simplify, property-based, through the n8n engine against the emulator: File > Get Values with
 * Simplify on, the emulator's answer holding a generated form record (at most 1,500 levels deep:
 * the emulator writes its answers with JSON.stringify). The item n8n outputs keeps the invariants
 * of simplify-invariants.ts, the run never fails. Fewer runs than in process: each is a workflow.
 */
import fc from 'fast-check';

import type { SeededFile } from '../node/file-operations-support';
import { byId, seedFile } from '../node/file-operations-support';
import { runOperation } from '../node/run-operation';
import { useEmulator } from '../node/support';
import { fuzzParameters, fuzzTimeout } from './runs';
import { formRecord } from './simplify-arbitraries';
import { checkSimplified, numberTags } from './simplify-invariants';

const RUNS = 60;
const emulator = useEmulator();
let file: SeededFile;

beforeAll(async () => {
	file = await seedFile(emulator);
});

describe('File > Get Values with Simplify on generated answers, through the engine (property)', () => {
	it(
		'the run succeeds with one item per form, and each item keeps the invariants',
		async () => {
			await fc.assert(
				fc.asyncProperty(formRecord(1_500), async (generated) => {
					const form = JSON.parse(JSON.stringify(numberTags(generated))) as unknown;
					emulator.faults.editAnswerNext({
						method: 'GET',
						path: /\/values$/,
						edit: (body) => {
							const answer = body as { values: { formValues: unknown[] } };
							answer.values.formValues = [form];
							return answer;
						},
					});

					const { items, error } = await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify: true });

					expect(error).toBeUndefined();
					expect(items).toHaveLength(1);
					checkSimplified(form, items[0].json);
				}),
				fuzzParameters(RUNS, 0.01),
			);
		},
		fuzzTimeout(RUNS, 500, 0.01),
	);
});
