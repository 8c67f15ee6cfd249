/**
 * File > Download names the binary after the file record, and that name comes from the service:
 * control characters (a header injected with "\r\n"), invisible format characters, folder parts
 * ("/", "\", "..") and excess length never reach the binary data. The JSON beside it keeps the
 * record as answered.
 */
import type { IBinaryData } from 'n8n-workflow';

import { INVOICE_PDF_FILE_NAME, invoicePdf } from '../../dev/documents';
import type { BinaryDataMode } from '../../dev/harness';
import { readBinary } from '../../dev/harness';
import type { SeededFile } from './file-operations-support';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { useEmulator } from './support';

const emulator = useEmulator();
let pdf: Buffer;
let file: SeededFile;

beforeAll(async () => {
	pdf = invoicePdf();
	file = await seedFile(emulator, INVOICE_PDF_FILE_NAME, pdf, 'application/pdf');
});

/** The next file list answers `fileName` (and, when given, `fileType`) for every file. */
function answerName(fileName: unknown, fileType?: unknown): void {
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: '/files',
		edit: (body) => {
			const list = body as { files: Array<Record<string, unknown>> };
			list.files = list.files.map((record) => ({ ...record, fileName, ...(fileType === undefined ? {} : { fileType }) }));
			return list;
		},
	});
}

async function download(binaryDataMode: BinaryDataMode = 'default'): Promise<{ binary: IBinaryData; json: Record<string, unknown> }> {
	const { items, error } = await runFileOperation(emulator, 'download', { fileId: byId(file.fileId), binaryPropertyName: 'data' }, { binaryDataMode });
	expect(error).toBeUndefined();
	expect(items).toHaveLength(1);
	expect((await readBinary(items[0].binary!.data)).equals(pdf)).toBe(true);
	return { binary: items[0].binary!.data, json: items[0].json };
}

/** Nothing in the binary's metadata holds a control or format character, a folder or "..". */
function expectSafe(binary: IBinaryData): void {
	const name = binary.fileName ?? '';
	expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\]/u);
	expect(name).not.toBe('..');
	expect(name).not.toMatch(/^\.+$/);
	expect(binary.directory).toBeUndefined();
	expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
	expect(JSON.stringify(binary)).not.toContain('X-Injected: 1\\r');
}

describe('File > Download: the binary file name', () => {
	it.each(['default', 'filesystem'] as const)('a name with "\\r\\n" and a header after it loses the line break (%s binary mode)', async (mode) => {
		answerName('evil\r\nX-Injected: 1.html');

		const { binary, json } = await download(mode);

		expectSafe(binary);
		expect(binary.fileName).toBe('evilX-Injected: 1.html');
		expect(binary.fileExtension).toBe('html');
		// The record beside it stays as the service answered it.
		expect(json.fileName).toBe('evil\r\nX-Injected: 1.html');
	});

	it.each<[string, string]>([
		['../../etc/passwd', 'passwd'],
		['..\\..\\windows\\win.ini', 'win.ini'],
		['reports/2024/invoice.pdf', 'invoice.pdf'],
		['C:\\Users\\x\\invoice.pdf', 'invoice.pdf'],
		['invoice\u0000.pdf\u0000.exe', 'invoice.pdf.exe'],
		['invoice\u202Efdp.exe', 'invoicefdp.exe'],
		['\u0007bell\ttab.pdf', 'belltab.pdf'],
		['  spaced.pdf  ', 'spaced.pdf'],
	])('%j becomes %j', async (answered, expected) => {
		answerName(answered);

		const { binary } = await download();

		expectSafe(binary);
		expect(binary.fileName).toBe(expected);
	});

	it.each<[string, unknown]>([
		['".."', '..'],
		['"/"', '/'],
		['only control characters', '\r\n\u0000'],
		['"a/.."', 'a/..'],
		['empty', ''],
		['not text', { name: 'x' }],
	])('a name that is nothing once cleaned (%s) falls back to the file ID', async (_case, answered) => {
		answerName(answered);

		const { binary } = await download();

		expectSafe(binary);
		expect(binary.fileName).toBe(file.fileId);
	});

	it('a name of 1,000 characters is cut to 255 bytes, keeping its extension', async () => {
		answerName(`${'a'.repeat(1000)}.pdf`);

		const { binary } = await download();

		expectSafe(binary);
		expect(binary.fileName).toBe(`${'a'.repeat(251)}.pdf`);
		expect(binary.fileExtension).toBe('pdf');
	});

	it('a long name of multi-byte characters is cut on a character boundary', async () => {
		answerName(`${'請求書'.repeat(200)}.pdf`);

		const { binary } = await download();

		expectSafe(binary);
		expect(binary.fileName).toMatch(/^(請求書)+請?求?\.pdf$/u);
		expect(binary.fileName?.endsWith('.pdf')).toBe(true);
		expect(Buffer.byteLength(binary.fileName!, 'utf8')).toBeGreaterThan(245);
	});

	it('a MIME type with a line break is not used: the storage answer\'s, else application/octet-stream', async () => {
		answerName(INVOICE_PDF_FILE_NAME, 'application/pdf\r\nX-Injected: 1');

		const { binary } = await download();

		expect(binary.mimeType).not.toMatch(/[\r\n]/);
		expect(binary.mimeType).toMatch(/^[\w.+-]+\/[\w.+-]+/);
	});
});
