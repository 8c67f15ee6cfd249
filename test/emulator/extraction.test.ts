import { mkdtemp, rm, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';

import { EXTRACTION_ERRORS, ExtractionError, extractText, stopPdfWorker } from '../../dev/emulator/extraction';
import { fillFields, valuesByTitle, type SchemaFieldDefinition } from '../../dev/emulator/fill-fields';
import { parseBoolean, parseDate, parseNumber } from '../../dev/emulator/parse-values';
import {
	INVOICE_EXPECTED,
	INVOICE_LINES,
	INVOICE_SCHEMA_FIELDS,
	RECEIPT_EXPECTED,
	RECEIPT_SCHEMA_FIELDS,
	binaryBlob,
	buildTextPdf,
	buildZip,
	corruptPdf,
	emptyFile,
	invoicePdf,
	invoiceText,
	lineItemsCsv,
	receiptText,
} from '../../dev/documents';

let directory: string;

beforeAll(async () => {
	directory = await mkdtemp(join(tmpdir(), 'extraction-test-'));
});

afterAll(async () => {
	await stopPdfWorker();
	await rm(directory, { recursive: true, force: true });
});

async function stored(name: string, data: Buffer | string): Promise<string> {
	const filePath = join(directory, name);
	await writeFile(filePath, data);
	return filePath;
}

async function extractionError(promise: Promise<unknown>): Promise<ExtractionError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(ExtractionError);
		return error as ExtractionError;
	}
	throw new Error('expected an ExtractionError, but the extraction succeeded');
}

const lineItems = INVOICE_SCHEMA_FIELDS.find((field) => field.title === 'Line Items') as SchemaFieldDefinition;

describe('extractText', () => {
	it('reads plain text files as they are', async () => {
		const filePath = await stored('invoice.txt', invoiceText());
		await expect(extractText(filePath, 'text/plain', 'invoice.txt')).resolves.toBe(invoiceText());
	});

	it('reads CSV files, also when the MIME type carries a charset', async () => {
		const filePath = await stored('items.csv', lineItemsCsv());
		await expect(extractText(filePath, 'text/csv; charset=utf-8', 'items.csv')).resolves.toBe(lineItemsCsv());
	});

	it('reads the text lines of a PDF through pdfjs, blank lines included, inside jest', async () => {
		const filePath = await stored('invoice.pdf', invoicePdf());
		const text = await extractText(filePath, 'application/pdf', 'invoice.pdf');
		expect(text.split('\n')).toEqual(INVOICE_LINES);
	});

	it('reads every page of a multi-page PDF in order, escaping and Latin-1 intact', async () => {
		const lines = Array.from({ length: 7 }, (_, index) => `Line ${index}: (paren) \\ café`);
		const filePath = await stored('multi.pdf', buildTextPdf(lines, 3));
		const text = await extractText(filePath, 'application/pdf', 'multi.pdf');
		expect(text.split('\n')).toEqual(lines);
	});

	it('serves concurrent PDF extractions from the shared worker', async () => {
		const paths = await Promise.all(
			Array.from({ length: 6 }, (_, index) => stored(`concurrent-${index}.pdf`, buildTextPdf([`Invoice Number: C-${index}`]))),
		);
		const texts = await Promise.all(paths.map((filePath) => extractText(filePath, 'application/pdf', 'c.pdf')));
		expect(texts).toEqual(paths.map((_, index) => `Invoice Number: C-${index}`));
	});

	it('treats application/octet-stream by the file name extension', async () => {
		const pdfPath = await stored('by-extension.pdf', invoicePdf());
		const textPath = await stored('by-extension.txt', receiptText());
		expect((await extractText(pdfPath, 'application/octet-stream', 'scan.PDF')).split('\n')).toEqual(INVOICE_LINES);
		await expect(extractText(textPath, 'application/octet-stream', 'receipt.txt')).resolves.toBe(receiptText());
	});

	it('gives no text (and no error) for types it cannot read, such as images and archives', async () => {
		const imagePath = await stored('photo.png', binaryBlob(512));
		const zipPath = await stored('bundle.zip', await buildZip([{ name: 'a.txt', data: invoiceText() }]));
		await expect(extractText(imagePath, 'image/png', 'photo.png')).resolves.toBe('');
		await expect(extractText(zipPath, 'application/zip', 'bundle.zip')).resolves.toBe('');
	});

	it('rejects an empty file of any type with "The file is empty"', async () => {
		const filePath = await stored('empty.bin', emptyFile());
		for (const [type, name] of [
			['text/plain', 'empty.txt'],
			['application/pdf', 'empty.pdf'],
			['image/png', 'empty.png'],
		]) {
			expect((await extractionError(extractText(filePath, type, name))).message).toBe('The file is empty');
		}
	});

	it('rejects a text file holding only whitespace', async () => {
		const filePath = await stored('blank.txt', ' \n\t\n');
		expect((await extractionError(extractText(filePath, 'text/plain', 'blank.txt'))).message).toBe(EXTRACTION_ERRORS.noText);
	});

	it('rejects a corrupt PDF with "The PDF could not be read"', async () => {
		const filePath = await stored('corrupt.pdf', corruptPdf());
		expect((await extractionError(extractText(filePath, 'application/pdf', 'corrupt.pdf'))).message).toBe('The PDF could not be read');
	});

	it('rejects bytes that claim to be a PDF but have no PDF header, without starting pdfjs', async () => {
		const filePath = await stored('fake.pdf', 'Invoice Number: 1\n');
		expect((await extractionError(extractText(filePath, 'application/pdf', 'fake.pdf'))).message).toBe(EXTRACTION_ERRORS.pdfUnreadable);
	});

	it('recovers after a corrupt PDF: the next PDF still reads', async () => {
		const badPath = await stored('bad-then-good.pdf', corruptPdf());
		const goodPath = await stored('good-after-bad.pdf', invoicePdf());
		await extractionError(extractText(badPath, 'application/pdf', 'bad.pdf'));
		expect((await extractText(goodPath, 'application/pdf', 'good.pdf')).split('\n')).toEqual(INVOICE_LINES);
	});

	it('rejects a binary blob that claims to be text', async () => {
		const filePath = await stored('blob.txt', binaryBlob());
		expect((await extractionError(extractText(filePath, 'text/plain', 'blob.txt'))).message).toBe('The file is not readable text');
	});

	it('rejects a file that is missing from storage', async () => {
		const error = await extractionError(extractText(join(directory, 'nope.txt'), 'text/plain', 'nope.txt'));
		expect(error.message).toBe(EXTRACTION_ERRORS.missing);
	});

	it('decodes UTF-8 with BOM, UTF-16LE with BOM and Latin-1', async () => {
		const utf8 = await stored('utf8.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Vendor Name: Café Ünal', 'utf8')]));
		const utf16 = await stored('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Vendor Name: Café Ünal', 'utf16le')]));
		const latin1 = await stored('latin1.txt', Buffer.from('Vendor Name: Café Ünal', 'latin1'));
		for (const filePath of [utf8, utf16, latin1]) {
			await expect(extractText(filePath, 'text/plain', 'v.txt')).resolves.toBe('Vendor Name: Café Ünal');
		}
	});
});

describe('fillFields', () => {
	it('fills every invoice field with its typed value and leaves the unprinted one null', () => {
		expect(valuesByTitle(fillFields(invoiceText(), INVOICE_SCHEMA_FIELDS))).toEqual(INVOICE_EXPECTED);
	});

	it('fills the receipt, matching the enum value case-insensitively to its canonical spelling', () => {
		expect(valuesByTitle(fillFields(receiptText(), RECEIPT_SCHEMA_FIELDS))).toEqual(RECEIPT_EXPECTED);
	});

	it('gives the same values from the invoice PDF as from the invoice text', async () => {
		const filePath = await stored('invoice-fill.pdf', invoicePdf());
		const text = await extractText(filePath, 'application/pdf', 'invoice.pdf');
		expect(valuesByTitle(fillFields(text, INVOICE_SCHEMA_FIELDS))).toEqual(INVOICE_EXPECTED);
	});

	it('answers the "File form values" field shape: lower-case type, description, format, hidden, items', () => {
		const fields = fillFields(invoiceText(), INVOICE_SCHEMA_FIELDS);
		expect(fields.map((field) => field.title)).toEqual(INVOICE_SCHEMA_FIELDS.map((field) => field.title));
		expect(fields.find((field) => field.title === 'Total Amount')).toEqual({
			title: 'Total Amount',
			type: 'number',
			description: 'Amount due including tax',
			format: null,
			hidden: false,
			value: 1234.5,
			items: null,
		});
		const table = fields.find((field) => field.title === 'Line Items');
		expect(table?.type).toBe('object');
		expect(table?.items).toEqual([
			{ title: 'Description', type: 'string', description: 'Item description', format: null, hidden: false, value: null, items: null },
			{ title: 'Quantity', type: 'number', description: 'Units', format: null, hidden: false, value: null, items: null },
			{ title: 'Unit Price', type: 'number', description: 'Price per unit', format: null, hidden: false, value: null, items: null },
			{ title: 'Amount', type: 'number', description: 'Quantity times unit price', format: null, hidden: false, value: null, items: null },
		]);
		expect(fields.find((field) => field.title === 'Purchase Order Number')).toMatchObject({ hidden: true, value: null });
	});

	it('defaults description, format and hidden when the schema leaves them out', () => {
		expect(fillFields('Code: A1', [{ title: 'Code', type: 'STRING' }])).toEqual([
			{ title: 'Code', type: 'string', description: '', format: null, hidden: false, value: 'A1', items: null },
		]);
	});

	it('matches labels case-insensitively with surrounding and inner whitespace ignored', () => {
		const values = valuesByTitle(fillFields('  invoice   NUMBER :  X-1  \nTOTAL AMOUNT:12', INVOICE_SCHEMA_FIELDS));
		expect(values['Invoice Number']).toBe('X-1');
		expect(values['Total Amount']).toBe(12);
	});

	it('keeps the first convertible occurrence of a label', () => {
		const text = 'Total Amount: n/a\nTotal Amount: 10\nTotal Amount: 20';
		expect(valuesByTitle(fillFields(text, INVOICE_SCHEMA_FIELDS))['Total Amount']).toBe(10);
	});

	it('splits a label line at the first colon only', () => {
		expect(valuesByTitle(fillFields('Note: due at 10:30', [{ title: 'Note', type: 'STRING' }])).Note).toBe('due at 10:30');
	});

	it('leaves every field null when the text has no matching labels', () => {
		const values = valuesByTitle(fillFields('Nothing to see here\nReally: nothing', INVOICE_SCHEMA_FIELDS));
		expect(Object.values(values).every((value) => value === null)).toBe(true);
	});

	it('leaves a value null when it does not convert to the field type', () => {
		const fields: SchemaFieldDefinition[] = [
			{ title: 'Amount', type: 'NUMBER' },
			{ title: 'When', type: 'DATE' },
			{ title: 'Settled', type: 'BOOLEAN' },
			{ title: 'Method', type: 'STRING', enumValues: ['Cash', 'Card'] },
		];
		const values = valuesByTitle(fillFields('Amount: about ten\nWhen: soon\nSettled: maybe\nMethod: cheque', fields));
		expect(values).toEqual({ Amount: null, When: null, Settled: null, Method: null });
	});

	it('fills a table from a CSV file: header row plus data rows, no title line', () => {
		const values = valuesByTitle(fillFields(lineItemsCsv(), INVOICE_SCHEMA_FIELDS));
		expect(values['Line Items']).toEqual(INVOICE_EXPECTED['Line Items']);
	});

	it('ends a table at the first blank line', () => {
		const text = 'Line Items:\nDescription,Amount\nA,1\nB,2\n\nC,3';
		expect(valuesByTitle(fillFields(text, [lineItems]))['Line Items']).toEqual([
			{ Description: 'A', Quantity: null, 'Unit Price': null, Amount: 1 },
			{ Description: 'B', Quantity: null, 'Unit Price': null, Amount: 2 },
		]);
	});

	it('ends a table at a label line of another field and still fills that field', () => {
		const text = 'Line Items:\nDescription,Amount\nA,1\nTotal Amount: 1';
		const values = valuesByTitle(fillFields(text, INVOICE_SCHEMA_FIELDS));
		expect(values['Line Items']).toEqual([{ Description: 'A', Quantity: null, 'Unit Price': null, Amount: 1 }]);
		expect(values['Total Amount']).toBe(1);
	});

	it('ignores unknown columns, accepts columns in any order and other delimiters', () => {
		const text = 'Line Items:\nSKU; Amount; description\nS1; 1.234,50; Bolt\n';
		expect(valuesByTitle(fillFields(text, [lineItems]))['Line Items']).toEqual([
			{ Description: 'Bolt', Quantity: null, 'Unit Price': null, Amount: 1234.5 },
		]);
	});

	it('gives an empty list for a table header without rows, and null for a title without a header', () => {
		expect(valuesByTitle(fillFields('Line Items:\nDescription,Amount\n', [lineItems]))['Line Items']).toEqual([]);
		expect(valuesByTitle(fillFields('Line Items:\nnot, a, header\n', [lineItems]))['Line Items']).toBeNull();
	});

	it('does not treat a line with a single matching column as a table header', () => {
		expect(valuesByTitle(fillFields('Description,Colour\nA,red', [lineItems]))['Line Items']).toBeNull();
	});

	it('reads an OBJECT field without items from a JSON object value', () => {
		const fields: SchemaFieldDefinition[] = [{ title: 'Meta', type: 'OBJECT', items: null }];
		expect(valuesByTitle(fillFields('Meta: {"a":1}', fields)).Meta).toEqual({ a: 1 });
		expect(valuesByTitle(fillFields('Meta: [1]', fields)).Meta).toBeNull();
	});

	it('is deterministic: the same input gives the same output', () => {
		expect(fillFields(invoiceText(), INVOICE_SCHEMA_FIELDS)).toEqual(fillFields(invoiceText(), INVOICE_SCHEMA_FIELDS));
	});
});

describe('typed conversions', () => {
	it.each([
		['1,234.50', 1234.5],
		['$12', 12],
		['USD 1,234.50', 1234.5],
		['1.234,50 EUR', 1234.5],
		['€ 1.234.567', 1234567],
		['(12.00)', -12],
		['-$3.5', -3.5],
		['12%', 12],
		['1 234,5', 1234.5],
		['0.75', 0.75],
		['1,5', 1.5],
		['42', 42],
	])('parseNumber(%p) = %p', (raw, expected) => {
		expect(parseNumber(raw)).toBe(expected);
	});

	it.each(['INV-1234', 'twelve', '1,23,4', '12 apples', '', '1.2.3', '--1'])('parseNumber(%p) is null', (raw) => {
		expect(parseNumber(raw)).toBeNull();
	});

	it.each([
		['2024-03-15', null, '2024-03-15'],
		['2024-3-5', null, '2024-03-05'],
		['2024-03-15T23:10:00Z', null, '2024-03-15'],
		['2024/03/15', null, '2024-03-15'],
		['15/03/2024', null, '2024-03-15'],
		['03/15/2024', null, '2024-03-15'],
		['04/03/2024', null, '2024-03-04'],
		['04/03/2024', 'MM/DD/YYYY', '2024-04-03'],
		['15.03.24', null, '2024-03-15'],
		['15 March 2024', null, '2024-03-15'],
		['15-Mar-2024', null, '2024-03-15'],
		['March 15, 2024', null, '2024-03-15'],
		['Feb 3, 2024', null, '2024-02-03'],
		['1st Sept 1999', null, '1999-09-01'],
		['Friday, 15 March 2024', null, '2024-03-15'],
		['29/02/2024', null, '2024-02-29'],
	])('parseDate(%p, format %p) = %p', (raw, format, expected) => {
		expect(parseDate(raw, format)).toBe(expected);
	});

	it.each(['29/02/2023', '2024-13-01', '32 March 2024', 'Smarch 3, 2024', 'tomorrow', '15/03'])('parseDate(%p) is null', (raw) => {
		expect(parseDate(raw)).toBeNull();
	});

	it.each([
		['Yes', true],
		['TRUE', true],
		['paid', true],
		['x', true],
		['No', false],
		['false', false],
		['Unpaid', false],
		['not paid', false],
		['0', false],
	])('parseBoolean(%p) = %p', (raw, expected) => {
		expect(parseBoolean(raw)).toBe(expected);
	});

	it('parseBoolean of an unknown word is null', () => {
		expect(parseBoolean('perhaps')).toBeNull();
	});
});
