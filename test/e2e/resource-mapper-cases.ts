/**
 * Update Values' field mapper (typeVersion 2) in the real n8n, for the n8n a suite runs
 * (test/e2e/server.test.ts: 2.41.1; test/e2e-n8n1/n8n1-smoke.test.ts: 1.123.81): the fields load
 * through the REST endpoint the editor calls (POST /rest/dynamic-node-parameters/resource-mapper-fields,
 * with the saved credential), a file type of 2,000 fields opens in one answer, and a workflow
 * saved with that field list writes typed values that land in the emulator. In workspace B, so
 * that the suites' active triggers (workspace A) see none of it.
 */
import { SEED_IDS, SEEDED_KEYS, addGeneratedFileType, type Emulator } from '../../dev/emulator';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';
import type { N8nRuntime } from '../../dev/n8n/n8n-runtime';
import { resourceMapperFields, valuesToUpdate, type MapperField } from '../../dev/n8n/resource-mapper';
import { NODE_TYPE, executionOutput, type WorkflowJson } from '../../dev/n8n/n8n-stack';
import { PURCHASE_ORDER_FILE_NAME, PURCHASE_ORDER_SCHEMA_FIELDS, purchaseOrderText } from '../../dev/purchase-order';
import { runWorkflowOn, uploadToEmulator, waitFor, waitForExecutionData } from './helpers';

export interface MapperCaseContext {
	n8n: N8nInstance;
	runtime: N8nRuntime;
	emulator: Emulator;
	/** A saved credential of workspace B's key. */
	credential: { id: string; name: string };
}

function writeWorkflow(context: MapperCaseContext, fileId: string, schema: MapperField[]): WorkflowJson {
	return {
		name: 'e2e: Update Values with the field mapper',
		nodes: [
			{ id: 'm1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'm2',
				name: 'Update the order',
				type: NODE_TYPE,
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					resource: 'file',
					operation: 'updateValues',
					fileId: { __rl: true, mode: 'id', value: fileId },
					// As the editor stores them: the date from its picker, JSON text for the table.
					columns: valuesToUpdate(
						{
							'PO Number': 'PO-E2E',
							'Order Total': 12.5,
							Approved: false,
							'Order Date': '2024-08-01T00:00:00',
							Priority: 'Normal',
							'Order Lines': '[{ "Item": "Washers", "Quantity": 20, "Taxable": true }]',
						},
						schema,
					),
					options: {},
				},
				credentials: { documentExtractionApi: context.credential },
			},
		],
		connections: { Start: { main: [[{ node: 'Update the order', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Registers the cases in the calling describe block; `context` is read when they run. */
export function describeFieldMapperInRealN8n(context: () => MapperCaseContext): void {
	describe('Update Values field mapper (typeVersion 2), through the editor\'s REST endpoint', () => {
		test('the node and its AI tool offer typeVersion 2 to new nodes and keep 1', async () => {
			const types = (await (await context().n8n.request('/types/nodes.json')).json()) as Array<{ name: string; version: number | number[]; defaultVersion?: number }>;
			for (const name of [NODE_TYPE, `${NODE_TYPE}Tool`]) {
				expect(types.find((type) => type.name === name)).toMatchObject({ version: [1, 2], defaultVersion: 2 });
			}
		});

		test("the file's fields load typed, a 2,000-field type opens in one answer, and a write made with them lands", async () => {
			const { emulator } = context();
			addGeneratedFileType(emulator, 0, { name: 'Purchase Order', workspaceId: SEED_IDS.workspaceB, definitions: PURCHASE_ORDER_SCHEMA_FIELDS });
			const { fileTypeId: big } = addGeneratedFileType(emulator, 2000, { name: 'Two thousand fields', workspaceId: SEED_IDS.workspaceB });
			const uploadId = await uploadToEmulator(emulator, SEEDED_KEYS.workspaceB, PURCHASE_ORDER_FILE_NAME, Buffer.from(purchaseOrderText()));
			const fileId = await waitFor('the purchase order processed', () => [...emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId, 30_000);

			const { fields } = await resourceMapperFields(context().n8n, { fieldsFrom: 'file', fileId: { __rl: true, mode: 'id', value: fileId } }, context().credential);
			expect(fields.map((field) => [field.id, field.type, field.readOnly === true])).toEqual([
				['PO Number', 'string', false],
				['Order Date', 'dateTime', false],
				['Order Total', 'number', false],
				['Approved', 'boolean', false],
				['Priority', 'options', false],
				['Ship To', 'object', false],
				['Order Lines', 'array', false],
				['Document Reference', 'string', true],
			]);
			expect(fields.find((field) => field.id === 'Priority')?.options?.map((option) => option.value)).toEqual(['Low', 'Normal', 'Urgent']);

			const large = await resourceMapperFields(context().n8n, { fieldsFrom: 'fileType', fileType: { __rl: true, mode: 'id', value: big } }, context().credential);
			expect(large.fields).toHaveLength(1715);
			process.stderr.write(`[e2e] n8n ${context().runtime.n8nVersion}: the mapper's fields of a 2,000-field file type (1,715 shown): ${large.bytes} bytes in ${large.ms} ms\n`);

			const created = await context().n8n.publicApi<{ id: string }>('/workflows', { method: 'POST', body: writeWorkflow(context(), fileId, fields) });
			const execution = await waitForExecutionData(context().n8n, await runWorkflowOn(context().runtime, context().n8n, created.id, 'Start'), 120_000);
			expect(execution.data?.resultData.error).toBeUndefined();
			expect(executionOutput(execution, 'Update the order')[0]).toMatchObject({
				fileId,
				updatedFields: ['PO Number', 'Order Total', 'Approved', 'Order Date', 'Priority', 'Order Lines'],
				values: { 'PO Number': 'PO-E2E', 'Order Total': 12.5, Approved: false, 'Order Date': '2024-08-01', Priority: 'Normal' },
			});
			const stored = Object.fromEntries(emulator.state.files.get(fileId)!.formValues!.fields.map((field) => [field.title, field.value]));
			expect(stored).toMatchObject({ 'PO Number': 'PO-E2E', 'Order Total': 12.5, Approved: false, 'Order Date': '2024-08-01', 'Order Lines': [{ Item: 'Washers', Quantity: 20, Taxable: true }] });
		});
	});
}
