/**
 * An answer of an unexpected shape is shown in its error in bounded work, whatever its depth:
 * the preview is written without recursion and cut at TEXT_LIMITS.unexpectedAnswerChars, and a
 * secret that starts inside the part shown is redacted whole (issue 34: a value nested tens of
 * thousands deep made building the error itself throw RangeError).
 */
import { JsonText, SEED_IDS } from '../../dev/emulator';
import { TEXT_LIMITS } from '../../nodes/shared/limits';
import { jsonText } from '../../nodes/shared/text';
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** `{"deep":[[[…"bottom"…]]]}`, `depth` arrays deep: JSON.parse reads it, JSON.stringify of the parsed value throws. */
function deepAnswer(depth: number): string {
	return `{"deep":${'['.repeat(depth)}"bottom"${']'.repeat(depth)}}`;
}

describe('An answer of an unexpected shape, at any depth', () => {
	it('Workflow > Get answered without "workflow" but with a value 50,000 arrays deep: the item fails naming the shape, with a short preview', async () => {
		emulator.faults.editAnswerNext({ method: 'GET', path: `/workflows/${SEED_IDS.workflowA}`, edit: () => new JsonText(deepAnswer(50_000)) });

		const { error } = await runOperation(emulator, 'workflow', 'get', { workflowId: byId(SEED_IDS.workflowA) });

		expect(error?.message).toBe('The API answered the workflow request in an unexpected shape');
		// The router adds the item's index after the preview.
		const preview = String(error?.description ?? '').split('\nItem index')[0];
		expect(preview.startsWith('{"deep":[[[')).toBe(true);
		expect(preview.length).toBe(TEXT_LIMITS.unexpectedAnswerChars);
	});

	it('jsonText writes what JSON.stringify writes, and stops at its limit in work bounded by it', () => {
		const value = { a: [1, 'two', null, true, { b: 'x"y' }], c: { d: [] }, e: undefined };
		expect(jsonText(value)).toBe(JSON.stringify(value));
		expect(jsonText('x'.repeat(10_000_000), 20)).toBe(`"${'x'.repeat(19)}…`);
		const deep = JSON.parse(deepAnswer(200_000)) as unknown;
		expect(() => JSON.stringify(deep)).toThrow(RangeError);
		expect(jsonText(deep, 30)).toBe(`{"deep":${'['.repeat(22)}…`);
	});
});
