/**
 * The sample documents the example workflows read (examples/documents/), generated from the
 * test fixtures so that their extracted values are known (dev/documents.ts).
 *
 *   npx tsx dev/example-documents.ts            # rewrites examples/documents/
 *   npx tsx dev/example-documents.ts --check    # exits 1 when the committed files differ
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

/** Names of committed sample documents whose bytes differ from what the fixtures give (or are missing). */
export async function staleExampleDocuments(dir = EXAMPLE_DOCUMENTS_DIR): Promise<string[]> {
	const stale: string[] = [];
	for (const [name, bytes] of await exampleDocuments()) {
		const file = path.join(dir, name);
		if (!fs.existsSync(file) || !fs.readFileSync(file).equals(bytes)) stale.push(name);
	}
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
	console.log(`wrote ${written.join(', ')} into ${EXAMPLE_DOCUMENTS_DIR}`);
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
