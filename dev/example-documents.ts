/**
 * The sample documents the example workflows read (examples/documents/), generated from the
 * test fixtures so that their extracted values are known (dev/documents.ts).
 *
 *   npx tsx dev/example-documents.ts            # rewrites examples/documents/ and the embedded sample
 *   npx tsx dev/example-documents.ts --check    # exits 1 when the committed files differ
 *
 * examples/upload-and-extract.json carries the invoice PDF itself, as base64 in its "Sample
 * invoice" node, so that it runs as imported in any n8n (no file to read): it is rewritten too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, invoicePdf, mixedZip, receiptText } from './documents';

export const EXAMPLE_DOCUMENTS_DIR = path.resolve(__dirname, '..', 'examples', 'documents');

/** A ZIP of five documents: the invoice as text and PDF, the receipt, an empty file and a broken PDF. */
export const EXAMPLE_ZIP_FILE_NAME = 'scanned-batch.zip';

/** File name -> bytes of every sample document. */
export async function exampleDocuments(): Promise<Map<string, Buffer>> {
	return new Map<string, Buffer>([
		[INVOICE_PDF_FILE_NAME, invoicePdf()],
		[RECEIPT_FILE_NAME, Buffer.from(receiptText(), 'utf8')],
		[EXAMPLE_ZIP_FILE_NAME, await mixedZip()],
	]);
}

/** Writes the sample documents into `dir` (created when missing); other files there stay. */
export async function writeExampleDocuments(dir: string): Promise<string[]> {
	fs.mkdirSync(dir, { recursive: true });
	const written: string[] = [];
	for (const [name, bytes] of await exampleDocuments()) {
		fs.writeFileSync(path.join(dir, name), bytes);
		written.push(name);
	}
	return written;
}

/** The example that carries the invoice PDF itself, the node holding it and the field (base64). */
export const EMBEDDED_SAMPLE = {
	example: path.resolve(__dirname, '..', 'examples', 'upload-and-extract.json'),
	node: 'Sample invoice',
	field: 'invoicePdfBase64',
} as const;

interface EmbeddingWorkflow {
	nodes: Array<{ name: string; parameters: { assignments?: { assignments?: Array<{ name: string; value: unknown }> } } }>;
}

function embeddedAssignment(workflow: EmbeddingWorkflow): { name: string; value: unknown } {
	const assignment = workflow.nodes
		.find((node) => node.name === EMBEDDED_SAMPLE.node)
		?.parameters.assignments?.assignments?.find((entry) => entry.name === EMBEDDED_SAMPLE.field);
	if (!assignment) throw new Error(`${EMBEDDED_SAMPLE.example} has no node "${EMBEDDED_SAMPLE.node}" setting ${EMBEDDED_SAMPLE.field}`);
	return assignment;
}

/** The bytes the example carries (its base64 decoded). */
export function embeddedSampleBytes(): Buffer {
	const workflow = JSON.parse(fs.readFileSync(EMBEDDED_SAMPLE.example, 'utf8')) as EmbeddingWorkflow;
	return Buffer.from(String(embeddedAssignment(workflow).value), 'base64');
}

/** Writes the invoice PDF into the example's base64 field (the rest of the file as it is). */
function writeEmbeddedSample(): void {
	const text = fs.readFileSync(EMBEDDED_SAMPLE.example, 'utf8');
	const old = String(embeddedAssignment(JSON.parse(text) as EmbeddingWorkflow).value);
	fs.writeFileSync(EMBEDDED_SAMPLE.example, text.split(old).join(invoicePdf().toString('base64')));
}

/** Names of committed sample documents whose bytes differ from what the fixtures give (or are missing). */
export async function staleExampleDocuments(dir = EXAMPLE_DOCUMENTS_DIR): Promise<string[]> {
	const stale: string[] = [];
	for (const [name, bytes] of await exampleDocuments()) {
		const file = path.join(dir, name);
		if (!fs.existsSync(file) || !fs.readFileSync(file).equals(bytes)) stale.push(name);
	}
	if (dir === EXAMPLE_DOCUMENTS_DIR && !embeddedSampleBytes().equals(invoicePdf())) stale.push(path.relative(path.resolve(__dirname, '..'), EMBEDDED_SAMPLE.example));
	return stale;
}

async function main(): Promise<void> {
	if (process.argv.includes('--check')) {
		const stale = await staleExampleDocuments();
		if (stale.length) {
			console.error(`examples/documents is out of date: ${stale.join(', ')}. Run: npx tsx dev/example-documents.ts`);
			process.exitCode = 1;
		} else {
			console.log('examples/documents matches the fixtures');
		}
		return;
	}
	const written = await writeExampleDocuments(EXAMPLE_DOCUMENTS_DIR);
	writeEmbeddedSample();
	console.log(`wrote ${written.join(', ')} into ${EXAMPLE_DOCUMENTS_DIR}, and the invoice into ${EMBEDDED_SAMPLE.example}`);
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
