/**
 * The emulator's seeded Purchase Order (a field of every kind) and read-only fields, our documented
 * choice where the specification has none (`readOnly: true` on a schema field definition).
 */
import { PURCHASE_ORDER_EXPECTED, PURCHASE_ORDER_FILE_NAME, purchaseOrderText } from '../../dev/purchase-order';
import { SEED_IDS, startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, expectProblem, uploadAndGetFile, type Json } from './test-helpers';

describe('read-only fields and the Purchase Order type', () => {
	let emu: Emulator;
	let fileId: string;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
		fileId = (await uploadAndGetFile(emu, PURCHASE_ORDER_FILE_NAME, purchaseOrderText())).fileId as string;
	});
	afterAll(() => emu.close());

	const fieldsOf = async (): Promise<Json[]> =>
		(await call(emu, 'GET', `/files/${fileId}/values`, { query: { includeFullTableData: 'true' } })).body.values.formValues[0].fields;

	test('the purchase order is read as a Purchase Order, every kind of field filled', async () => {
		const fields = await fieldsOf();
		expect(Object.fromEntries(fields.map((field) => [field.title, field.value]))).toEqual(PURCHASE_ORDER_EXPECTED);
		expect(fields.map((field) => field.type)).toEqual(['string', 'date', 'number', 'boolean', 'string', 'object', 'object', 'string', 'string']);
		const schema = await call(emu, 'GET', '/file-type');
		const type = schema.body.fileTypes.find((candidate: Json) => candidate.id === SEED_IDS.purchaseOrderFileTypeA);
		expect(type.currentSchemaVersion.fields.filter((field: Json) => field.readOnly === true).map((field: Json) => field.title)).toEqual(['Document Reference']);
	});

	test('a read-only field carries readOnly: true in the values, and only it', async () => {
		const fields = await fieldsOf();
		expect(fields.filter((field) => 'readOnly' in field)).toEqual([expect.objectContaining({ title: 'Document Reference', readOnly: true })]);
	});

	test('PATCH /files/{id}/values refuses a read-only field (422 READ_ONLY_FIELD) and changes nothing', async () => {
		const reply = await call(emu, 'PATCH', `/files/${fileId}/values`, {
			body: { fields: [{ title: 'PO Number', value: 'PO-2' }, { title: 'Document Reference', value: 'mine' }] },
		});
		expectProblem(reply, 422, 'VALIDATION_FAILED');
		expect(reply.body.errors).toEqual([expect.objectContaining({ code: 'READ_ONLY_FIELD', pointer: '/fields/1/title' })]);
		const values = Object.fromEntries((await fieldsOf()).map((field) => [field.title, field.value]));
		expect(values).toMatchObject({ 'PO Number': 'PO-1001', 'Document Reference': 'DOC-PO-1001' });
	});

	test('PATCH /schemas sets readOnly; a rerun carries it to the file, which then refuses the write', async () => {
		const patched = await call(emu, 'PATCH', '/schemas', { body: { schemaId: SEED_IDS.purchaseOrderSchemaV1A, fields: [{ title: 'Approved', readOnly: true }] } });
		expect(patched.status).toBe(200);
		expect((await call(emu, 'PATCH', '/files/schema/rerun', { body: { fileId, backgroundRerun: false } })).status).toBe(200);
		expect((await fieldsOf()).find((field) => field.title === 'Approved')).toMatchObject({ readOnly: true });
		const reply = await call(emu, 'PATCH', `/files/${fileId}/values`, { body: { fields: [{ title: 'Approved', value: false }] } });
		expect(reply.body.errors).toEqual([expect.objectContaining({ code: 'READ_ONLY_FIELD' })]);
	});
});
