/**
 * The engine demo: starts the emulator, runs examples/upload-and-extract.json through n8n-core's
 * WorkflowExecute with our built node, for a text invoice and a PDF invoice, and prints what
 * the node returned. No n8n application needed.
 *
 * The example makes its invoice from base64 it carries, with n8n's Edit Fields and Convert to File
 * nodes (so it runs as imported in any n8n); n8n-core has no such nodes, so here the demo hands the
 * two documents to the Upload node itself, as the manual trigger's items, and leaves those out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IConnections } from 'n8n-workflow';

import { SEEDED_KEYS, startEmulator } from '../dev/emulator';
import { INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME, invoicePdf, invoiceText } from '../dev/documents';
import { REPO_ROOT, createBinaryItem, runWorkflow, type WorkflowJson } from '../dev/harness';

/**
 * The example with its sample nodes taken out (they build the file from the base64 the workflow
 * carries, with n8n's Edit Fields and Convert to File nodes, which n8n-core does not have): the
 * manual trigger feeds the Upload node directly.
 */
function withoutSampleNodes(workflow: WorkflowJson, uploadNode: string): WorkflowJson {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const upload = workflow.nodes.find((node) => node.name === uploadNode);
	if (!trigger || !upload) throw new Error(`${workflow.name}: no manual trigger or no node "${uploadNode}"`);
	const connections: IConnections = { [trigger.name]: { main: [[{ node: upload.name, type: 'main', index: 0 }]] } };
	return { ...workflow, nodes: [trigger, upload], connections };
}

async function main(): Promise<void> {
	const emulator = await startEmulator({ processingDelayMs: 300 });
	try {
		console.log(`Emulator: ${emulator.apiUrl} (storage ${emulator.storageUrl})`);
		const workflow = withoutSampleNodes(JSON.parse(readFileSync(join(REPO_ROOT, 'examples/upload-and-extract.json'), 'utf8')) as WorkflowJson, 'Upload and extract');
		const documents = [
			{ buffer: Buffer.from(invoiceText()), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' },
			{ buffer: invoicePdf(), fileName: INVOICE_PDF_FILE_NAME, mimeType: 'application/pdf' },
		];
		const inputItems = await Promise.all(documents.map(async (document) => await createBinaryItem(document)));
		const started = Date.now();
		const result = await runWorkflow(workflow, {
			credentials: { documentExtractionApi: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl } },
			inputItems,
		});
		if (result.error) throw result.error;
		const items = result.outputOf('Upload and extract');
		console.log(`Workflow "${workflow.name}" ran in ${Date.now() - started} ms; ${items.length} item(s):`);
		for (const item of items) console.log(JSON.stringify(item.json, null, 2));
	} finally {
		await emulator.close();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
