/**
 * What a model receives from each read operation used as a tool, in bytes, for the example
 * documents (examples/documents: the invoice PDF, the receipt and the ZIP of five members).
 *
 *   npm run bench:ai-tools
 *
 * Each operation runs through n8n-core's engine (dev/harness) against the emulator; its tool
 * result is what n8n 2.41 hands the model: JSON.stringify of the node's output items' json
 * (n8n-core get-input-connection-data.js, mapResult). test/e2e/ai.test.ts measures the same in the
 * real n8n for File > Get Many, Get Values and Query > Execute (it prints its figures): they agree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { runNode } from '../dev/harness';
import { SEED_IDS, SEEDED_KEYS, startEmulator, type Emulator } from '../dev/emulator';
import { uploadToEmulator } from '../dev/emulator/client';

const DOCUMENTS = join(__dirname, '..', 'examples', 'documents');
const TYPES: Record<string, string> = { pdf: 'application/pdf', txt: 'text/plain', zip: 'application/zip' };

interface Row {
	operation: string;
	parameters: string;
	items: number;
	bytes: number;
}

async function toolResult(emulator: Emulator, parameters: Record<string, unknown>): Promise<{ items: number; bytes: number; text: string }> {
	const { items, error } = await runNode({
		type: 'documentExtraction',
		parameters: { ...parameters, options: { ...(parameters.options as object) } },
		credentials: { documentExtractionApi: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl } },
	});
	if (error) throw new Error(`${JSON.stringify(parameters)} failed: ${error.message}`);
	const text = JSON.stringify(items.flatMap((item) => item.json));
	return { items: items.length, bytes: Buffer.byteLength(text), text };
}

async function main(): Promise<void> {
	const emulator = await startEmulator({ processingDelayMs: 0 });
	try {
		const uploads: Record<string, string> = {};
		for (const name of ['invoice-INV-2024-0042.pdf', 'receipt-R-7781.txt', 'scanned-batch.zip']) {
			uploads[name] = await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, name, readFileSync(join(DOCUMENTS, name)), TYPES[name.split('.').pop()!]);
		}
		await emulator.idle();
		const files = [...emulator.state.files.values()];
		const fileOf = (name: string) => files.find((file) => file.fileName === name && file.uploadId === uploads[name])!.fileId;
		const invoice = fileOf('invoice-INV-2024-0042.pdf');
		const receipt = fileOf('receipt-R-7781.txt');
		const byId = (value: string) => ({ __rl: true, mode: 'id', value });
		const invoiceQuery = readFileSync(join(__dirname, '..', 'examples', 'query-invoice-totals.json'), 'utf8');
		const exampleQueryConfig = (JSON.parse(invoiceQuery) as { nodes: Array<{ parameters: { queryConfig?: string } }> }).nodes.find((node) => node.parameters.queryConfig)!.parameters.queryConfig!;

		const cases: Array<[string, string, Record<string, unknown>]> = [
			['File > Get Many', `limit 10 (the agent example's default; ${files.length} files in the workspace), Simplify on (the tool's default)`, { resource: 'file', operation: 'getMany', limit: 10, simplify: true }],
			['File > Get Many', `limit 10, Simplify off (the whole file records)`, { resource: 'file', operation: 'getMany', limit: 10, simplify: false }],
			['File > Get Many', 'limit 1, Simplify on', { resource: 'file', operation: 'getMany', limit: 1, simplify: true }],
			['File > Get Values', 'the invoice, Simplify on', { resource: 'file', operation: 'getValues', fileId: byId(invoice), simplify: true }],
			['File > Get Values', 'the invoice, Simplify off (raw form records)', { resource: 'file', operation: 'getValues', fileId: byId(invoice), simplify: false }],
			['File > Get Values', 'the receipt, Simplify on', { resource: 'file', operation: 'getValues', fileId: byId(receipt), simplify: true }],
			['File > Get Upload Status', 'the ZIP (5 members)', { resource: 'file', operation: 'getUploadStatus', uploadId: uploads['scanned-batch.zip'] }],
			['File > Get Preview URL', 'the invoice', { resource: 'file', operation: 'getPreviewUrl', fileId: byId(invoice) }],
			['Query > Execute', '3 columns, filter Invoice Number = INV-2024-0042', {
				resource: 'query', operation: 'execute', limit: 20, queryConfig: JSON.stringify({
					selectedFields: [{ field: 'fileName', alias: 'file' }, { field: 'Invoice Number', alias: 'invoiceNumber' }, { field: 'Total Amount', alias: 'total' }],
					filters: [{ field: 'Invoice Number', operator: 'eq', value: 'INV-2024-0042' }],
				}),
			}],
			['Query > Execute', 'examples/query-invoice-totals.json (6 columns, every invoice)', { resource: 'query', operation: 'execute', limit: 20, queryConfig: exampleQueryConfig }],
			['File Type > Get Many', 'limit 50 (2 seeded types)', { resource: 'fileType', operation: 'getMany', limit: 50 }],
			['Workflow > Get', 'the seeded workflow', { resource: 'workflow', operation: 'get', workflowId: byId(SEED_IDS.workflowA) }],
			['Workspace > Get Subscription', '', { resource: 'workspace', operation: 'getSubscription' }],
			['Workspace > Get Project Settings', '', { resource: 'workspace', operation: 'getProjectSettings' }],
		];
		const rows: Row[] = [];
		for (const [operation, parameters, values] of cases) {
			const { items, bytes } = await toolResult(emulator, values);
			rows.push({ operation, parameters, items, bytes });
		}
		console.log('| Operation | Parameters | Items | Tool result (bytes) |');
		console.log('|---|---|---:|---:|');
		for (const row of rows) console.log(`| ${row.operation} | ${row.parameters} | ${row.items} | ${row.bytes.toLocaleString('en-US')} |`);
	} finally {
		await emulator.close();
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exit(1);
});
