import { randomUUID } from 'node:crypto';

import { call } from '../emulator/test-helpers';
import { INVOICE_EXPECTED } from '../fixtures/documents';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { requestsTo, useEmulator } from './support';

const emulator = useEmulator();
let file: SeededFile;

beforeEach(async () => {
	file = await seedFile(emulator);
	// Values changed by hand, so a rerun has something to restore.
	const patch = await call(emulator, 'PATCH', `/files/${file.fileId}/values`, {
		body: { fields: [{ title: 'Total Amount', value: 1 }, { title: 'Tax', value: 2 }] },
	});
	expect(patch.status).toBe(200);
	emulator.requests.length = 0;
});

async function storedValue(title: string): Promise<unknown> {
	const reply = await call(emulator, 'GET', `/files/${file.fileId}/values`);
	return (reply.body.values.formValues[0].fields as Array<{ title: string; value: unknown }>).find(
		(field) => field.title === title,
	)?.value;
}

describe('File > Rerun Extraction', () => {
	it('reruns only the named fields (names become /name pointers) and waits for the rerun', async () => {
		const { items, error } = await runFileOperation(emulator, 'rerunExtraction', {
			fileId: byId(file.fileId),
			options: { fields: 'Total Amount' },
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: { fileId: file.fileId, success: true, backgroundRerun: false, paths: ['/Total Amount'] },
				pairedItem: { item: 0 },
			},
		]);
		expect(await storedValue('Total Amount')).toBe(INVOICE_EXPECTED['Total Amount']);
		expect(await storedValue('Tax')).toBe(2);
		const [rerun] = requestsTo(emulator, 'api', 'PATCH', /\/files\/schema\/rerun$/);
		expect(rerun.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('runs in the background, reruns every field, and sends the completion notification asked for', async () => {
		const callbacksBefore = emulator.state.callbacks.length;
		const { items, error } = await runFileOperation(emulator, 'rerunExtraction', {
			fileId: byId(file.fileId),
			backgroundRerun: true,
			options: {
				shouldSendOnCompletion: true,
				referenceEntityName: 'SCHEMA',
				referenceEntityAction: 'CREATE',
				referenceEntityId: file.schemaId,
			},
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ fileId: file.fileId, success: true, backgroundRerun: true });
		await emulator.idle();
		expect(await storedValue('Total Amount')).toBe(INVOICE_EXPECTED['Total Amount']);
		expect(await storedValue('Tax')).toBe(INVOICE_EXPECTED.Tax);
		const notification = emulator.state.callbacks.slice(callbacksBefore).at(-1);
		expect(notification?.payload).toMatchObject({
			step: 'rerun_finished',
			fileIds: file.fileId,
			referenceEntityName: 'SCHEMA',
			referenceEntityAction: 'CREATE',
			referenceEntityId: file.schemaId,
		});
	});

	it('escapes a title that holds a slash, and shows the API 422 for a field the schema lacks', async () => {
		const { error } = await runFileOperation(emulator, 'rerunExtraction', {
			fileId: byId(file.fileId),
			options: { fields: 'Total Amount, Price/Unit' },
		});
		expect(error?.message).toContain('HTTP 422');
		expect(error?.message).toContain('the schema has no field titled "Price/Unit"');
		expect(error?.message).toContain('/rerunOptions/paths/1');
	});

	it('fails with the 404 of a missing file; an ID that is not a UUID is refused before any request', async () => {
		const missing = await runFileOperation(emulator, 'rerunExtraction', { fileId: byId(randomUUID()) });
		expect(missing.error?.message).toContain('HTTP 404');

		emulator.requests.length = 0;
		const malformed = await runFileOperation(emulator, 'rerunExtraction', { fileId: byId('={{ 42 }}') });
		expect(malformed.error?.message).toContain('Invalid File in item 0: expected a UUID');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});
});
