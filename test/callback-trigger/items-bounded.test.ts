/**
 * The Callback Trigger builds its items as the polling trigger does (nodes/shared/output/
 * documentItem.ts), so it cannot emit an item that the polling trigger would refuse: a value the
 * service nests deeper than OUTPUT_LIMITS.maxItemDepth is cut and named in triggerNotes (n8n could
 * neither store nor show it: JSON.stringify overflows its stack), and the API key the service
 * echoes never reaches the workflow. Before, it emitted the record as listed: 20,000 levels deep.
 */
import type { IDataObject } from 'n8n-workflow';

import { JsonText } from '../../dev/emulator';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { deepJson, rawValue, rewriteListedFiles } from '../../dev/emulator/hostile-lists';
import { pollTrigger } from '../../dev/harness';
import { OUTPUT_LIMITS } from '../../nodes/shared/limits';
import { TOO_DEEP_MARKER, TRIGGER_NOTES_KEY } from '../../nodes/shared/output/documentItem';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, SEEDED_KEYS, activateCallbackTrigger, callBackTo, callbacksSettled, credentialsFor } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS, 'test');

/** How deep `{ a: { a: … } }` goes under `value`, and what stands at its bottom. */
function chainDepth(value: unknown): { depth: number; bottom: unknown } {
	let depth = 0;
	let at = value;
	while (at !== null && typeof at === 'object') {
		at = (at as IDataObject).a;
		depth += 1;
	}
	return { depth, bottom: at };
}

describe("the Callback Trigger's items are bounded as the polling trigger's", () => {
	it('a processed file whose record nests a value 20,000 deep and echoes the key: emitted once, cut and redacted, the same item the polling trigger emits', async () => {
		const raw = new Map<string, string>();
		const token = rawValue(deepJson(20_000), raw);
		rewriteListedFiles(emulator, (file) => ({ ...file, payload: token, note: `echo ${SEEDED_KEYS.readWrite}` }), raw);
		const trigger = await activateCallbackTrigger(emulator);
		callBackTo(emulator, trigger);
		await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		await callbacksSettled(emulator, trigger);

		expect(trigger.emissions()).toHaveLength(1);
		const [item] = trigger.items();
		expect(item.json).toMatchObject({ fileName: INVOICE_FILE_NAME, status: 'processed', note: 'echo [redacted]' });
		// Top-level field + 100 levels of objects, then the marker (the polling trigger's bound).
		expect(chainDepth(item.json.payload)).toEqual({ depth: OUTPUT_LIMITS.maxItemDepth, bottom: TOO_DEEP_MARKER });
		expect(item.json[TRIGGER_NOTES_KEY]).toEqual([expect.stringContaining('"payload": a value nested more than 100 levels deep')]);
		// n8n can store and show it; the key is nowhere in it.
		expect(JSON.stringify(trigger.emissions())).not.toContain(SEEDED_KEYS.readWrite);

		const polled = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: { event: 'fileProcessed', startFrom: 'date', startDate: '2000-01-01T00:00:00Z' },
			credentials: credentialsFor(emulator),
		});
		expect(polled.items.map((polledItem) => polledItem.json)).toEqual([item.json]);
	});

	it("Processing Step: a step list that nests a value 20,000 deep and echoes the key is cut and redacted, in the step's own key order", async () => {
		const trigger = await activateCallbackTrigger(emulator, { events: ['processingStep'] });
		const { uploadId } = await uploadFile(emulator, INVOICE_FILE_NAME, invoiceText());
		await emulator.idle();
		const marker = '"deep-detail-here"';
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/uploads\//,
			edit: (body) => {
				const status = body as { statuses: IDataObject[] };
				status.statuses[0] = { ...status.statuses[0], detail: 'deep-detail-here', echoed: SEEDED_KEYS.readWrite };
				return new JsonText(JSON.stringify(status).replace(marker, deepJson(20_000)));
			},
		});
		const answer = await trigger.post({ status: 'waiting', step: 'file_uploaded', uploadId });
		expect(answer).toMatchObject({ status: 200, body: { outcome: 'emitted', items: 1 } });

		const [step] = trigger.items();
		expect(Object.keys(step.json).slice(0, 3)).toEqual(['uploadId', 'step', 'status']);
		const [first] = step.json.statuses as IDataObject[];
		expect(first.echoed).toBe('[redacted]');
		// statuses (1) > the step (2) > detail (3) > 98 levels of `a`, then the marker.
		expect(chainDepth(first.detail)).toEqual({ depth: OUTPUT_LIMITS.maxItemDepth - 2, bottom: TOO_DEEP_MARKER });
		expect(step.json[TRIGGER_NOTES_KEY]).toEqual([expect.stringContaining('"statuses": a value nested more than 100 levels deep')]);
		expect(JSON.stringify(trigger.emissions())).not.toContain(SEEDED_KEYS.readWrite);
	});
});
