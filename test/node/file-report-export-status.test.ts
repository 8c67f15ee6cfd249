import { randomUUID } from 'node:crypto';

import { call } from '../emulator/test-helpers';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { requestsTo, useEmulator } from './support';

const emulator = useEmulator();
let file: SeededFile;

beforeAll(async () => {
	file = await seedFile(emulator);
});

async function listedExportInfo(fileId: string) {
	const reply = await call(emulator, 'GET', '/files', { query: { fileIds: fileId } });
	const [record] = reply.body.files;
	return {
		integrationExportStatus: record.integrationExportStatus,
		integrationExportMessages: record.integrationExportMessages,
	};
}

describe('File > Report Export Status', () => {
	it('reports a status with messages (one per line) and outputs the stored export info', async () => {
		const { items, error } = await runFileOperation(emulator, 'reportExportStatus', {
			fileId: byId(file.fileId),
			status: 'completed',
			options: { messages: 'Booked as 2024-118, ledger 4000\n\nPaid on arrival' },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			fileId: file.fileId,
			integrationExportStatus: 'completed',
			integrationExportMessages: ['Booked as 2024-118, ledger 4000', 'Paid on arrival'],
			integrationExportUpdatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
		});
		expect(await listedExportInfo(file.fileId)).toEqual({
			integrationExportStatus: 'completed',
			integrationExportMessages: ['Booked as 2024-118, ledger 4000', 'Paid on arrival'],
		});
		const [patch] = requestsTo(emulator, 'api', 'PATCH');
		expect(patch.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('clears the status with Empty, messages from an expression array', async () => {
		const { items, error } = await runFileOperation(
			emulator,
			'reportExportStatus',
			{ fileId: byId(file.fileId), status: 'empty', options: { messages: '={{ $json.notes }}' } },
			{ inputItems: [{ json: { notes: ['reset by workflow'] } }] },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ integrationExportStatus: 'empty', integrationExportMessages: ['reset by workflow'] });
	});

	it('refuses a status the API does not know before sending anything', async () => {
		const { error } = await runFileOperation(emulator, 'reportExportStatus', {
			fileId: byId(file.fileId),
			status: '={{ "done" }}',
		});
		expect(error?.message).toBe('Invalid Status in item 0: expected one of completed, empty, error, exporting, got "done"');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it('with Continue On Fail, outputs the 404 of a missing file on its item and reports the others', async () => {
		const missing = randomUUID();
		const { items, error } = await runFileOperation(
			emulator,
			'reportExportStatus',
			{ fileId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, status: 'error' },
			{ continueOnFail: true, inputItems: [{ json: { id: file.fileId } }, { json: { id: missing } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({ json: { fileId: file.fileId, integrationExportStatus: 'error' }, pairedItem: { item: 0 } });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(String(items[1].json.error)).toContain('HTTP 404');
		expect(String(items[1].json.error)).toContain(missing);
	});
});

describe('File > Report Export Status refuses Messages that are not text before any request', () => {
	it('an object where the messages were expected', async () => {
		const { error } = await runFileOperation(emulator, 'reportExportStatus', {
			fileId: byId(file.fileId),
			status: 'completed',
			options: { messages: '={{ { text: "booked" } }}' },
		});

		expect(error?.message).toBe(
			'Invalid Messages in item 0: expected messages, one per line, or an array of texts, not an object, got "{"text":"booked"}"',
		);
		expect(emulator.requests).toHaveLength(0);
	});

	it('an array holding an object, naming the entry', async () => {
		const { error } = await runFileOperation(emulator, 'reportExportStatus', {
			fileId: byId(file.fileId),
			status: 'completed',
			options: { messages: '={{ ["booked", { text: "twice" }] }}' },
		});

		expect(error?.message).toBe('Invalid Messages (entry 2) in item 0: expected text, not an object, got "{"text":"twice"}"');
		expect(emulator.requests).toHaveLength(0);
	});
});
