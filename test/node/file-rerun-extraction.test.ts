import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { call } from '../emulator/test-helpers';
import { INVOICE_EXPECTED } from '../../dev/documents';
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

describe('File > Rerun Extraction refuses bad options before any request', () => {
	const UUID = 'a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';

	it.each<[string, IDataObject, string]>([
		[
			'Fields to Rerun from an expression giving an object',
			{ options: { fields: '={{ { title: "Total" } }}' } },
			'Invalid Fields to Rerun in item 0: expected field titles separated by commas or new lines, or an array of titles, not an object, got "{"title":"Total"}"',
		],
		['a Notification Reference Type "USER"', { options: { referenceEntityName: 'USER' } }, 'Invalid Notification Reference Type in item 0: expected one of FILE, SCHEMA, got "USER"'],
		['a Notification Reference Action "PURGE"', { options: { referenceEntityAction: 'PURGE' } }, 'Invalid Notification Reference Action in item 0: expected one of CREATE, DELETE, UPDATE, got "PURGE"'],
		['a Notification Reference ID that is no file ID', { options: { referenceEntityId: 'not-an-id' } }, `Invalid Notification Reference ID in item 0: expected ${UUID}, got "not-an-id"`],
		[
			'a file ID as the Notification Reference ID of a SCHEMA',
			{ options: { referenceEntityName: 'SCHEMA', referenceEntityId: '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23' } },
			'Invalid Notification Reference ID in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23"',
		],
		['Run in Background "no"', { backgroundRerun: '={{ "no" }}' }, 'Invalid Run in Background in item 0: expected true or false, got "no"'],
	])('%s', async (_case, parameters, message) => {
		const { error } = await runFileOperation(emulator, 'rerunExtraction', { fileId: byId(file.fileId), ...parameters });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
