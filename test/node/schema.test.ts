import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import { apiCalls, hintsOf, runOperation } from './run-operation';
import { loadBuiltPackage, useEmulator } from './support';

const emulator = useEmulator({}, 'test');

function invoiceField(title: string) {
	const found = emulator.state.schemaVersion(SEED_IDS.workspaceA, SEED_IDS.invoiceSchemaV2A);
	return found?.version.fields.find((field) => field.title === title);
}

describe('Schema > Update Fields (Deprecated)', () => {
	it('is labelled deprecated in the editor: operation name, action and a notice', async () => {
		const loaded = await loadBuiltPackage();
		const nodeType = Object.entries(loaded.nodeTypes).find(([name]) => name.endsWith('.documentExtraction'))?.[1];
		const description = (nodeType as { description: INodeTypeDescription }).description;
		const schemaOperations = description.properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes('schema'),
		) as INodeProperties;
		expect(schemaOperations.options).toEqual([
			expect.objectContaining({
				name: 'Update Fields (Deprecated)',
				value: 'updateFields',
				action: 'Update schema fields (deprecated)',
			}),
		]);
		const notice = description.properties.find(
			(property) => property.type === 'notice' && property.displayOptions?.show?.resource?.includes('schema'),
		);
		expect(notice?.displayName).toContain('deprecated');
		expect(notice?.displayOptions?.show?.operation).toEqual(['updateFields']);
	});

	it('patches fields given in the form (by title and by id) and warns in the output that the API deprecated it', async () => {
		const run = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'fields',
			fields: {
				field: [
					{ title: 'Tax', properties: { description: 'VAT amount', hidden: true } },
					{ id: 'f-currency', properties: { enumValues: 'USD, EUR ,GBP' } },
				],
			},
		});

		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({
			success: true,
			schemaId: SEED_IDS.invoiceSchemaV2A,
			fields: [
				{ title: 'Tax', description: 'VAT amount', hidden: true },
				{ id: 'f-currency', enumValues: ['USD', 'EUR', 'GBP'] },
			],
		});
		expect(invoiceField('Tax')).toMatchObject({ description: 'VAT amount', hidden: true, type: 'NUMBER' });
		expect(invoiceField('Currency')?.enumValues).toEqual(['USD', 'EUR', 'GBP']);
		expect(hintsOf(run)).toEqual([
			expect.objectContaining({ type: 'warning', message: expect.stringContaining('deprecated PATCH /schemas') }),
		]);
		const patch = emulator.requests.find((entry) => entry.method === 'PATCH');
		expect(patch?.path).toBe('/prod/v1/schemas');
		expect(patch?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('adds a field given as JSON, sending the type in the upper case the API wants', async () => {
		const { items, error } = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'json',
			fieldsJson: JSON.stringify([{ title: 'Payment Terms', type: 'string', description: 'e.g. Net 30' }]),
		});

		expect(error).toBeUndefined();
		expect(items[0].json.fields).toEqual([{ title: 'Payment Terms', type: 'STRING', description: 'e.g. Net 30' }]);
		expect(invoiceField('Payment Terms')).toMatchObject({ type: 'STRING', description: 'e.g. Net 30' });
	});

	it('refuses definitions that name no field, an unknown type and broken JSON before any request', async () => {
		const noName = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'json',
			fieldsJson: '[{ "description": "orphan" }]',
		});
		expect(noName.error?.message).toBe(
			'Invalid Fields (JSON) (field 1) in item 0: expected a field ID or a title naming the field, got "{"description":"orphan"}"',
		);

		const badType = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'json',
			fieldsJson: '[{ "title": "Tax", "type": "money" }]',
		});
		expect(badType.error?.message).toBe(
			'Invalid Fields (JSON) (field 1) type in item 0: expected one of STRING, NUMBER, BOOLEAN, DATE, OBJECT, got "money"',
		);

		const broken = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'json',
			fieldsJson: '[{ "title": "Tax", }]',
		});
		expect(broken.error?.message).toMatch(/^Invalid Fields \(JSON\) in item 0: expected valid JSON \(/);

		expect(apiCalls(emulator)).toEqual([]);
	});

	it('reports the API\'s 404 for an unknown schema and its 422 (with pointer) for a new field without a type', async () => {
		const missing = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: '0123456789abcdef01234567',
			inputMode: 'json',
			fieldsJson: '[{ "title": "Tax" }]',
		});
		expect(missing.error?.message).toContain('HTTP 404 NOT_FOUND');

		const invalid = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'json',
			fieldsJson: '[{ "title": "Brand New" }]',
		});
		expect(invalid.error?.message).toContain('HTTP 422 VALIDATION_FAILED');
		expect(invalid.error?.message).toContain('field /fields/0/type');
	});

	it('with continueOnFail, a malformed schema id gives an error item paired with its input', async () => {
		const { items, error } = await runOperation(
			emulator,
			'schema',
			'updateFields',
			{ schemaId: '={{ $json.schemaId }}', inputMode: 'json', fieldsJson: '[{ "title": "Tax", "hidden": false }]' },
			{ continueOnFail: true, inputItems: [{ json: { schemaId: SEED_IDS.invoiceSchemaV2A } }, { json: { schemaId: 'schema-2' } }] },
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ success: true });
		expect(items[1].json.error).toBe(
			'Invalid Schema ID in item 1: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "schema-2"',
		);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('Schema > Update Fields refuses bad input modes and id types before any request', () => {
	it('a Define Fields mode other than Field by Field or Using JSON', async () => {
		const { error } = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: SEED_IDS.invoiceSchemaV2A,
			inputMode: 'xml',
			fieldsJson: '[{ "title": "Total" }]',
		});

		expect(error?.message).toBe('Invalid Define Fields in item 0: expected one of fields, json, got "xml"');
		expect(emulator.requests).toHaveLength(0);
	});

	it('a Schema ID from an expression giving an array of one ID', async () => {
		const { error } = await runOperation(emulator, 'schema', 'updateFields', {
			schemaId: `={{ ["${SEED_IDS.invoiceSchemaV2A}"] }}`,
			inputMode: 'json',
			fieldsJson: '[{ "title": "Total" }]',
		});

		expect(error?.message).toBe(
			`Invalid Schema ID in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, not an array, got "["${SEED_IDS.invoiceSchemaV2A}"]"`,
		);
		expect(emulator.requests).toHaveLength(0);
	});
});
