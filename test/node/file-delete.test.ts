import { randomUUID } from 'node:crypto';

import { runFileOperation, seedFile, seedManyFiles, waitUntil } from './file-operations-support';
import { SEEDED_KEYS, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

function workspaceFileIds(): Set<string> {
	return new Set([...emulator.state.files.values()].map((file) => file.fileId));
}

function deleteRequests() {
	return requestsTo(emulator, 'api', 'DELETE', /\/files$/);
}

describe('File > Delete', () => {
	it('deletes 150 files in two batches of at most 100, each with its own Idempotency-Key', async () => {
		const files = await seedManyFiles(emulator, 150, 'bulk');
		const ids = files.map((file) => file.fileId);

		const { items, error } = await runFileOperation(emulator, 'delete', { fileIds: ids.join(',') });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(150);
		expect(items.map((item) => item.json)).toEqual(ids.map((fileId) => ({ fileId, deleted: true })));
		for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });

		const requests = deleteRequests();
		expect(requests).toHaveLength(2);
		const keys = requests.map((entry) => entry.headers['idempotency-key']);
		expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(new Set(keys).size).toBe(2);
		// 100 ids then 50 ids: the second body is about half the first.
		expect(requests[0].bodyBytes).toBeGreaterThan(1.9 * requests[1].bodyBytes);
		const remaining = workspaceFileIds();
		for (const fileId of ids) expect(remaining.has(fileId)).toBe(false);
	});

	it('reports a file that could not be deleted on its own item, beside the deleted ones', async () => {
		const [first, second] = await Promise.all([seedFile(emulator), seedFile(emulator)]);
		const unknown = randomUUID();

		const { items, error } = await runFileOperation(emulator, 'delete', {
			fileIds: `${first.fileId}\n${unknown} ${second.fileId}`,
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ fileId: first.fileId, deleted: true },
			{ fileId: unknown, deleted: false, error: `File ${unknown} was not found.`, errorCode: 'NOT_FOUND' },
			{ fileId: second.fileId, deleted: true },
		]);
		expect(deleteRequests()).toHaveLength(1);
	});

	it("with the specification's answer (errors for the failed ids only), every other id of the batch is reported deleted", async () => {
		emulator.setDeleteAnswer('spec');
		try {
			const files = await seedManyFiles(emulator, 4, 'partial');
			const ids = files.map((file) => file.fileId);
			emulator.protectFiles([ids[1]], 'Permission denied for this file.');

			const { items, error } = await runFileOperation(emulator, 'delete', { fileIds: ids.join(',') });

			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual([
				{ fileId: ids[0], deleted: true },
				{ fileId: ids[1], deleted: false, error: 'Permission denied for this file.', errorCode: 'FORBIDDEN' },
				{ fileId: ids[2], deleted: true },
				{ fileId: ids[3], deleted: true },
			]);
			// The outcomes are true: the emulator holds exactly the protected file.
			const remaining = workspaceFileIds();
			expect(ids.filter((id) => remaining.has(id))).toEqual([ids[1]]);
		} finally {
			emulator.setDeleteAnswer('detailed');
			emulator.state.protectedFiles.clear();
		}
	});

	it("with the specification's answer and nothing failed ({ success: true }), all are deleted", async () => {
		emulator.setDeleteAnswer('spec');
		try {
			const files = await seedManyFiles(emulator, 2, 'whole');

			const { items } = await runFileOperation(emulator, 'delete', { fileIds: files.map((file) => file.fileId) });

			expect(items.map((item) => item.json.deleted)).toEqual([true, true]);
		} finally {
			emulator.setDeleteAnswer('detailed');
		}
	});

	it('takes the IDs from an expression that returns an array, and drops repeated IDs', async () => {
		const file = await seedFile(emulator);

		const { items, error } = await runFileOperation(
			emulator,
			'delete',
			{ fileIds: '={{ $json.ids }}' },
			{ inputItems: [{ json: { ids: [file.fileId, file.fileId] } }] },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([{ fileId: file.fileId, deleted: true }]);
		expect(workspaceFileIds().has(file.fileId)).toBe(false);
	});

	it('checks every ID before sending anything', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;

		const { items, error } = await runFileOperation(emulator, 'delete', {
			fileIds: `${file.fileId}, 12345`,
		});

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'Invalid File IDs (entry 2) in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, got "12345"',
		);
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
		expect(workspaceFileIds().has(file.fileId)).toBe(true);
	});

	it('refuses an empty list', async () => {
		const { error } = await runFileOperation(emulator, 'delete', { fileIds: ' , ' });
		expect(error?.message).toContain('Invalid File IDs in item 0: expected at least one file UUID');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it('repeats a batch that met a 503 with the same Idempotency-Key, deleting once', async () => {
		const file = await seedFile(emulator);
		emulator.faults.failNext({ method: 'DELETE', path: '/files', status: 503 });

		const { items, error } = await runFileOperation(emulator, 'delete', { fileIds: file.fileId });

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([{ fileId: file.fileId, deleted: true }]);
		const requests = deleteRequests();
		expect(requests.map((entry) => entry.status)).toEqual([503, 200]);
		expect(requests[0].headers['idempotency-key']).toBe(requests[1].headers['idempotency-key']);
	});

	it('once a batch has deleted files, a later failed batch is reported on its files', async () => {
		const files = await seedManyFiles(emulator, 130, 'partial');
		const ids = files.map((file) => file.fileId);
		emulator.requests.length = 0;
		// Hold the first batch at the emulator; once it has arrived, the next DELETE (the second
		// batch) is set to be refused.
		emulator.faults.delayNext({ method: 'DELETE', path: '/files', delayMs: 400 });
		const run = runFileOperation(emulator, 'delete', { fileIds: ids.join(' ') });
		await waitUntil(() => emulator.faults.pending().delay.length === 0);
		emulator.faults.failNext({ method: 'DELETE', path: '/files', status: 422, detail: 'fileIds was rejected' });
		const { items, error } = await run;

		expect(error).toBeUndefined();
		expect(items).toHaveLength(130);
		expect(items.slice(0, 100).every((item) => item.json.deleted === true)).toBe(true);
		for (const item of items.slice(100)) {
			expect(item.json.deleted).toBe(false);
			expect(String(item.json.error)).toContain('fileIds was rejected');
		}
		const remaining = workspaceFileIds();
		expect(ids.slice(100).every((fileId) => remaining.has(fileId))).toBe(true);
	});

	it('fails the item when nothing could be deleted (read-only key), or reports it with Continue On Fail', async () => {
		const file = await seedFile(emulator);

		const failed = await runFileOperation(
			emulator,
			'delete',
			{ fileIds: file.fileId },
			{ apiKey: SEEDED_KEYS.readOnly },
		);
		expect(failed.error?.message).toContain('HTTP 403');
		expect(failed.error?.message).toContain('read-only');

		const continued = await runFileOperation(
			emulator,
			'delete',
			{ fileIds: '={{ $json.id }}' },
			{
				apiKey: SEEDED_KEYS.readOnly,
				continueOnFail: true,
				inputItems: [{ json: { id: file.fileId } }, { json: { id: 'bad' } }],
			},
		);
		expect(continued.error).toBeUndefined();
		expect(continued.items).toHaveLength(2);
		expect(continued.items[0].pairedItem).toEqual({ item: 0 });
		expect(String(continued.items[0].json.error)).toContain('HTTP 403');
		expect(continued.items[1].pairedItem).toEqual({ item: 1 });
		expect(String(continued.items[1].json.error)).toContain('Invalid File IDs (entry 1) in item 1');
		expect(workspaceFileIds().has(file.fileId)).toBe(true);
	});
});

describe('File > Delete refuses File IDs that are not text before any request', () => {
	const FILE_ID = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';

	it('an object where the IDs were expected', async () => {
		const { error } = await runFileOperation(emulator, 'delete', { fileIds: `={{ { fileId: "${FILE_ID}" } }}` });

		expect(error?.message).toBe(
			`Invalid File IDs in item 0: expected IDs (a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23) separated by commas, spaces or new lines, or an array of IDs, not an object, got "{"fileId":"${FILE_ID}"}"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});

	it('an array of whole file records, naming the entry', async () => {
		const { error } = await runFileOperation(emulator, 'delete', { fileIds: `={{ ["${FILE_ID}", { fileId: "${FILE_ID}" }] }}` });

		expect(error?.message).toBe(
			`Invalid File IDs (entry 2) in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, not an object, got "{"fileId":"${FILE_ID}"}"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});
});
