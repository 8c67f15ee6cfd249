/** Documents for the matrix's processing cases, from the test fixtures. */
import type { INodeExecutionData } from 'n8n-workflow';

import { INVOICE_PDF_FILE_NAME, corruptPdf, invoicePdf as invoicePdfBytes, mixedZip as mixedZipBytes } from '../../dev/documents';
import { createBinaryItem } from '../../dev/harness';
import type { CaseContext } from './matrix';

export async function invoicePdf(_context: CaseContext): Promise<INodeExecutionData[]> {
	return [await createBinaryItem({ buffer: invoicePdfBytes(), fileName: INVOICE_PDF_FILE_NAME, mimeType: 'application/pdf' })];
}

export async function brokenPdf(_context: CaseContext): Promise<INodeExecutionData[]> {
	return [await createBinaryItem({ buffer: corruptPdf(), fileName: 'broken.pdf', mimeType: 'application/pdf' })];
}

export async function mixedZip(_context: CaseContext): Promise<INodeExecutionData[]> {
	return [await createBinaryItem({ buffer: await mixedZipBytes(), fileName: 'mixed.zip', mimeType: 'application/zip' })];
}
