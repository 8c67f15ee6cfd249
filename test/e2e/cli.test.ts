/**
 * The example workflows in the real n8n CLI (import:credentials, import:workflow, execute --id),
 * with this package installed as a community package and the emulator on 127.0.0.1:
 * upload -> wait -> values for a PDF and a ZIP read from disk, a query over the uploaded files,
 * export status reports, and deleting the files.
 */
import * as fs from 'node:fs';

import { startEmulator, type Emulator } from '../../dev/emulator';
import {
	INVOICE_EXPECTED,
	INVOICE_FILE_NAME,
	INVOICE_PDF_FILE_NAME,
	RECEIPT_EXPECTED,
	RECEIPT_FILE_NAME,
} from '../../dev/documents';
import { EXAMPLE_ZIP_FILE_NAME, staleExampleDocuments } from '../../dev/example-documents';
import { e2eRuntime } from './helpers';
import { nodeOutput, type ExecutionOutput } from '../../dev/n8n/n8n-cli';
import { outboundAttempts } from '../../dev/n8n/n8n-env';
import {
	EMULATOR_CREDENTIAL_ID,
	EMULATOR_CREDENTIAL_NAME,
	NODE_TYPE,
	importCredentialsAndWorkflows,
	prepareUserFolder,
	readExample,
	type PreparedFolder,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';

const DELETE_WORKFLOW: WorkflowJson = {
	id: 'dexE2eDeleteAll1',
	name: 'e2e: delete every file',
	nodes: [
		{ id: 'd1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'd2',
			name: 'Get the files',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { resource: 'file', operation: 'getMany', returnAll: true, filters: {}, options: {} },
			credentials: { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } },
		},
		{
			id: 'd3',
			name: 'Delete them',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [440, 0],
			executeOnce: true,
			parameters: { resource: 'file', operation: 'delete', fileIds: '={{ $input.all().map((item) => item.json.fileId) }}', options: {} },
			credentials: { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } },
		},
	],
	connections: {
		Start: { main: [[{ node: 'Get the files', type: 'main', index: 0 }]] },
		'Get the files': { main: [[{ node: 'Delete them', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

const DISK = readExample('extract-documents-from-disk.json');
const QUERY = readExample('query-invoice-totals.json');
const EXPORT = readExample('report-export-status.json');

function failureOf(execution: ExecutionOutput): string | undefined {
	const error = execution.data.resultData.error;
	return error ? `${error.message ?? ''} ${error.description ?? ''}`.trim() : undefined;
}

describe('example workflows through the n8n CLI (community package + emulator)', () => {
	let prepared: PreparedFolder;
	let emulator: Emulator;

	beforeAll(async () => {
		prepared = await prepareUserFolder({ build: false, runtime: await e2eRuntime() });
		emulator = await startEmulator({ processingDelayMs: 300 });
		await importCredentialsAndWorkflows(prepared.cli, emulator, [DISK, QUERY, EXPORT, DELETE_WORKFLOW]);
	});

	afterAll(async () => {
		await emulator?.close();
		if (prepared && !process.env.E2E_KEEP) fs.rmSync(prepared.userFolder, { recursive: true, force: true });
	});

	const processedFiles = () => [...emulator.state.files.values()].filter((file) => file.status === 'processed');

	test('upload -> wait -> values: the PDF, the receipt and every member of the ZIP come out with their values; failed members say why', async () => {
		const execution = await prepared.cli.execute(DISK.id!);
		expect(failureOf(execution)).toBeUndefined();

		const read = nodeOutput(execution, 'Read documents from disk');
		expect(read.map((item) => item.fileName).sort()).toEqual([INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, EXAMPLE_ZIP_FILE_NAME].sort());

		const items = nodeOutput(execution, 'Upload, wait and read values');
		const pdf = items.filter((item) => item.fileName === INVOICE_PDF_FILE_NAME && item.zipUploadId === undefined);
		expect(pdf).toHaveLength(1);
		expect(pdf[0]).toMatchObject({ status: 'processed', fileType: 'application/pdf', fileClass: 'Invoice', values: INVOICE_EXPECTED });

		const receipt = items.filter((item) => item.fileName === RECEIPT_FILE_NAME && item.zipUploadId === undefined);
		expect(receipt).toHaveLength(1);
		expect(receipt[0]).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });

		const zipMembers = items.filter((item) => item.zipUploadId !== undefined);
		const byMember = new Map(zipMembers.map((item) => [item.zipMemberName, item]));
		expect([...byMember.keys()].sort()).toEqual([INVOICE_FILE_NAME, INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, 'broken.pdf', 'empty.txt'].sort());
		expect(new Set(zipMembers.map((item) => item.zipUploadId)).size).toBe(1);
		expect(byMember.get(INVOICE_FILE_NAME)).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
		expect(byMember.get(INVOICE_PDF_FILE_NAME)).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED, isDuplicate: true });
		expect(byMember.get(RECEIPT_FILE_NAME)).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });
		expect(byMember.get('broken.pdf')).toMatchObject({ status: 'failed', errorReason: 'The PDF could not be read' });
		expect(byMember.get('empty.txt')).toMatchObject({ status: 'failed', errorReason: 'The file is empty' });

		// One upload per document on disk: nothing was sent twice.
		const topLevelUploads = [...emulator.state.uploads.values()].filter((upload) => !upload.parentUploadId);
		expect(topLevelUploads.map((upload) => upload.params.fileName).sort()).toEqual([INVOICE_PDF_FILE_NAME, RECEIPT_FILE_NAME, EXAMPLE_ZIP_FILE_NAME].sort());
		expect(processedFiles()).toHaveLength(5);
	});

	test('query: one row per uploaded invoice, with its extracted values', async () => {
		const execution = await prepared.cli.execute(QUERY.id!);
		expect(failureOf(execution)).toBeUndefined();
		const rows = nodeOutput(execution, 'Invoices with their totals');
		expect(rows.map((row) => row.file)).toEqual([INVOICE_PDF_FILE_NAME, INVOICE_PDF_FILE_NAME, INVOICE_FILE_NAME]);
		for (const row of rows) {
			expect(row).toEqual({
				file: row.file,
				invoiceNumber: INVOICE_EXPECTED['Invoice Number'],
				vendor: INVOICE_EXPECTED['Vendor Name'],
				invoiceDate: INVOICE_EXPECTED['Invoice Date'],
				total: INVOICE_EXPECTED['Total Amount'],
				paid: false,
			});
		}
	});

	test('report export status: every processed file is reported "completed" once, the failed ones not at all', async () => {
		const before = emulator.requests.length;
		const execution = await prepared.cli.execute(EXPORT.id!);
		expect(failureOf(execution)).toBeUndefined();
		const reports = nodeOutput(execution, 'Report export completed');
		const processed = processedFiles();
		expect(reports.map((report) => report.fileId).sort()).toEqual(processed.map((file) => file.fileId).sort());
		for (const report of reports) expect(report).toMatchObject({ integrationExportStatus: 'completed' });
		for (const file of processed) {
			expect(file.exportInfo).toMatchObject({ integrationExportStatus: 'completed' });
			expect(file.exportInfo?.integrationExportMessages?.[0]).toContain(file.fileName);
		}
		for (const file of [...emulator.state.files.values()].filter((candidate) => candidate.status !== 'processed')) {
			expect(file.exportInfo).toBeNull();
		}
		const patches = emulator.requests.slice(before).filter((entry) => entry.method === 'PATCH' && entry.host === 'api');
		expect(patches).toHaveLength(processed.length);
	});

	test('delete: every file of the workspace is gone, one item per file says so', async () => {
		const fileIds = [...emulator.state.files.values()].map((file) => file.fileId);
		expect(fileIds.length).toBeGreaterThan(0);
		const execution = await prepared.cli.execute(DELETE_WORKFLOW.id!);
		expect(failureOf(execution)).toBeUndefined();
		const results = nodeOutput(execution, 'Delete them');
		expect(results.map((result) => result.fileId).sort()).toEqual([...fileIds].sort());
		for (const result of results) expect(result).toEqual({ fileId: result.fileId, deleted: true });
		expect(emulator.state.files.size).toBe(0);
	});

	test('examples/documents holds exactly what the fixtures generate (npx tsx dev/example-documents.ts rewrites it)', async () => {
		expect(await staleExampleDocuments()).toEqual([]);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(outboundAttempts(prepared.userFolder)).toEqual([]);
	});
});
