/**
 * The engine demo: starts the emulator, runs examples/upload-and-extract.json through n8n-core's
 * WorkflowExecute with our built node, for a text invoice and a PDF invoice, and prints what
 * the node returned. No n8n application needed.
 *
 * The example reads its invoice with n8n's Read/Write Files node (so it runs as is in the editor
 * that `npm start` opens); n8n-core has no such node, so here the demo hands the two documents to
 * the Upload node itself, as the manual trigger's items, and leaves the Read node out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IConnections } from 'n8n-workflow';

import { SEEDED_KEYS, startEmulator } from '../dev/emulator';
import { INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME, invoicePdf, invoiceText } from '../dev/documents';
import { REPO_ROOT, createBinaryItem, runWorkflow, type WorkflowJson } from '../dev/harness';

/** The example with its Read/Write Files node taken out: the trigger connects to what the Read node fed. */
function withoutReadNode(workflow: WorkflowJson): WorkflowJson {
	const read = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.readWriteFile');
	if (!read) return workflow;
	const fedByRead = workflow.connections[read.name]?.main?.[0] ?? [];
	const connections: IConnections = {};
	for (const [from, outputs] of Object.entries(workflow.connections)) {
		if (from === read.name) continue;
		connections[from] = {
			...outputs,
			main: (outputs.main ?? []).map((targets) => ((targets ?? []).some((target) => target.node === read.name) ? fedByRead : targets)),
		};
	}
	return { ...workflow, nodes: workflow.nodes.filter((node) => node !== read), connections };
}

async function main(): Promise<void> {
	const emulator = await startEmulator({ processingDelayMs: 300 });
	try {
		console.log(`Emulator: ${emulator.apiUrl} (storage ${emulator.storageUrl})`);
		const workflow = withoutReadNode(JSON.parse(readFileSync(join(REPO_ROOT, 'examples/upload-and-extract.json'), 'utf8')) as WorkflowJson);
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
