import { invoiceText, receiptText } from '../../dev/documents';
import { SEED_IDS, startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, uploadAndGetFile, type Json } from './test-helpers';

describe('subscription, project settings, file types, workflows, directories, schemas', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());

	test('GET /subscription answers every documented field', async () => {
		const reply = await call(emu, 'GET', '/subscription');
		expect(reply.status).toBe(200);
		expect(Object.keys(reply.body.subscription).sort()).toEqual(
			[
				'id', 'workspaceId', 'subscriptionPlan', 'isTrial', 'creditInCents', 'lowCreditThresholdInCents', 'expiringCreditInCents', 'expiryDate',
				'storageInGB', 'maxStorageInGB', 'importCount', 'maxImportCount', 'exportCount', 'maxExportCount', 'aiSchemaCount', 'maxAiSchemaCount',
				'isAutoRenewal', 'createdAt', 'updatedAt',
			].sort(),
		);
		expect(reply.body.subscription.workspaceId).toBe(SEED_IDS.workspaceA);
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.workspaceB })).body.subscription.workspaceId).toBe(SEED_IDS.workspaceB);
		expect((await call(emu, 'GET', '/subscription', { key: emu.keys.readOnly })).status).toBe(200);
	});

	test('GET /project/setting answers the setting object', async () => {
		const reply = await call(emu, 'GET', '/project/setting');
		expect(reply.body).toEqual({ projectId: SEED_IDS.workspaceA, ocrModel: expect.any(String), formTargetLanguage: 'en', isSplit: false, createdAt: expect.any(String), updatedAt: expect.any(String) });
	});

	test('GET /file-type lists the workspace types with their current schema version', async () => {
		const reply = await call(emu, 'GET', '/file-type');
		expect(reply.body).toMatchObject({ count: 3, currentPage: 1 });
		expect(reply.body.fileTypes.map((type: Json) => type.name)).toEqual(['Invoice', 'Receipt', 'Purchase Order']);
		const invoice = reply.body.fileTypes[0];
		expect(invoice).toMatchObject({ id: SEED_IDS.invoiceFileTypeA, isDeleted: false, isPublished: true, usageApprovalState: 'approved' });
		expect(invoice.currentSchemaVersion).toMatchObject({ id: SEED_IDS.invoiceSchemaV2A, isCurrentVersion: true, versionNumber: 2, state: 'active', blueprintId: SEED_IDS.invoiceFileTypeA });
		expect(invoice.currentSchemaVersion.metadata).toEqual({ lastModifiedBy: expect.any(String), userId: expect.any(String), organizationId: SEED_IDS.organizationA, workspaceId: SEED_IDS.workspaceA });
		const lineItems = invoice.currentSchemaVersion.fields.find((field: Json) => field.title === 'Line Items');
		expect(lineItems).toMatchObject({ type: 'OBJECT', items: expect.arrayContaining([expect.objectContaining({ title: 'Amount', type: 'NUMBER' })]) });
		const other = await call(emu, 'GET', '/file-type', { key: emu.keys.workspaceB });
		expect(other.body.fileTypes.map((type: Json) => type.id)).toEqual([SEED_IDS.invoiceFileTypeB]);
	});

	test('file types: page/limit/sortBy/sortOrder, cursor accepted and ignored, invalid values 422', async () => {
		const desc = await call(emu, 'GET', '/file-type', { query: { sortBy: 'name', sortOrder: 'DESC' } });
		expect(desc.body.fileTypes.map((type: Json) => type.name)).toEqual(['Receipt', 'Purchase Order', 'Invoice']);
		const page2 = await call(emu, 'GET', '/file-type', { query: { page: '2', limit: '1' } });
		expect(page2.body).toMatchObject({ count: 3, currentPage: 2 });
		expect(page2.body.fileTypes.map((type: Json) => type.name)).toEqual(['Receipt']);
		const cursor = await call(emu, 'GET', '/file-type', { query: { cursor: '', limit: '1' } });
		expect(Object.keys(cursor.body).sort()).toEqual(['count', 'currentPage', 'fileTypes']);
		expect(cursor.body.fileTypes).toHaveLength(1);
		const invalidQueries: Array<Record<string, string>> = [{ sortOrder: 'asc' }, { sortBy: 'size' }, { limit: '0' }, { page: 'x' }];
		for (const query of invalidQueries) {
			expectProblem(await call(emu, 'GET', '/file-type', { query }), 422, 'VALIDATION_FAILED');
		}
	});

	test('approve a file type; 404, 400 and 422 cases; read-only 403', async () => {
		const body = { blueprintId: SEED_IDS.receiptFileTypeA, schemaId: SEED_IDS.receiptSchemaV1A };
		expectProblem(await call(emu, 'PATCH', '/file-type/approve', { key: emu.keys.readOnly, body }), 403, 'FORBIDDEN');
		expect(await call(emu, 'PATCH', '/file-type/approve', { body })).toMatchObject({ status: 200, body: { success: true } });
		const receipt = (await call(emu, 'GET', '/file-type')).body.fileTypes.find((type: Json) => type.name === 'Receipt');
		expect(receipt.usageApprovalState).toBe('approved');
		expect(receipt.currentSchemaVersion.usageApprovalState).toBe('approved');
		expectProblem(await call(emu, 'PATCH', '/file-type/approve', { body: { blueprintId: '0123456789abcdef01234567', schemaId: SEED_IDS.receiptSchemaV1A } }), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'PATCH', '/file-type/approve', { body: { blueprintId: SEED_IDS.receiptFileTypeA, schemaId: SEED_IDS.invoiceSchemaV2A } }), 400, 'BAD_REQUEST');
		const invalid = await call(emu, 'PATCH', '/file-type/approve', { body: { blueprintId: 'x' } });
		expectProblem(invalid, 422, 'VALIDATION_FAILED');
		expect(invalid.body.errors.map((error: Json) => error.pointer)).toEqual(['/blueprintId', '/schemaId']);
		expectProblem(await call(emu, 'PATCH', '/file-type/approve', { key: emu.keys.workspaceB, body }), 404, 'NOT_FOUND');
	});

	test('GET /workflows/{id} answers step summaries without internal configuration', async () => {
		const reply = await call(emu, 'GET', `/workflows/${SEED_IDS.workflowA}`);
		expect(reply.status).toBe(200);
		expect(reply.body.workflow).toMatchObject({ id: SEED_IDS.workflowA, name: expect.any(String), description: expect.any(String), status: 'active' });
		expect(reply.body.workflow.workflowSteps.map((step: Json) => [step.stepExecutionOrder, step.stepType])).toEqual([
			[0, 'EXTRACTION'],
			[1, 'MATCH_COMPARE'],
			[2, 'EXPORT'],
		]);
		for (const step of reply.body.workflow.workflowSteps) {
			expect(Object.keys(step).sort()).toEqual(['id', 'status', 'stepExecutionLevel', 'stepExecutionOrder', 'stepType']);
		}
		expectProblem(await call(emu, 'GET', '/workflows/0123456789abcdef01234567'), 404, 'NOT_FOUND');
		expectProblem(await call(emu, 'GET', `/workflows/${SEED_IDS.workflowA}`, { key: emu.keys.workspaceB }), 404, 'NOT_FOUND');
		const invalid = await call(emu, 'GET', '/workflows/123');
		expectProblem(invalid, 422, 'VALIDATION_FAILED');
		expect(invalid.body.errors[0]).toMatchObject({ parameter: 'workflowId', code: 'INVALID_FORMAT' });
	});

	test('POST /directories: active, metadata, depth; child of a child 422; unknown parent 404', async () => {
		const root = await call(emu, 'POST', '/directories', { body: { name: 'Invoices', description: 'All invoices', isActive: true } });
		expect(root.status).toBe(200);
		expect(root.body.success).toBe(true);
		expect(root.body.directory).toEqual({
			id: expect.stringMatching(/^[0-9a-f]{24}$/),
			name: 'Invoices',
			description: 'All invoices',
			status: 'active',
			depth: 0,
			metadata: { userId: SEED_IDS.userA, organizationId: SEED_IDS.organizationA, workspaceId: SEED_IDS.workspaceA, createdBy: expect.any(String), lastModifiedBy: expect.any(String) },
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		const child = await call(emu, 'POST', '/directories', { body: { name: '2026', parentId: root.body.directory.id } });
		expect(child.body.directory).toMatchObject({ parentId: root.body.directory.id, depth: 1, status: 'active' });
		const grandchild = await call(emu, 'POST', '/directories', { body: { name: 'Q1', parentId: child.body.directory.id } });
		expectProblem(grandchild, 422, 'VALIDATION_FAILED');
		expect(grandchild.body.errors[0]).toMatchObject({ pointer: '/parentId', code: 'MAX_DEPTH_EXCEEDED' });
		expectProblem(await call(emu, 'POST', '/directories', { body: { name: 'x', parentId: '0123456789abcdef01234567' } }), 404, 'NOT_FOUND');
		const invalid = await call(emu, 'POST', '/directories', { body: { parentId: 'x', isActive: 'yes' } });
		expect(invalid.body.errors.map((error: Json) => error.pointer)).toEqual(['/name', '/parentId', '/isActive']);
		expectProblem(await call(emu, 'POST', '/directories', { key: emu.keys.readOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
		expectProblem(await call(emu, 'POST', '/directories', { key: emu.keys.workspaceB, body: { name: 'x', parentId: root.body.directory.id } }), 404, 'NOT_FOUND');
	});

	test('the directory depth is a setting', async () => {
		const deep = await startEmulator({ processingDelayMs: 0, maxDirectoryDepth: 2 });
		try {
			const a = await call(deep, 'POST', '/directories', { body: { name: 'a' } });
			const b = await call(deep, 'POST', '/directories', { body: { name: 'b', parentId: a.body.directory.id } });
			const c = await call(deep, 'POST', '/directories', { body: { name: 'c', parentId: b.body.directory.id } });
			expect(c.body.directory.depth).toBe(2);
		} finally {
			await deep.close();
		}
	});

	test('PATCH /schemas (deprecated) updates and adds fields and answers a Deprecation header', async () => {
		const reply = await call(emu, 'PATCH', '/schemas', {
			body: { schemaId: SEED_IDS.receiptSchemaV1A, fields: [{ id: 'f-receipt-total', description: 'Grand total' }, { title: 'Tip', type: 'NUMBER', description: 'Tip given' }] },
		});
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ success: true });
		expect(reply.headers.get('deprecation')).toBe('true');
		const receipt = (await call(emu, 'GET', '/file-type')).body.fileTypes.find((type: Json) => type.name === 'Receipt');
		expect(receipt.currentSchemaVersion.fields.find((field: Json) => field.id === 'f-receipt-total').description).toBe('Grand total');
		expect(receipt.currentSchemaVersion.fields.find((field: Json) => field.title === 'Tip')).toMatchObject({ type: 'NUMBER', description: 'Tip given' });
		const file = await uploadAndGetFile(emu, 'tip.txt', `${receiptText()}Tip: 2.50\n`);
		const values = await call(emu, 'GET', `/files/${file.fileId}/values`);
		expect(values.body.values.formValues[0].fields.find((field: Json) => field.title === 'Tip').value).toBe(2.5);

		expectProblem(await call(emu, 'PATCH', '/schemas', { body: { schemaId: '0123456789abcdef01234567', fields: [] } }), 404, 'NOT_FOUND');
		const invalid = await call(emu, 'PATCH', '/schemas', { body: { schemaId: SEED_IDS.receiptSchemaV1A, fields: [{ title: 'New' }, { id: 'f-receipt-total', type: 'MONEY' }, { hidden: 'no' }] } });
		expectProblem(invalid, 422, 'VALIDATION_FAILED');
		expect(invalid.body.errors.map((error: Json) => error.pointer)).toEqual(['/fields/0/type', '/fields/1/type', '/fields/2/hidden', '/fields/2/title', '/fields/2/type']);
		const missing = await call(emu, 'PATCH', '/schemas', { body: {} });
		expect(missing.body.errors.map((error: Json) => error.pointer)).toEqual(['/schemaId', '/fields']);
	});
});

test('PATCH /files/schema (shape not shown) answers 501 NOT_IMPLEMENTED', async () => {
	const emu = await startEmulator({ processingDelayMs: 0 });
	try {
		expectProblem(await call(emu, 'PATCH', '/files/schema', { body: {} }), 501, 'NOT_IMPLEMENTED');
	} finally {
		await emu.close();
	}
});

describe('POST /query/execute', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
		await uploadAndGetFile(emu, 'a.txt', invoiceText());
		await uploadAndGetFile(emu, 'b.txt', 'Invoice Number: Q-2\nVendor Name: Initech\nTotal Amount: 100\n');
		await uploadAndGetFile(emu, 'r.txt', receiptText());
	});
	afterAll(() => emu.close());

	test('runs over the extracted values of the workspace', async () => {
		const reply = await call(emu, 'POST', '/query/execute', {
			body: {
				queryConfig: {
					documentTypes: [SEED_IDS.invoiceFileTypeA],
					filters: [{ field: 'Total Amount', operator: 'gte', value: 100 }],
					selectedFields: [{ field: 'Vendor Name', alias: 'vendor' }, { field: 'Total Amount', alias: 'total' }],
					orderBy: [{ alias: 'total', direction: 'DESC' }],
				},
				options: { limit: 10 },
			},
		});
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({
			data: [
				{ vendor: 'ACME Supplies Ltd.', total: 1234.5 },
				{ vendor: 'Initech', total: 100 },
			],
			rowCount: 2,
			errors: [],
		});
		expect(Object.keys(reply.body.headers)).toEqual(['vendor', 'total']);
		expect(typeof reply.body.executionTimeMs).toBe('number');
	});

	test('aggregations with groupBy', async () => {
		const reply = await call(emu, 'POST', '/query/execute', {
			body: { queryConfig: { groupBy: ['fileTypeId'], aggregations: [{ function: 'count', alias: 'files' }], orderBy: [{ field: 'fileTypeId' }] } },
		});
		expect(reply.body.errors).toEqual([]);
		expect(reply.body.data).toEqual([
			{ fileTypeId: SEED_IDS.invoiceFileTypeA, files: 2 },
			{ fileTypeId: SEED_IDS.receiptFileTypeA, files: 1 },
		]);
	});

	test('queries follow every change of values and schema fields (the prepared documents are rebuilt)', async () => {
		const own = await startEmulator({ processingDelayMs: 0 });
		try {
			const file = await uploadAndGetFile(own, 'c.txt', 'Invoice Number: Q-3\nVendor Name: Initech\nTotal Amount: 100\n');
			const vendorOfC = { queryConfig: { selectedFields: [{ field: 'Vendor Name', alias: 'vendor' }], filters: [{ field: 'fileName', operator: 'eq', value: 'c.txt' }] }, options: { skipCache: true } };
			expect((await call(own, 'POST', '/query/execute', { body: vendorOfC })).body.data).toEqual([{ vendor: 'Initech' }]);
			expect((await call(own, 'PATCH', `/files/${file.fileId}/values`, { body: { fields: [{ title: 'Vendor Name', value: 'Globex' }] } })).status).toBe(200);
			expect((await call(own, 'POST', '/query/execute', { body: vendorOfC })).body.data).toEqual([{ vendor: 'Globex' }]);

			const poReference = { queryConfig: { selectedFields: [{ field: 'PO Reference' }] } };
			expect((await call(own, 'POST', '/query/execute', { body: poReference })).body.errors).toMatchObject([{ code: 'UNKNOWN_FIELD' }]);
			expect((await call(own, 'PATCH', '/schemas', { body: { schemaId: SEED_IDS.invoiceSchemaV2A, fields: [{ title: 'PO Reference', type: 'STRING' }] } })).status).toBe(200);
			const known = await call(own, 'POST', '/query/execute', { body: poReference });
			expect(known.body.errors).toEqual([]);
			expect(known.body.headers).toEqual({ 'PO Reference': { title: 'PO Reference', type: 'string' } });
		} finally {
			await own.close();
		}
	});

	test('an invalid configuration answers 200 with errors[]', async () => {
		const reply = await call(emu, 'POST', '/query/execute', { body: { queryConfig: { filters: [{ field: 'Nope', operator: 'eq', value: 1 }] } } });
		expect(reply.status).toBe(200);
		expect(reply.body.errors.length).toBeGreaterThan(0);
		expect(reply.body.data).toEqual([]);
	});

	test('missing queryConfig: 422; read-only keys may query; workspace B sees nothing of A', async () => {
		const missing = await call(emu, 'POST', '/query/execute', { body: {} });
		expectProblem(missing, 422, 'VALIDATION_FAILED');
		expect(missing.body.errors[0]).toMatchObject({ pointer: '/queryConfig', code: 'REQUIRED' });
		expectProblem(await call(emu, 'POST', '/query/execute', { body: { queryConfig: [] } }), 422, 'VALIDATION_FAILED');
		const readOnly = await call(emu, 'POST', '/query/execute', { key: emu.keys.readOnly, body: { queryConfig: { selectedFields: [{ field: 'fileName' }] } } });
		expect(readOnly.body.rowCount).toBe(3);
		const other = await call(emu, 'POST', '/query/execute', { key: emu.keys.workspaceB, body: { queryConfig: { selectedFields: [{ field: 'fileName' }] } } });
		expect(other.body.rowCount).toBe(0);
	});

	test('Idempotency-Key is ignored: every request executes fresh', async () => {
		const body = { queryConfig: { selectedFields: [{ field: 'fileName' }] } };
		const first = await call(emu, 'POST', '/query/execute', { body, headers: { 'idempotency-key': 'q-1' } });
		await uploadAndGetFile(emu, 'c.txt', 'Invoice Number: Q-3\n');
		const second = await call(emu, 'POST', '/query/execute', { body, headers: { 'idempotency-key': 'q-1' } });
		expect(second.headers.get('idempotent-replayed')).toBeNull();
		expect(second.body.rowCount).toBe(first.body.rowCount + 1);
		const otherBody = await call(emu, 'POST', '/query/execute', { body: { queryConfig: {} }, headers: { 'idempotency-key': 'q-1' } });
		expect(otherBody.status).toBe(200);
		const tooLong = await call(emu, 'POST', '/query/execute', { body, headers: { 'idempotency-key': 'k'.repeat(300) } });
		expect(tooLong.status).toBe(200);
	});
});
