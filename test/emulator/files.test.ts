import { invoiceText } from '../../dev/documents';
import { ManualClock, startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, startReceiver, uploadAndGetFile, type Json } from './test-helpers';

const T0 = Date.UTC(2026, 3, 1, 8);

function fieldValue(reply: Json, title: string): unknown {
	return reply.body.values.formValues[0].fields.find((field: Json) => field.title === title).value;
}

describe('file list', () => {
	let emu: Emulator;
	let clock: ManualClock;
	const files: Json[] = [];
	beforeAll(async () => {
		clock = new ManualClock(T0);
		emu = await startEmulator({ processingDelayMs: 0, clock });
		for (let index = 0; index < 5; index++) {
			files.push(await uploadAndGetFile(emu, `f${index}.txt`, `Invoice Number: L-${index}\n`));
			clock.advance(60_000);
		}
	});
	afterAll(() => emu.close());

	const ids = (reply: Json) => reply.body.files.map((file: Json) => file.fileId);

	test('items carry every documented field plus export info', async () => {
		const reply = await call(emu, 'GET', '/files', { query: { limit: '1' } });
		expect(Object.keys(reply.body.files[0]).sort()).toEqual(
			[
				'fileId', 'fileName', 'fileType', 'fileSize', 'fileStoragePath', 'fileHash', 'uploadId', 'status', 'currency', 'summary',
				'duplicateToFileId', 'referenceId', 'isDuplicate', 'isEmbedded', 'schemaId', 'fileClass', 'fileContactId', 'fileContactName',
				'createdAt', 'updatedAt', 'integrationExportStatus', 'integrationExportMessages', 'integrationExportUpdatedAt',
			].sort(),
		);
	});

	test('default order is createdAt ASC; count is the total; paging with page/limit', async () => {
		const all = await call(emu, 'GET', '/files');
		expect(ids(all)).toEqual(files.map((file) => file.fileId));
		expect(all.body).toMatchObject({ count: 5, currentPage: 1 });
		const page2 = await call(emu, 'GET', '/files', { query: { page: '2', limit: '2' } });
		expect(ids(page2)).toEqual([files[2].fileId, files[3].fileId]);
		expect(page2.body).toMatchObject({ count: 5, currentPage: 2 });
		const beyond = await call(emu, 'GET', '/files', { query: { page: '9', limit: '2' } });
		expect(beyond.body).toMatchObject({ files: [], count: 5, currentPage: 9 });
		const desc = await call(emu, 'GET', '/files', { query: { sortOrder: 'DESC' } });
		expect(ids(desc)).toEqual(files.map((file) => file.fileId).reverse());
	});

	test('fileIds as a comma string or a JSON array', async () => {
		const wanted = [files[1].fileId, files[3].fileId];
		expect(ids(await call(emu, 'GET', '/files', { query: { fileIds: wanted.join(',') } }))).toEqual(wanted);
		expect(ids(await call(emu, 'GET', '/files', { query: { fileIds: JSON.stringify(wanted) } }))).toEqual(wanted);
	});

	test('createdAfter and updatedAfter are on-or-after', async () => {
		const createdAt = files[2].createdAt;
		expect(ids(await call(emu, 'GET', '/files', { query: { createdAfter: createdAt } }))).toEqual(files.slice(2).map((file) => file.fileId));
		const updatedAt = files[3].updatedAt;
		expect(ids(await call(emu, 'GET', '/files', { query: { updatedAfter: updatedAt } }))).toEqual(files.slice(3).map((file) => file.fileId));
	});

	test('sortBy updatedAt follows updates', async () => {
		clock.advance(60_000);
		await call(emu, 'PATCH', `/files/${files[0].fileId}/values`, { body: { fields: [{ title: 'Invoice Number', value: 'L-0b' }] } });
		const reply = await call(emu, 'GET', '/files', { query: { sortBy: 'updatedAt', sortOrder: 'DESC', limit: '1' } });
		expect(ids(reply)).toEqual([files[0].fileId]);
	});

	test('invalid parameters answer 422 naming the parameter', async () => {
		const cases: Array<[Record<string, string>, string]> = [
			[{ fileIds: 'abc' }, 'fileIds'],
			[{ fileIds: `${files[0].fileId}, ${files[1].fileId}` }, 'fileIds'],
			[{ fileIds: '["x"' }, 'fileIds'],
			[{ createdAfter: 'yesterday' }, 'createdAfter'],
			[{ updatedAfter: '2026-13-45' }, 'updatedAfter'],
			[{ page: '0' }, 'page'],
			[{ limit: '101' }, 'limit'],
			[{ sortBy: 'fileName' }, 'sortBy'],
			[{ sortOrder: 'down' }, 'sortOrder'],
			[{ updated_after: '2026-01-01' }, 'updated_after'],
		];
		for (const [query, parameter] of cases) {
			const reply = await call(emu, 'GET', '/files', { query });
			expectProblem(reply, 422, 'VALIDATION_FAILED');
			expect(reply.body.errors[0].parameter).toBe(parameter);
		}
	});
});

describe('delete files', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('deletes an array of ids; the files, values and bytes are gone', async () => {
		const a = await uploadAndGetFile(emu, 'a.txt', 'Invoice Number: D-1\n');
		const b = await uploadAndGetFile(emu, 'b.txt', 'Invoice Number: D-2\n');
		const preview = await call(emu, 'POST', '/files/preview', { body: { s3Path: a.fileStoragePath } });
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: [a.fileId, b.fileId] } });
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({ success: true });
		expect((await call(emu, 'GET', '/files')).body.count).toBe(0);
		expectProblem(await call(emu, 'GET', `/files/${a.fileId}/values`), 404, 'NOT_FOUND');
		expect((await fetch(preview.body.signedUrl)).status).toBe(404);
	});

	test('accepts a comma-separated string and reports per-file failures', async () => {
		const a = await uploadAndGetFile(emu, 'a.txt', 'Invoice Number: D-3\n');
		const missing = '00000000-0000-4000-8000-000000000000';
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: `${a.fileId},${missing}` } });
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ success: false, deletedFileIds: [a.fileId], errors: [{ fileId: missing, code: 'NOT_FOUND', detail: expect.any(String) }] });
	});

	test("another workspace's file counts as not found", async () => {
		const a = await uploadAndGetFile(emu, 'a.txt', 'Invoice Number: D-4\n');
		const reply = await call(emu, 'DELETE', '/files', { key: emu.keys.workspaceB, body: { fileIds: [a.fileId] } });
		expect(reply.body.success).toBe(false);
		expect((await call(emu, 'GET', `/files/${a.fileId}/values`)).status).toBe(200);
	});

	test('missing or empty fileIds: 400; malformed: 422 with pointer; read-only key: 403', async () => {
		expectProblem(await call(emu, 'DELETE', '/files', { body: {} }), 400, 'BAD_REQUEST');
		expectProblem(await call(emu, 'DELETE', '/files', { body: { fileIds: [] } }), 400, 'BAD_REQUEST');
		expectProblem(await call(emu, 'DELETE', '/files', { body: { fileIds: '' } }), 400, 'BAD_REQUEST');
		const malformed = await call(emu, 'DELETE', '/files', { body: { fileIds: ['00000000-0000-4000-8000-000000000000', 'nope'] } });
		expectProblem(malformed, 422, 'VALIDATION_FAILED');
		expect(malformed.body.errors[0].pointer).toBe('/fileIds/1');
		const spaced = await call(emu, 'DELETE', '/files', { body: { fileIds: '00000000-0000-4000-8000-000000000000, 00000000-0000-4000-8000-000000000001' } });
		expect(spaced.body.errors[0].pointer).toBe('/fileIds');
		const wrongType = await call(emu, 'DELETE', '/files', { body: { fileIds: 42 } });
		expectProblem(wrongType, 422, 'VALIDATION_FAILED');
		const readOnly = await call(emu, 'DELETE', '/files', { key: emu.keys.readOnly, body: { fileIds: ['00000000-0000-4000-8000-000000000000'] } });
		expectProblem(readOnly, 403, 'FORBIDDEN');
		expect(readOnly.body.detail).toMatch(/read-only mode/);
	});
});

describe('values, updates, reruns, export status and previews', () => {
	let emu: Emulator;
	let clock: ManualClock;
	beforeAll(async () => {
		clock = new ManualClock(T0);
		emu = await startEmulator({ processingDelayMs: 0, clock });
	});
	afterAll(() => emu.close());

	test('values: paging and table rows cut at 100 unless includeFullTableData=true', async () => {
		const rows = Array.from({ length: 120 }, (_, index) => `Item ${index}, 1, 2.00, 2.00`);
		const text = ['Invoice Number: T-1', '', 'Line Items:', 'Description, Quantity, Unit Price, Amount', ...rows, ''].join('\n');
		const file = await uploadAndGetFile(emu, 'table.txt', text);
		const cut = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect((fieldValue(cut, 'Line Items') as unknown[]).length).toBe(100);
		const full = await call(emu, 'GET', `/files/${file.fileId}/values`, { query: { includeFullTableData: 'true' } });
		expect((fieldValue(full, 'Line Items') as unknown[]).length).toBe(120);
		const page2 = await call(emu, 'GET', `/files/${file.fileId}/values`, { query: { page: '2', limit: '1' } });
		expect(page2.body.values).toEqual({ formValues: [], count: 1, currentPage: 2 });
		const record = full.body.values.formValues[0];
		expect(record).toMatchObject({ fileId: file.fileId, fileName: 'table.txt', fileType: 'text/plain', languageCode: null, originalBlueprintFormValuesId: null, schemaRelationshipId: file.schemaId });
		expect(record.metadata).toEqual({ createdBy: expect.any(String), userId: expect.any(String), organizationId: expect.any(String), workspaceId: expect.any(String) });
		const line = record.fields.find((field: Json) => field.title === 'Line Items');
		expect(line.type).toBe('object');
		expect(line.items.map((item: Json) => item.title)).toEqual(['Description', 'Quantity', 'Unit Price', 'Amount']);
		expectProblem(await call(emu, 'GET', `/files/${file.fileId}/values`, { query: { includeFullTableData: 'yes' } }), 422, 'VALIDATION_FAILED');
	});

	test('PATCH values updates typed values, moves updatedAt and validates titles and types', async () => {
		const file = await uploadAndGetFile(emu, 'inv.txt', invoiceText());
		clock.advance(5_000);
		const reply = await call(emu, 'PATCH', `/files/${file.fileId}/values`, {
			body: { fields: [{ title: 'Total Amount', value: 999.5 }, { title: 'Paid', value: true }, { title: 'Due Date', value: null }, { title: 'Line Items', value: [{ Description: 'X', Quantity: 1, 'Unit Price': 1, Amount: 1 }] }] },
		});
		expect(reply.status).toBe(200);
		expect(reply.body.success).toBe(true);
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect(fieldValue(values, 'Total Amount')).toBe(999.5);
		expect(fieldValue(values, 'Paid')).toBe(true);
		expect(fieldValue(values, 'Due Date')).toBeNull();
		const listed = (await call(emu, 'GET', '/files', { query: { fileIds: file.fileId } })).body.files[0];
		expect(Date.parse(listed.updatedAt)).toBe(T0 + 5_000);

		const bad = await call(emu, 'PATCH', `/files/${file.fileId}/values`, {
			body: { fields: [{ title: 'Total Amount', value: 'lots' }, { title: 'Nope', value: 1 }, { title: 'Invoice Date', value: '15/03/2024' }, { value: 1 }, { title: 'Paid', value: true, extra: 1 }] },
		});
		expectProblem(bad, 422, 'VALIDATION_FAILED');
		expect(bad.body.errors.map((error: Json) => error.pointer)).toEqual(['/fields/0/value', '/fields/1/title', '/fields/2/value', '/fields/3/title', '/fields/4/extra']);
		expect(fieldValue(await call(emu, 'GET', `/files/${file.fileId}/values`), 'Total Amount')).toBe(999.5);
		expectProblem(await call(emu, 'PATCH', `/files/${file.fileId}/values`, { body: {} }), 422, 'VALIDATION_FAILED');
		expectProblem(await call(emu, 'PATCH', '/files/00000000-0000-4000-8000-000000000000/values', { body: { fields: [{ title: 'Paid', value: true }] } }), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'PATCH', `/files/${file.fileId}/values`, { key: emu.keys.readOnly, body: { fields: [{ title: 'Paid', value: true }] } }), 403, 'FORBIDDEN');
	});

	test('rerun re-extracts only the given paths and moves updatedAt', async () => {
		const file = await uploadAndGetFile(emu, 'rerun.txt', invoiceText());
		await call(emu, 'PATCH', `/files/${file.fileId}/values`, { body: { fields: [{ title: 'Total Amount', value: 1 }, { title: 'Tax', value: 2 }] } });
		clock.advance(7_000);
		const reply = await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: file.fileId, backgroundRerun: false, rerunOptions: { paths: ['/Total Amount'] } } });
		expect(reply).toMatchObject({ status: 200, body: { success: true } });
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect(fieldValue(values, 'Total Amount')).toBe(1234.5);
		expect(fieldValue(values, 'Tax')).toBe(2);
		const listed = (await call(emu, 'GET', '/files', { query: { fileIds: file.fileId } })).body.files[0];
		expect(Date.parse(listed.updatedAt)).toBe(clock.now());

		await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: file.fileId, backgroundRerun: false } });
		expect(fieldValue(await call(emu, 'GET', `/files/${file.fileId}/values`), 'Tax')).toBe(84.5);
	});

	test('partialRerun fills only fields changed in the schema since the last fill', async () => {
		const file = await uploadAndGetFile(emu, 'partial.txt', invoiceText());
		await call(emu, 'PATCH', `/files/${file.fileId}/values`, { body: { fields: [{ title: 'Tax', value: 2 }, { title: 'Subtotal', value: 3 }] } });
		clock.advance(1_000);
		await call(emu, 'PATCH', '/schemas', { body: { schemaId: file.schemaId, fields: [{ title: 'Tax', description: 'Tax (changed)' }] } });
		clock.advance(1_000);
		await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: file.fileId, rerunOptions: { partialRerun: true } } });
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect(fieldValue(values, 'Tax')).toBe(84.5);
		expect(fieldValue(values, 'Subtotal')).toBe(3);
	});

	test('background rerun answers at once and notifies on completion when asked', async () => {
		const receiver = await startReceiver();
		try {
			const file = await uploadAndGetFile(emu, 'bg.txt', invoiceText(), { extra: { callbackURL: receiver.url } });
			await receiver.waitFor(4);
			await call(emu, 'PATCH', `/files/${file.fileId}/values`, { body: { fields: [{ title: 'Tax', value: 2 }] } });
			const reply = await call(emu, 'PATCH', '/files/schema/rerun', {
				body: { fileId: file.fileId, backgroundRerun: true, rerunOptions: { notification: { shouldSendOnCompletion: true, referenceEntityName: 'FILE', referenceEntityId: file.fileId, referenceEntityAction: 'UPDATE' } } },
			});
			expect(reply.body).toEqual({ success: true });
			await emu.idle();
			expect(fieldValue(await call(emu, 'GET', `/files/${file.fileId}/values`), 'Tax')).toBe(84.5);
			const received = await receiver.waitFor(5);
			expect(received[4]).toMatchObject({ status: 'completed', step: 'rerun_finished', fileIds: file.fileId, referenceEntityName: 'FILE', referenceEntityId: file.fileId, referenceEntityAction: 'UPDATE' });
		} finally {
			await receiver.close();
		}
	});

	test('rerun validation: fileId, option keys, paths, notification enums; 404 for unknown files', async () => {
		const file = await uploadAndGetFile(emu, 'v.txt', invoiceText());
		const invalidId = await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: 'abc' } });
		expectProblem(invalidId, 422, 'VALIDATION_FAILED');
		expect(invalidId.body.errors[0]).toMatchObject({ pointer: '/fileId', code: 'INVALID_FORMAT' });
		expect(invalidId.body.detail).toMatch(/fileId/);
		const missing = await call(emu, 'PATCH', '/files/schema/rerun', { body: {} });
		expect(missing.body.errors[0]).toMatchObject({ pointer: '/fileId', code: 'REQUIRED' });
		const options = await call(emu, 'PATCH', '/files/schema/rerun', {
			body: { fileId: file.fileId, rerunOptions: { paths: ['Total Amount'], partialRerun: 'yes', notification: { referenceEntityName: 'USER', referenceEntityAction: 'MOVE' }, other: 1 } },
		});
		expect(options.body.errors.map((error: Json) => error.pointer)).toEqual([
			'/rerunOptions/paths/0',
			'/rerunOptions/partialRerun',
			'/rerunOptions/notification/referenceEntityName',
			'/rerunOptions/notification/referenceEntityAction',
			'/rerunOptions/other',
		]);
		const unknownField = await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: file.fileId, rerunOptions: { paths: ['/Nope'] } } });
		expect(unknownField.body.errors[0]).toMatchObject({ pointer: '/rerunOptions/paths/0', code: 'UNKNOWN_FIELD' });
		expectProblem(await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId: '00000000-0000-4000-8000-000000000000' } }), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'PATCH', '/files/schema/rerun', { key: emu.keys.readOnly, body: { fileId: file.fileId } }), 403, 'FORBIDDEN');
	});

	test('export status: every value, stored messages, visible in the list; 404 and 422', async () => {
		const file = await uploadAndGetFile(emu, 'exp.txt', invoiceText());
		for (const status of ['exporting', 'completed', 'error', 'empty']) {
			clock.advance(1_000);
			const messages = status === 'error' ? ['ERP rejected: duplicate'] : undefined;
			const reply = await call(emu, 'PATCH', `/files/${file.fileId}`, { body: { integrationExportStatus: status, ...(messages ? { integrationExportMessages: messages } : {}) } });
			expect(reply.status).toBe(200);
			expect(reply.body).toEqual({
				fileId: file.fileId,
				exportInfo: { integrationExportStatus: status, integrationExportMessages: messages ?? null, integrationExportUpdatedAt: new Date(clock.now()).toISOString() },
			});
			const listed = (await call(emu, 'GET', '/files', { query: { fileIds: file.fileId } })).body.files[0];
			expect(listed).toMatchObject({ integrationExportStatus: status, integrationExportMessages: messages ?? null, integrationExportUpdatedAt: new Date(clock.now()).toISOString() });
		}
		const missingStatus = await call(emu, 'PATCH', `/files/${file.fileId}`, { body: {} });
		expectProblem(missingStatus, 422, 'VALIDATION_FAILED');
		expect(missingStatus.body.errors[0]).toMatchObject({ pointer: '/integrationExportStatus', code: 'REQUIRED' });
		const badStatus = await call(emu, 'PATCH', `/files/${file.fileId}`, { body: { integrationExportStatus: 'done', integrationExportMessages: [1] } });
		expect(badStatus.body.errors.map((error: Json) => error.pointer)).toEqual(['/integrationExportStatus', '/integrationExportMessages/0']);
		expectProblem(await call(emu, 'PATCH', '/files/00000000-0000-4000-8000-000000000000', { body: { integrationExportStatus: 'completed' } }), 404, 'NOT_FOUND');
		const badId = await call(emu, 'PATCH', '/files/not-a-uuid', { body: { integrationExportStatus: 'completed' } });
		expect(badId.body.errors[0].parameter).toBe('fileId');
	});

	test('preview: a signed GET on the storage host serving the stored bytes for about an hour', async () => {
		const content = invoiceText();
		const file = await uploadAndGetFile(emu, 'p.txt', content);
		const reply = await call(emu, 'POST', '/files/preview', { body: { s3Path: file.fileStoragePath } });
		expect(reply.status).toBe(200);
		expect(reply.body.signedUrl.startsWith(emu.storageUrl)).toBe(true);
		const download = await fetch(reply.body.signedUrl);
		expect(download.status).toBe(200);
		expect(download.headers.get('content-type')).toBe('text/plain');
		expect(await download.text()).toBe(content);
		const log = emu.requests.filter((entry) => entry.host === 'storage' && entry.method === 'GET').pop();
		expect(log?.headers['x-api-key']).toBeUndefined();
		clock.advance(3600_000 + 1000);
		expect((await fetch(reply.body.signedUrl)).status).toBe(403);
		const invalid = await call(emu, 'POST', '/files/preview', { body: { s3Path: 'nope/nothing.txt' } });
		expectProblem(invalid, 422, 'VALIDATION_FAILED');
		expect(invalid.body.errors[0]).toMatchObject({ pointer: '/s3Path' });
		expect(invalid.body.detail).toMatch(/s3Path/);
		expectProblem(await call(emu, 'POST', '/files/preview', { body: {} }), 422, 'VALIDATION_FAILED');
		expect((await call(emu, 'POST', '/files/preview', { key: emu.keys.readOnly, body: { s3Path: file.fileStoragePath } })).status).toBe(200);
		const otherWorkspace = await call(emu, 'POST', '/files/preview', { key: emu.keys.workspaceB, body: { s3Path: file.fileStoragePath } });
		expectProblem(otherWorkspace, 422, 'VALIDATION_FAILED');
	});

	test('batch preview signs up to 100 paths', async () => {
		const a = await uploadAndGetFile(emu, 'a.txt', 'Invoice Number: BA\n');
		const b = await uploadAndGetFile(emu, 'b.txt', 'Invoice Number: BB\n');
		const reply = await call(emu, 'POST', '/files/preview/batch', { body: { s3Paths: [a.fileStoragePath, b.fileStoragePath] } });
		expect(reply.status).toBe(200);
		expect(reply.body.signedUrls.map((entry: Json) => entry.s3Path)).toEqual([a.fileStoragePath, b.fileStoragePath]);
		expect(await (await fetch(reply.body.signedUrls[1].signedUrl)).text()).toBe('Invoice Number: BB\n');
		const tooMany = await call(emu, 'POST', '/files/preview/batch', { body: { s3Paths: Array.from({ length: 101 }, () => a.fileStoragePath) } });
		expect(tooMany.body.errors[0]).toMatchObject({ pointer: '/s3Paths', code: 'TOO_MANY_ITEMS' });
		const invalid = await call(emu, 'POST', '/files/preview/batch', { body: { s3Paths: [a.fileStoragePath, 'bad'] } });
		expect(invalid.body.errors[0]).toMatchObject({ pointer: '/s3Paths/1', code: 'INVALID_PATH' });
		expectProblem(await call(emu, 'POST', '/files/preview/batch', { body: { s3Paths: [] } }), 422, 'VALIDATION_FAILED');
	});
});
